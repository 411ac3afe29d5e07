ALTER TABLE "svc_changes" ADD COLUMN "last_id" integer;--> statement-breakpoint
-- ==== custom SQL (issue 5: push speed) — keep at the end of this file when regenerating ====
-- A check-in INSERT is logged as one row per event and statement holding the range of ids it
-- inserted, not one row per attendee: a 500-scan push writes one change row instead of 500.
-- Pull expands the range to the attendees (svc_checkins' primary key). Annul (UPDATE) and DELETE
-- still log each attendee: deleted rows cannot be found by their ids afterwards.
CREATE OR REPLACE FUNCTION svc_log_checkin_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT DISTINCT 'attendee', o.attendee_id, o.event_id, 'upsert' FROM old_rows o;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO svc_changes (entity, entity_id, event_id, op) SELECT DISTINCT 'attendee', n.attendee_id, n.event_id, 'upsert' FROM new_rows n;
  ELSE
    INSERT INTO svc_changes (entity, entity_id, last_id, event_id, op) SELECT 'checkins', min(n.id), max(n.id), n.event_id, 'upsert' FROM new_rows n GROUP BY n.event_id;
  END IF;
  RETURN NULL;
END $$;
