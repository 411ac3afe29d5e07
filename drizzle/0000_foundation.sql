CREATE TABLE "svc_api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"token_hash" text NOT NULL,
	"role" text NOT NULL,
	"event_ids" jsonb,
	"created_by" integer,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"last_used_utc" timestamp(0),
	"expires_utc" timestamp(0),
	"revoked_utc" timestamp(0)
);
--> statement-breakpoint
CREATE TABLE "svc_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"expires_utc" timestamp(0) NOT NULL,
	"revoked_utc" timestamp(0)
);
--> statement-breakpoint
CREATE TABLE "svc_users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"role" text NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"password_hash" text,
	"event_ids" jsonb,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"updated_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_jobs" (
	"id" serial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"payload" jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"run_at_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 8 NOT NULL,
	"locked_until_utc" timestamp(0),
	"last_error" text,
	"dedupe_key" text,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"finished_utc" timestamp(0)
);
--> statement-breakpoint
CREATE TABLE "svc_outbox" (
	"id" serial PRIMARY KEY NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"attachments" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"topic" text,
	"error" text,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"sent_utc" timestamp(0)
);
--> statement-breakpoint
CREATE TABLE "svc_rate_limits" (
	"bucket" text NOT NULL,
	"window_start_utc" timestamp(0) NOT NULL,
	"hits" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "svc_rate_limits_bucket_window_start_utc_pk" PRIMARY KEY("bucket","window_start_utc")
);
--> statement-breakpoint
CREATE TABLE "svc_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_api_tokens" ADD CONSTRAINT "svc_api_tokens_created_by_svc_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."svc_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_sessions" ADD CONSTRAINT "svc_sessions_user_id_svc_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."svc_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_api_tokens_token_hash" ON "svc_api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_sessions_token_hash" ON "svc_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "svc_sessions_user" ON "svc_sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_users_email_lower" ON "svc_users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "svc_jobs_claim" ON "svc_jobs" USING btree ("state","run_at_utc");--> statement-breakpoint
CREATE UNIQUE INDEX "svc_jobs_dedupe" ON "svc_jobs" USING btree ("dedupe_key") WHERE "svc_jobs"."dedupe_key" is not null and "svc_jobs"."state" in ('queued','running');--> statement-breakpoint
CREATE INDEX "svc_outbox_topic" ON "svc_outbox" USING btree ("topic");