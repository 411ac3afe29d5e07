CREATE TABLE "svc_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"quantity" integer NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"status" text NOT NULL,
	"source" text NOT NULL,
	"external_id" text,
	"custom_fields" text,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"paid_utc" timestamp(0)
);
--> statement-breakpoint
CREATE TABLE "svc_payment_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text,
	"session_id" text,
	"payment_ref" text,
	"amount_cents" integer NOT NULL,
	"outcome" text,
	"received_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"processed_utc" timestamp(0)
);
--> statement-breakpoint
CREATE TABLE "svc_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"booking_id" integer,
	"order_id" integer,
	"amount_cents" integer NOT NULL,
	"currency" text NOT NULL,
	"description" text NOT NULL,
	"customer_email" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"provider_session_id" text,
	"checkout_url" text,
	"payment_ref" text,
	"refund_ref" text,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"paid_utc" timestamp(0)
);
--> statement-breakpoint
ALTER TABLE "svc_attendees" ADD COLUMN "order_id" integer;--> statement-breakpoint
ALTER TABLE "svc_orders" ADD CONSTRAINT "svc_orders_event_id_svc_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."svc_events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "svc_orders_event_status" ON "svc_orders" USING btree ("event_id","status");--> statement-breakpoint
CREATE INDEX "svc_orders_status_created" ON "svc_orders" USING btree ("status","created_utc");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_orders_external" ON "svc_orders" USING btree ("source","external_id") WHERE "svc_orders"."external_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_payment_events_provider_event" ON "svc_payment_events" USING btree ("provider","event_id");--> statement-breakpoint
CREATE INDEX "svc_payments_booking" ON "svc_payments" USING btree ("booking_id");--> statement-breakpoint
CREATE INDEX "svc_payments_order" ON "svc_payments" USING btree ("order_id");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_payments_provider_session" ON "svc_payments" USING btree ("provider","provider_session_id");--> statement-breakpoint
CREATE INDEX "svc_payments_provider_ref" ON "svc_payments" USING btree ("provider","payment_ref");--> statement-breakpoint
CREATE INDEX "svc_attendees_order" ON "svc_attendees" USING btree ("order_id");