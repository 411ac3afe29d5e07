CREATE TABLE "svc_devices" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"event_ids" jsonb NOT NULL,
	"pairing_code_hash" text,
	"pairing_expires_utc" timestamp(0),
	"token_hash" text,
	"created_by" integer,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"paired_utc" timestamp(0),
	"last_seen_utc" timestamp(0),
	"pending_count" integer,
	"pending_reported_utc" timestamp(0),
	"revoked_utc" timestamp(0)
);
--> statement-breakpoint
CREATE TABLE "svc_checkins" (
	"id" serial PRIMARY KEY NOT NULL,
	"attendee_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"scanned_utc" timestamp(0) NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	"device_id" integer,
	"user_id" integer,
	"client_id" uuid NOT NULL,
	"source" text NOT NULL,
	"conflict" text,
	"annulled_utc" timestamp(0),
	"annulled_by" integer,
	CONSTRAINT "svc_checkins_device_client" UNIQUE NULLS NOT DISTINCT("device_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "svc_scan_log" (
	"id" serial PRIMARY KEY NOT NULL,
	"event_id" integer,
	"attendee_id" integer,
	"device_id" integer,
	"user_id" integer,
	"code_hash" text,
	"reason" text NOT NULL,
	"verdict_on_device" text,
	"client_id" uuid NOT NULL,
	"source" text NOT NULL,
	"scanned_utc" timestamp(0) NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	CONSTRAINT "svc_scan_log_device_client" UNIQUE NULLS NOT DISTINCT("device_id","client_id")
);
--> statement-breakpoint
CREATE TABLE "svc_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"entity" text NOT NULL,
	"entity_id" integer NOT NULL,
	"event_id" integer NOT NULL,
	"op" text NOT NULL,
	"created_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL
);
--> statement-breakpoint
CREATE TABLE "svc_sync_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"pruned_txid" "xid8" DEFAULT '0'::xid8 NOT NULL,
	"pruned_id" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "svc_devices" ADD CONSTRAINT "svc_devices_created_by_svc_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."svc_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_checkins" ADD CONSTRAINT "svc_checkins_event_id_svc_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."svc_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_checkins" ADD CONSTRAINT "svc_checkins_device_id_svc_devices_id_fk" FOREIGN KEY ("device_id") REFERENCES "public"."svc_devices"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_checkins" ADD CONSTRAINT "svc_checkins_user_id_svc_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."svc_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "svc_checkins" ADD CONSTRAINT "svc_checkins_annulled_by_svc_users_id_fk" FOREIGN KEY ("annulled_by") REFERENCES "public"."svc_users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_devices_token_hash" ON "svc_devices" USING btree ("token_hash") WHERE "svc_devices"."token_hash" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "svc_devices_pairing_code_hash" ON "svc_devices" USING btree ("pairing_code_hash") WHERE "svc_devices"."pairing_code_hash" is not null;--> statement-breakpoint
CREATE INDEX "svc_checkins_attendee" ON "svc_checkins" USING btree ("attendee_id","id");--> statement-breakpoint
CREATE INDEX "svc_checkins_event" ON "svc_checkins" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "svc_checkins_event_conflict" ON "svc_checkins" USING btree ("event_id") WHERE "svc_checkins"."conflict" is not null;--> statement-breakpoint
CREATE INDEX "svc_scan_log_event" ON "svc_scan_log" USING btree ("event_id","id");--> statement-breakpoint
CREATE INDEX "svc_changes_position" ON "svc_changes" USING btree ("txid","id");--> statement-breakpoint
CREATE INDEX "svc_changes_event_position" ON "svc_changes" USING btree ("event_id","txid","id");--> statement-breakpoint
CREATE INDEX "svc_changes_created" ON "svc_changes" USING btree ("created_utc");--> statement-breakpoint
CREATE INDEX "svc_changes_tombstones" ON "svc_changes" USING btree ("entity_id") WHERE "svc_changes"."op" = 'delete';--> statement-breakpoint
-- ==== custom SQL (issue 5: check-in and sync) — keep at the end of this file when regenerating ====
-- The change log is written by statement-level triggers with transition tables: one INSERT per
-- statement whatever its row count (a 500-scan push logs in one go), and no code path can forget it.
-- A check-in is logged as a change of its attendee: pull answers the attendee's current counts.
INSERT INTO "svc_sync_state" ("id") VALUES (1);
--> statement-breakpoint
CREATE FUNCTION svc_log_event_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT 'event', o.id, o.id, 'delete' FROM old_rows o;
  ELSE
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT 'event', n.id, n.id, 'upsert' FROM new_rows n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION svc_log_attendee_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT 'attendee', o.id, o.event_id, 'delete' FROM old_rows o;
  ELSE
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT 'attendee', n.id, n.event_id, 'upsert' FROM new_rows n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION svc_log_checkin_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT DISTINCT 'attendee', o.attendee_id, o.event_id, 'upsert' FROM old_rows o;
  ELSE
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT DISTINCT 'attendee', n.attendee_id, n.event_id, 'upsert' FROM new_rows n;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER svc_events_changes_ins AFTER INSERT ON svc_events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_event_changes();
--> statement-breakpoint
CREATE TRIGGER svc_events_changes_upd AFTER UPDATE ON svc_events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_event_changes();
--> statement-breakpoint
CREATE TRIGGER svc_events_changes_del AFTER DELETE ON svc_events REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_event_changes();
--> statement-breakpoint
CREATE TRIGGER svc_attendees_changes_ins AFTER INSERT ON svc_attendees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_attendee_changes();
--> statement-breakpoint
CREATE TRIGGER svc_attendees_changes_upd AFTER UPDATE ON svc_attendees REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_attendee_changes();
--> statement-breakpoint
CREATE TRIGGER svc_attendees_changes_del AFTER DELETE ON svc_attendees REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_attendee_changes();
--> statement-breakpoint
CREATE TRIGGER svc_checkins_changes_ins AFTER INSERT ON svc_checkins REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_checkin_changes();
--> statement-breakpoint
CREATE TRIGGER svc_checkins_changes_upd AFTER UPDATE ON svc_checkins REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_checkin_changes();
--> statement-breakpoint
CREATE TRIGGER svc_checkins_changes_del AFTER DELETE ON svc_checkins REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION svc_log_checkin_changes();
