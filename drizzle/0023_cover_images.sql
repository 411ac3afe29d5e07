CREATE TABLE "svc_image_variants" (
	"hash" text NOT NULL,
	"width" integer NOT NULL,
	"format" text NOT NULL,
	"height" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	CONSTRAINT "svc_image_variants_hash_width_format_pk" PRIMARY KEY("hash","width","format")
);
--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "cover_image" jsonb;--> statement-breakpoint
ALTER TABLE "svc_booking_types" ADD COLUMN "cover_image" jsonb;