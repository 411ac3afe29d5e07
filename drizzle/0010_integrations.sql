CREATE TABLE "svc_webhook_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"endpoint_id" integer NOT NULL,
	"message_id" text NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_response_code" integer,
	"last_error" text,
	"duration_ms" integer,
	"next_attempt_utc" timestamp(0),
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_webhook_endpoints" (
	"id" serial PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"events" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"secret" text NOT NULL,
	"failing_since_utc" timestamp(0),
	"disabled_utc" timestamp(0),
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_timeline" (
	"id" serial PRIMARY KEY NOT NULL,
	"attendee_id" integer NOT NULL,
	"at_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"kind" text NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_booking_type_resources" (
	"booking_type_id" integer NOT NULL,
	"resource_id" integer NOT NULL,
	CONSTRAINT "svc_booking_type_resources_booking_type_id_resource_id_pk" PRIMARY KEY("booking_type_id","resource_id")
);
--> statement-breakpoint
CREATE TABLE "svc_resources" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"capacity" integer DEFAULT 1 NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_chat_pending" (
	"event_id" integer PRIMARY KEY NOT NULL,
	"first_checkin_id" integer,
	"pending_count" integer DEFAULT 0 NOT NULL,
	"last_sent_utc" timestamp(0),
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "fields" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "chat_webhook_url" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "submission_status" text;--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "submitter_name" text;--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "submitter_email" text;--> statement-breakpoint
ALTER TABLE "svc_webhook_deliveries" ADD CONSTRAINT "svc_webhook_deliveries_endpoint_id_svc_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."svc_webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_booking_type_resources" ADD CONSTRAINT "svc_booking_type_resources_booking_type_id_svc_booking_types_id_fk" FOREIGN KEY ("booking_type_id") REFERENCES "public"."svc_booking_types"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_booking_type_resources" ADD CONSTRAINT "svc_booking_type_resources_resource_id_svc_resources_id_fk" FOREIGN KEY ("resource_id") REFERENCES "public"."svc_resources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "svc_webhook_deliveries_endpoint" ON "svc_webhook_deliveries" USING btree ("endpoint_id","id");--> statement-breakpoint
CREATE INDEX "svc_webhook_deliveries_message" ON "svc_webhook_deliveries" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "svc_timeline_attendee" ON "svc_timeline" USING btree ("attendee_id","id");--> statement-breakpoint
CREATE INDEX "svc_booking_type_resources_resource" ON "svc_booking_type_resources" USING btree ("resource_id");--> statement-breakpoint
CREATE INDEX "svc_events_submission" ON "svc_events" USING btree ("submission_status","id");