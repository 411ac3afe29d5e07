CREATE TABLE "svc_attendee_reminders" (
	"attendee_id" integer NOT NULL,
	"starts_utc" timestamp(0) NOT NULL,
	"queued_utc" timestamp(0) DEFAULT date_trunc('second', now() at time zone 'utc') NOT NULL,
	CONSTRAINT "svc_attendee_reminders_attendee_id_starts_utc_pk" PRIMARY KEY("attendee_id","starts_utc")
);
--> statement-breakpoint
ALTER TABLE "svc_events" ADD COLUMN "reminder_minutes_before" integer DEFAULT 1440;--> statement-breakpoint
ALTER TABLE "svc_attendee_reminders" ADD CONSTRAINT "svc_attendee_reminders_attendee_id_svc_attendees_id_fk" FOREIGN KEY ("attendee_id") REFERENCES "public"."svc_attendees"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Published events that start after their reminder time get their reminder job (default 24 h),
-- as saving them would plan it (server/modules/attendees/attendees.reminders.ts). Events already
-- inside it get none: their attendees were not promised one, and a deploy must not mail them all.
INSERT INTO "svc_jobs" ("type", "payload", "run_at_utc", "dedupe_key")
SELECT 'event.reminder',
       jsonb_build_object('eventId', e."id", 'startsUtc', to_char(e."starts_utc", 'YYYY-MM-DD HH24:MI:SS'), 'minutesBefore', e."reminder_minutes_before"),
       e."starts_utc" - make_interval(mins => e."reminder_minutes_before"),
       'event:' || e."id" || ':reminder:' || to_char(e."starts_utc", 'YYYY-MM-DD HH24:MI:SS') || '/' || e."reminder_minutes_before"
FROM "svc_events" e
WHERE e."status" = 'published' AND e."reminder_minutes_before" IS NOT NULL
  AND e."starts_utc" - make_interval(mins => e."reminder_minutes_before") > date_trunc('second', now() at time zone 'utc')
ON CONFLICT DO NOTHING;
