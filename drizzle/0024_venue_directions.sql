ALTER TABLE "svc_events" ADD COLUMN "venue_address" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "venue_lat" double precision;--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "venue_lon" double precision;