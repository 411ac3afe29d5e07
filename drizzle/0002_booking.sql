CREATE TABLE "svc_booking_types" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"slug" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"duration_minutes" integer NOT NULL,
	"slot_interval_minutes" integer,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"hosts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"assignment" text DEFAULT '' NOT NULL,
	"weekly_windows" jsonb NOT NULL,
	"days_off" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"min_notice_minutes" integer DEFAULT 0 NOT NULL,
	"max_advance_days" integer DEFAULT 60 NOT NULL,
	"buffer_before_minutes" integer DEFAULT 0 NOT NULL,
	"buffer_after_minutes" integer DEFAULT 0 NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"requires_approval" boolean DEFAULT false NOT NULL,
	"location_mode" text DEFAULT 'in_person' NOT NULL,
	"location_value" text DEFAULT '' NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_bookings" (
	"booking_id" serial PRIMARY KEY NOT NULL,
	"booking_type_id" integer NOT NULL,
	"host_user_id" integer NOT NULL,
	"customer_user_id" integer,
	"customer_email" text NOT NULL,
	"customer_name" text NOT NULL,
	"customer_tz" text NOT NULL,
	"start_utc" timestamp(0) NOT NULL,
	"end_utc" timestamp(0) NOT NULL,
	"status" text NOT NULL,
	"quantity" integer DEFAULT 1 NOT NULL,
	"payment_status" text,
	"order_id" text,
	"custom_fields" text,
	"rescheduled_from" timestamp(0),
	"cancel_token" text NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_slot_epochs" (
	"host_user_id" integer PRIMARY KEY NOT NULL,
	"epoch" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_bookings" ADD CONSTRAINT "svc_bookings_booking_type_id_svc_booking_types_id_fk" FOREIGN KEY ("booking_type_id") REFERENCES "public"."svc_booking_types"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_booking_types_slug" ON "svc_booking_types" USING btree ("slug");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_bookings_cancel_token" ON "svc_bookings" USING btree ("cancel_token");--> statement-breakpoint
CREATE INDEX "svc_bookings_host_start" ON "svc_bookings" USING btree ("host_user_id","start_utc");--> statement-breakpoint
CREATE INDEX "svc_bookings_type_start" ON "svc_bookings" USING btree ("booking_type_id","start_utc");--> statement-breakpoint
CREATE INDEX "svc_bookings_status_created" ON "svc_bookings" USING btree ("status","created_utc");