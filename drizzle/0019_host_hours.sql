CREATE TABLE "svc_host_hours" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"timezone" text NOT NULL,
	"weekly" jsonb NOT NULL,
	"overrides" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_booking_types" ADD COLUMN "hours_source" text DEFAULT 'type' NOT NULL;--> statement-breakpoint
ALTER TABLE "svc_host_hours" ADD CONSTRAINT "svc_host_hours_user_id_svc_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."svc_users"("id") ON DELETE cascade ON UPDATE no action;