/**
 * Event reminders (docs/api.md#event-reminders, docs/decisions/036-event-reminders.md): one
 * durable job per event, due `reminderMinutesBefore` before its start, re-planned whenever the
 * start, the lead or the publication changes. The job mails every going attendee who has no
 * reminder for this start yet, in batches, each batch one transaction that queues the mails and
 * records them (svc_attendee_reminders): a kill mid-run loses no batch and repeats none.
 */
import { venueMail } from '../events/venue-lines';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { cancelQueuedJobs, enqueueJob, type JobRunner } from '../../jobs/queue';
import { cancelQueuedMail, queueMail, type MailMessage } from '../../mail/mailer';
import { recipientLanguage } from '../../mail/language';
import { ticketQrPng } from '../../mail/ticket-qr';
import { translator } from '../../i18n/translate';
import { matchLocale, type Locale } from '../../../shared/i18n/locales';
import { toUtcString, utcMs } from '../../../shared/time';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { attendeesRepository, type AttendeeRecord } from './attendees.repository';
import { formatStart, TICKET_ATTACHMENT } from './attendees.mail';

export const EVENT_REMINDER_JOB = 'event.reminder';
/** Rows mailed per transaction: a crash redoes at most this many, and no lock is held long. */
export const REMINDER_BATCH_SIZE = 500;

/** Every reminder job of an event starts with this (cancelQueuedJobs matches the prefix). */
const reminderKeyPrefix = (eventId: number) => `event:${eventId}:reminder:`;
/**
 * One key per plan (start and lead): a job of an older plan that is running while the event
 * changes does not block the new plan's job, and finds its plan stale at its next batch.
 */
export const eventReminderDedupeKey = (eventId: number, startsUtc: string, minutesBefore: number) =>
  `${reminderKeyPrefix(eventId)}${startsUtc}/${minutesBefore}`;
/** What a reminder mail is about: a cancelled attendee's queued reminder is withdrawn by it. */
export const attendeeReminderTopic = (attendeeId: number) => `attendee:${attendeeId}:reminder`;

interface ReminderPlan {
  eventId: number;
  startsUtc: string;
  minutesBefore: number;
}

type PlannedFields = Pick<EventRow, 'id' | 'status' | 'startsUtc' | 'reminderMinutesBefore'>;

const samePlan = (a: PlannedFields, b: PlannedFields) =>
  a.status === b.status && a.startsUtc === b.startsUtc && a.reminderMinutesBefore === b.reminderMinutesBefore;

/**
 * Plans an event's reminder in the transaction that saves the event (`before` = the row as it
 * was, null for a new event): the queued job of the old plan is dropped and, for a published
 * event with a reminder that has not started, one is queued at start − lead, or now when that
 * is already past (an event moved closer, a lead made longer: its attendees are told now).
 */
export async function planEventReminder(db: Db, before: PlannedFields | null, after: PlannedFields, nowMs = Date.now()): Promise<void> {
  if (before && samePlan(before, after)) return;
  await cancelQueuedJobs(db, reminderKeyPrefix(after.id));
  const minutes = after.reminderMinutesBefore;
  const startMs = utcMs(after.startsUtc);
  if (after.status !== 'published' || minutes === null || startMs <= nowMs) return;
  const plan: ReminderPlan = { eventId: after.id, startsUtc: after.startsUtc, minutesBefore: minutes };
  await enqueueJob(
    db,
    EVENT_REMINDER_JOB,
    { ...plan },
    {
      runAtUtc: toUtcString(Math.max(startMs - minutes * 60_000, nowMs)),
      dedupeKey: eventReminderDedupeKey(after.id, after.startsUtc, minutes),
    },
  );
}

/** A deleted event's queued reminder goes with it, in the delete's transaction. */
export async function dropEventReminder(db: Db, eventId: number): Promise<void> {
  await cancelQueuedJobs(db, reminderKeyPrefix(eventId));
}

/** A cancelled (or waitlisted) attendee's reminder, queued and not sent yet, is not sent. */
export async function withdrawAttendeeReminder(db: Db, attendeeId: number): Promise<void> {
  await cancelQueuedMail(db, attendeeReminderTopic(attendeeId));
}

/** The reminder: the event, its time in the event's zone, the venue and directions, the ticket (code and QR) and the cancel link. */
export function buildReminderMail(publicUrl: string, event: EventRow, attendee: AttendeeRecord, locale: Locale): MailMessage {
  const tr = translator(locale);
  const title = event.title;
  const cancelUrl = `${publicUrl}/cancel/${attendee.cancelToken}`;
  const place = venueMail(tr, event);
  const lines = [
    tr('mail.hello', { name: attendee.displayName }),
    '',
    tr('mail.reminder.lead', { title }),
    '',
    tr('mail.when', { when: formatStart(event, locale) }),
    ...place.lines,
    tr('mail.seats', { count: attendee.quantity }),
    '',
    tr('mail.signup.ticketCode', { code: attendee.ticketCode }),
    tr('mail.signup.showQr', { file: TICKET_ATTACHMENT }),
    '',
    tr('mail.signup.cancel', { url: cancelUrl }),
  ];
  return {
    to: attendee.email,
    subject: tr('mail.reminder.subject', { title }),
    text: lines.join('\n'),
    attachments: [{ filename: TICKET_ATTACHMENT, contentType: 'image/png', content: ticketQrPng(attendee.ticketCode) }],
    topic: attendeeReminderTopic(attendee.id),
    linkOrigin: publicUrl,
    links: place.links,
    language: locale,
  };
}

/** Whether the plan a job was queued for is still the event's, and the event has not started at `nowMs`. */
function stillDue(event: EventRow | null, plan: ReminderPlan, nowMs: number): event is EventRow {
  return (
    event !== null &&
    event.status === 'published' &&
    event.startsUtc === plan.startsUtc &&
    event.reminderMinutesBefore === plan.minutesBefore &&
    utcMs(event.startsUtc) > nowMs
  );
}

/**
 * The job: batches of going attendees without a reminder for this start, each batch in one
 * transaction under the event's reminder lock — the plan re-read, the mails queued, the rows
 * recorded — until none is left. Answers how many mails it queued.
 */
export async function sendEventReminders(
  ctx: Pick<AppContext, 'db' | 'env'>,
  plan: ReminderPlan,
  nowMs: number,
  batchSize = REMINDER_BATCH_SIZE,
): Promise<number> {
  let queued = 0;
  for (;;) {
    const count = await ctx.db.transaction(async (tx) => {
      const repo = attendeesRepository(tx);
      await repo.lockEventReminders(plan.eventId);
      // re-read under the lock: an event moved or unpublished since the last batch stops the run
      const event = await eventsRepository(tx).findById(plan.eventId);
      if (!stillDue(event, plan, nowMs)) return 0;
      const rows = await repo.lockUnreminded(event.id, plan.startsUtc, batchSize);
      let fallback: Locale | undefined;
      for (const attendee of rows) {
        // the row's language, else the event's, else the organization's (read once a batch)
        const locale = matchLocale(attendee.language) ?? matchLocale(event.language) ?? (fallback ??= await recipientLanguage(tx, null));
        await queueMail(tx, buildReminderMail(ctx.env.publicUrl, event, attendee, locale), {
          onceKey: `event-reminder:${attendee.id}:${plan.startsUtc}`,
        });
      }
      await repo.markReminded(
        rows.map((r) => r.id),
        plan.startsUtc,
      );
      return rows.length;
    });
    queued += count;
    if (count === 0) return queued;
  }
}

export function registerEventReminderJobs(runner: JobRunner, ctx: AppContext): void {
  runner.register(EVENT_REMINDER_JOB, async (payload, job) => {
    const plan: ReminderPlan = { eventId: Number(payload.eventId), startsUtc: String(payload.startsUtc), minutesBefore: Number(payload.minutesBefore) };
    const queued = await sendEventReminders(ctx, plan, job.nowMs);
    if (queued > 0) job.logger.info({ eventId: plan.eventId, queued }, 'event reminders queued');
  });
}
