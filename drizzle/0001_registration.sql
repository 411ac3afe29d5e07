CREATE TABLE "svc_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"starts_utc" timestamp(0) NOT NULL,
	"ends_utc" timestamp(0),
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"venue" text DEFAULT '' NOT NULL,
	"capacity" integer,
	"max_per_signup" integer DEFAULT 10 NOT NULL,
	"signup_opens_utc" timestamp(0),
	"signup_closes_utc" timestamp(0),
	"waitlist" boolean DEFAULT true NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_attendees" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"quantity" integer NOT NULL,
	"status" text DEFAULT 'going' NOT NULL,
	"custom_fields" text,
	"cancel_token" text NOT NULL,
	"ticket_code" text NOT NULL,
	"ticket_code_hash" text NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_attendees" ADD CONSTRAINT "svc_attendees_event_id_svc_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."svc_events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "svc_events_starts" ON "svc_events" USING btree ("starts_utc");--> statement-breakpoint
CREATE INDEX "svc_events_updated" ON "svc_events" USING btree ("updated_utc");--> statement-breakpoint
CREATE INDEX "svc_attendees_event" ON "svc_attendees" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "svc_attendees_updated" ON "svc_attendees" USING btree ("updated_utc");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_attendees_cancel_token" ON "svc_attendees" USING btree ("cancel_token");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_attendees_ticket_code_hash" ON "svc_attendees" USING btree ("ticket_code_hash");