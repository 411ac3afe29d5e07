CREATE TABLE "svc_ticket_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"price_cents" integer DEFAULT 0 NOT NULL,
	"quota" integer,
	"sale_starts_utc" timestamp(0),
	"sale_ends_utc" timestamp(0),
	"min_per_order" integer DEFAULT 1 NOT NULL,
	"max_per_order" integer,
	"hidden" boolean DEFAULT false NOT NULL,
	"position" integer DEFAULT 0 NOT NULL,
	"tax_rate_bp" integer DEFAULT 0 NOT NULL,
	"tax_mode" text DEFAULT 'included' NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_voucher_redemptions" (
	"id" serial PRIMARY KEY NOT NULL,
	"voucher_id" integer NOT NULL,
	"email" text NOT NULL,
	"quantity" integer NOT NULL,
	"order_id" integer,
	"attendee_id" integer,
	"released_utc" timestamp(0),
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_vouchers" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer NOT NULL,
	"code" text NOT NULL,
	"code_key" text NOT NULL,
	"kind" text NOT NULL,
	"value" integer NOT NULL,
	"category_ids" jsonb,
	"max_uses" integer,
	"max_uses_per_email" integer,
	"valid_from_utc" timestamp(0),
	"valid_until_utc" timestamp(0),
	"unlocks_hidden" boolean DEFAULT false NOT NULL,
	"used_count" integer DEFAULT 0 NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_attendees" ADD COLUMN "ticket_category_id" integer;--> statement-breakpoint
ALTER TABLE "svc_devices" ADD COLUMN "category_ids" jsonb;--> statement-breakpoint
ALTER TABLE "svc_orders" ADD COLUMN "net_cents" integer;--> statement-breakpoint
ALTER TABLE "svc_orders" ADD COLUMN "tax_cents" integer;--> statement-breakpoint
ALTER TABLE "svc_orders" ADD COLUMN "voucher_id" integer;--> statement-breakpoint
ALTER TABLE "svc_orders" ADD COLUMN "voucher_code" text;--> statement-breakpoint
ALTER TABLE "svc_orders" ADD COLUMN "discount_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "svc_ticket_categories" ADD CONSTRAINT "svc_ticket_categories_event_id_svc_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."svc_events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_voucher_redemptions" ADD CONSTRAINT "svc_voucher_redemptions_voucher_id_svc_vouchers_id_fk" FOREIGN KEY ("voucher_id") REFERENCES "public"."svc_vouchers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_vouchers" ADD CONSTRAINT "svc_vouchers_event_id_svc_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."svc_events"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "svc_ticket_categories_event" ON "svc_ticket_categories" USING btree ("event_id","position","id");--> statement-breakpoint
CREATE INDEX "svc_voucher_redemptions_voucher_email" ON "svc_voucher_redemptions" USING btree ("voucher_id","email");--> statement-breakpoint
CREATE INDEX "svc_voucher_redemptions_order" ON "svc_voucher_redemptions" USING btree ("order_id") WHERE "svc_voucher_redemptions"."order_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_vouchers_event_code" ON "svc_vouchers" USING btree ("event_id","code_key");--> statement-breakpoint
CREATE INDEX "svc_attendees_event_category" ON "svc_attendees" USING btree ("event_id","ticket_category_id");