CREATE TABLE "svc_booking_meetings" (
	"booking_id" integer PRIMARY KEY NOT NULL,
	"url" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_host_profiles" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"bio" text DEFAULT '' NOT NULL,
	"meeting_url" text DEFAULT '' NOT NULL,
	"photo" "bytea",
	"photo_type" text,
	"photo_etag" text,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_booking_types" ADD COLUMN "meeting_link_pattern" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "svc_booking_meetings" ADD CONSTRAINT "svc_booking_meetings_booking_id_svc_bookings_booking_id_fk" FOREIGN KEY ("booking_id") REFERENCES "public"."svc_bookings"("booking_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_host_profiles" ADD CONSTRAINT "svc_host_profiles_user_id_svc_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."svc_users"("id") ON DELETE cascade ON UPDATE no action;