CREATE TABLE "svc_host_busy" (
	"calendar_id" integer NOT NULL,
	"host_user_id" integer NOT NULL,
	"start_utc" timestamp(0) NOT NULL,
	"end_utc" timestamp(0) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_host_calendars" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"url" text NOT NULL,
	"username" text,
	"password_sealed" text,
	"write_back" boolean DEFAULT false NOT NULL,
	"timezone" text DEFAULT 'UTC' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"last_error" text,
	"last_refreshed_utc" timestamp(0),
	"last_success_utc" timestamp(0),
	"collection_url" text,
	"ctag" text,
	"sync_token" text,
	"etag" text,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_host_busy" ADD CONSTRAINT "svc_host_busy_calendar_id_svc_host_calendars_id_fk" FOREIGN KEY ("calendar_id") REFERENCES "public"."svc_host_calendars"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_host_calendars" ADD CONSTRAINT "svc_host_calendars_user_id_svc_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."svc_users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "svc_host_busy_host_start" ON "svc_host_busy" USING btree ("host_user_id","start_utc");--> statement-breakpoint
CREATE INDEX "svc_host_busy_calendar" ON "svc_host_busy" USING btree ("calendar_id");--> statement-breakpoint
CREATE INDEX "svc_host_calendars_user" ON "svc_host_calendars" USING btree ("user_id");