/**
 * Bookings written into the host's calendar (docs/api.md#host-calendars, write-back;
 * docs/decisions/042-calendar-write-back.md). When a booking is confirmed, moved or cancelled,
 * a durable job is queued for its host's write-back calendar; the job reads the booking as it
 * is when it runs and writes that: confirmed → PUT (under the mailed invite's UID), cancelled,
 * abandoned or declined → DELETE, still pending → nothing. A job that runs late therefore never
 * brings back a cancelled booking. The jobs of one host run one after another in the outbound
 * lane (a calendar server that never answers holds one outbound slot, never a mail), and a
 * failed write is retried with the queue's backoff.
 *
 * The listeners run in the contract's held announcements (server/jobs/announcements.ts): the
 * announcement is queued in the transaction that makes the change true and runs until its
 * listeners ran through, so no change's job is lost to a crash after the commit.
 */
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { Hooks } from '../../hooks';
import { PRIORITY_CALENDAR_WRITEBACK } from '../../hooks/priorities';
import { enqueueJob, OUTBOUND_RECEIVER, type JobRunner } from '../../jobs/queue';
import { buildIcsObject, calendarUid } from '../../mail/ics';
import { languageOfAddress } from '../../mail/language';
import { translator } from '../../i18n/translate';
import { openSecret } from '../../security/crypto';
import { toUtcString } from '../../../shared/time';
import { bookingInviteEvent } from '../booking/booking.notifications';
import { bookingRepository } from '../booking/booking.repository';
import { CalendarWriteError, deleteEvent, putEvent, type WriteTarget } from './calendar-writer';
import { calendarsRepository, type HostCalendarRow } from './calendars.repository';
import { calendarPolicy, PASSWORD_PURPOSE, REFRESH_TIMEOUT_MS } from './calendars.service';

export const CALENDAR_WRITEBACK_JOB = 'calendars.write_back';
/** Attempts before a write is given up (5 s doubling, capped at an hour: about ten hours of retries). */
const WRITEBACK_ATTEMPTS = 20;

/** The job's dedupe key: one job per booking and revision, so a replayed announcement queues nothing twice. */
export const writeBackDedupeKey = (bookingId: number, revision: number) => `${CALENDAR_WRITEBACK_JOB}:${bookingId}:r${revision}`;

/** The host's write-back calendar: the first (oldest) CalDAV calendar with `writeBack` on, or none. */
export async function writeBackCalendarOf(db: Db, hostUserId: number): Promise<HostCalendarRow | null> {
  const rows = await calendarsRepository.listForUser(db, hostUserId);
  return rows.find((r) => r.writeBack && r.kind === 'caldav') ?? null;
}

/** Queues the write of `bookingId` as it will be when the job runs, if its host has a write-back calendar. */
export async function queueWriteBack(ctx: Pick<AppContext, 'db'>, bookingId: number, create: boolean, db: Db = ctx.db): Promise<number | null> {
  const booking = await bookingRepository.findBooking(db, bookingId);
  if (!booking || !(await writeBackCalendarOf(db, booking.hostUserId))) return null;
  return enqueueJob(
    db,
    CALENDAR_WRITEBACK_JOB,
    // one host's writes run one after another: a move never overtakes the create it follows
    { bookingId, create, [OUTBOUND_RECEIVER]: `calendar-writeback:${booking.hostUserId}` },
    { dedupeKey: writeBackDedupeKey(bookingId, booking.revision), maxAttempts: WRITEBACK_ATTEMPTS },
  );
}

/**
 * The event as the host's calendar shows it: the mailed invite's UID, title, times, location and
 * sequence (the same function builds both); the description names the booking type and the
 * customer, in the host's language. The manage link is the visitor's secret and is left out.
 */
async function eventOf(ctx: AppContext, bookingId: number, nowMs: number): Promise<string | null> {
  const invite = await bookingInviteEvent(ctx, bookingId);
  if (!invite) return null;
  const { booking, type, host } = invite;
  const tr = translator(host ? await languageOfAddress(ctx.db, host.email) : 'en');
  return buildIcsObject({
    ...invite.event,
    stampUtc: toUtcString(nowMs),
    description: tr('ics.booking.hostDescription', { type: type.title, name: booking.customerName, email: booking.customerEmail }),
  });
}

/** Runs one write-back: what the booking is now, into the host's write-back calendar. */
export async function runWriteBack(ctx: AppContext, bookingId: number, create: boolean, nowMs = Date.now()): Promise<'written' | 'removed' | 'skipped'> {
  const booking = await bookingRepository.findBooking(ctx.db, bookingId);
  if (!booking) return 'skipped';
  // still awaiting payment or approval: written once confirmed
  if (booking.status === 'pending_payment' || booking.status === 'pending_approval') return 'skipped';
  const calendar = await writeBackCalendarOf(ctx.db, booking.hostUserId);
  if (!calendar) return 'skipped';
  const password = calendar.passwordSealed ? openSecret(ctx.secret, PASSWORD_PURPOSE, calendar.passwordSealed) : null;
  if (calendar.passwordSealed && password === null)
    throw new CalendarWriteError('the stored calendar password cannot be opened (the server secret changed): enter it again');
  const target: WriteTarget = { collectionUrl: calendar.collectionUrl ?? calendar.url, username: calendar.username, password };
  const opts = { policy: calendarPolicy(ctx), timeoutMs: REFRESH_TIMEOUT_MS };
  const uid = calendarUid(ctx, 'booking', booking.bookingId);
  if (booking.status === 'confirmed') {
    const ics = await eventOf(ctx, booking.bookingId, nowMs);
    if (!ics) return 'skipped';
    await putEvent(target, uid, ics, create, opts);
    return 'written';
  }
  await deleteEvent(target, uid, opts);
  return 'removed';
}

export function registerCalendarWriteBackListeners(hooks: Hooks, ctx: AppContext): void {
  // confirmed at creation, on approval and once paid
  hooks.addAction('svc_booking_confirmed', (bookingId: number) => queueWriteBack(ctx, bookingId, true).then(() => undefined), PRIORITY_CALENDAR_WRITEBACK);
  hooks.addAction('svc_booking_rescheduled', (bookingId: number) => queueWriteBack(ctx, bookingId, false).then(() => undefined), PRIORITY_CALENDAR_WRITEBACK);
  // cancelled, declined, refunded
  hooks.addAction('svc_booking_cancelled', (bookingId: number) => queueWriteBack(ctx, bookingId, false).then(() => undefined), PRIORITY_CALENDAR_WRITEBACK);
}

export function registerCalendarWriteBackJobs(runner: JobRunner, ctx: AppContext): void {
  runner.register(
    CALENDAR_WRITEBACK_JOB,
    async (payload, job) => {
      const bookingId = payload.bookingId;
      if (!Number.isSafeInteger(bookingId)) throw new Error('a calendar write-back job is malformed');
      const outcome = await runWriteBack(ctx, bookingId as number, payload.create === true, job.nowMs);
      job.logger.debug({ bookingId, outcome }, 'booking written back to the host calendar');
    },
    { lane: 'outbound' },
  );
}
