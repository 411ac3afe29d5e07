/**
 * Built-in booking listeners (free edition) at the contract's priority 10: confirmation with
 * `invite.ics`, "request received", the withheld confirmation on approval, the cancellation
 * email, and reminders as jobs. They only queue work (outbox + jobs); nothing is sent here.
 */
import { cancelQueuedJobs, enqueueJob, type JobRunner } from '../../jobs/queue';
import { cancelQueuedMail, queueMail, senderAddress } from '../../mail/mailer';
import { buildIcs, calendarUid, type IcsMethod, type IcsOrganizer } from '../../mail/ics';
import { calendarLinkLines } from '../../mail/calendar-links';
import { toUtcString, utcMs } from '../../../shared/time';
import { formatWhen } from '../../../shared/time-format';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { Hooks } from '../../hooks';
import {
  PRIORITY_BOOKING_APPROVED_EMAIL,
  PRIORITY_BOOKING_CANCELLED_EMAIL,
  PRIORITY_BOOKING_EMAIL,
  PRIORITY_BOOKING_PAID_EMAIL,
  PRIORITY_BOOKING_RESCHEDULED_EMAIL,
} from '../../hooks/priorities';
import type { BookingReadBackFailed, BookingRowStrings } from '../../hooks/types';
import { settingsService } from '../settings/settings.service';
import { describeLocation } from './booking-type.service';
import { bookingRepository, type BookingRow, type BookingTypeRow } from './booking.repository';
import {
  ANNOUNCE_BOOKING_CHANGED_JOB,
  ANNOUNCE_BOOKING_CREATED_JOB,
  ANNOUNCE_BOOKING_PAID_JOB,
  ANNOUNCE_BOOKING_REFUNDED_JOB,
  announceBookingChange,
  bookingService,
  sweepPaymentHolds,
  type BookingChange,
} from './booking.service';
import type { BookingStatus } from '../../../shared/booking';
import { translator, type ServerMessageKey } from '../../i18n/translate';
import { recipientLanguage } from '../../mail/language';
import type { Locale } from '../../../shared/i18n/locales';

export const BOOKING_REMINDER_JOB = 'booking.reminder';
export const PAYMENT_HOLD_SWEEP_JOB = 'booking.payment_hold_sweep';
/** Reminders go out this long before the start; a booking made later than that gets none. */
export const REMINDER_LEAD_MS = 24 * 3_600_000;
const SWEEP_INTERVAL_MS = 5 * 60_000;

export const reminderDedupeKey = (bookingId: number) => `booking:${bookingId}:reminder`;
export const bookingMailTopic = (bookingId: number) => `booking:${bookingId}`;

interface MailContext {
  booking: BookingRow;
  type: BookingTypeRow;
  host: { email: string; displayName: string } | null;
  location: string;
  /** The booking's own meeting link (docs/decisions/044-meeting-links.md), or null. */
  meetingUrl: string | null;
  manageUrl: string;
  /** The customer's stored language (the booking's, else the organization's): every mail about the booking speaks it. */
  locale: Locale;
  tr: (key: ServerMessageKey, values?: Record<string, string | number>) => string;
}

async function loadMailContext(ctx: AppContext, bookingId: number, db: Db = ctx.db): Promise<MailContext | null> {
  const booking = await bookingRepository.findBooking(db, bookingId);
  if (!booking) return null;
  const type = await bookingRepository.findType(db, booking.bookingTypeId);
  if (!type) return null;
  const [host, labels, locale, meetingUrl] = await Promise.all([
    bookingRepository.findUser(db, booking.hostUserId),
    settingsService({ db, hooks: ctx.hooks }).locationLabels(),
    recipientLanguage(db, booking.language),
    bookingRepository.meetingUrl(db, booking.bookingId),
  ]);
  return {
    locale,
    tr: translator(locale),
    booking,
    type,
    host,
    location: describeLocation(type, labels),
    meetingUrl,
    manageUrl: `${ctx.env.publicUrl}/manage/${booking.cancelToken}`,
  };
}

/**
 * `Sat 21 Nov, 09:00–10:00 CET (Berlin) · 08:00–09:00 GMT your time`: the host's zone (the
 * type's) first, the customer's clock second when it differs — the format the pages show.
 */
function formatWhenForCustomer(m: MailContext, booking: BookingRow = m.booking): string {
  return formatWhen({
    startUtc: booking.startUtc,
    endUtc: booking.endUtc,
    zone: m.type.timezone,
    viewerZone: booking.customerTz,
    locale: m.locale,
    yourTime: (time) => m.tr('mail.yourTime', { time }),
  }).text;
}

/**
 * The host organizes; the site's sender sends on the host's behalf, which RFC 5545 says with
 * SENT-BY (a calendar otherwise shows a stranger as the organizer, or refuses the update).
 */
function organizerOf(ctx: AppContext, m: MailContext): IcsOrganizer {
  const from = senderAddress(ctx.env.SVC_MAIL_FROM);
  // Without a host account the invite comes from the site's sender address itself.
  if (!m.host) return { name: 'svc', email: from };
  return { name: m.host.displayName || m.host.email, email: m.host.email, sentBy: from };
}

/** What the invite and the host calendar's copy (write-back) share: UID, title, times, location, sequence. */
function inviteEvent(ctx: Pick<AppContext, 'secret' | 'env'>, m: Pick<MailContext, 'booking' | 'type' | 'location' | 'meetingUrl'>) {
  const { booking, type } = m;
  return {
    uid: inviteUid(ctx, booking.bookingId),
    startUtc: booking.startUtc,
    endUtc: booking.endUtc,
    summary: type.title,
    // a calendar shows LOCATION as the place to go: for a virtual booking, its own meeting room
    location: m.meetingUrl || m.location || undefined,
    // Raised by every change of the booking, so two updates within one second still order right.
    sequence: booking.revision,
  };
}

function invite(ctx: AppContext, m: MailContext, method: IcsMethod): string {
  const { booking } = m;
  return buildIcs({
    method,
    ...inviteEvent(ctx, m),
    stampUtc: toUtcString(Date.now()),
    description: inviteDescription(m),
    url: m.manageUrl,
    organizer: organizerOf(ctx, m),
    attendee: { name: booking.customerName, email: booking.customerEmail },
  });
}

/** The invite's notes: the meeting link first when there is one, then where to manage the booking. */
function inviteDescription(m: MailContext): string {
  const manage = m.tr('ics.booking.description', { url: m.manageUrl });
  return m.meetingUrl ? `${m.tr('mail.booking.join', { url: m.meetingUrl })}\n${manage}` : manage;
}

/**
 * The mailed invite's event for the host's calendar (docs/decisions/042-calendar-write-back.md):
 * its UID, title, times, location and sequence, with the booking and its type; null when gone.
 */
export async function bookingInviteEvent(ctx: AppContext, bookingId: number) {
  const m = await loadMailContext(ctx, bookingId);
  return m ? { booking: m.booking, type: m.type, host: m.host, event: inviteEvent(ctx, m) } : null;
}

/** The booking's one calendar UID: the mailed invite's and the booking page's "Add to calendar" file's. */
export function inviteUid(ctx: Pick<AppContext, 'secret' | 'env'>, bookingId: number): string {
  return calendarUid(ctx, 'booking', bookingId);
}

/** RFC 6047 §2.4: the part says its iTIP method and charset, so mail clients and parsers read it right. */
const inviteType = (method: IcsMethod) => `text/calendar; charset=utf-8; method=${method}`;

function summaryLines(m: MailContext, whenKey: 'mail.when' | 'mail.booking.now' = 'mail.when'): string[] {
  const { booking, type, tr } = m;
  return [
    tr('mail.booking.what', { title: type.title }),
    tr(whenKey, { when: formatWhenForCustomer(m) }),
    ...(m.location ? [tr('mail.where', { where: m.location })] : []),
    ...(m.meetingUrl ? [tr('mail.booking.join', { url: m.meetingUrl })] : []),
    ...(m.host ? [tr('mail.booking.with', { name: m.host.displayName || m.host.email })] : []),
    ...(booking.quantity > 1 ? [tr('mail.seats', { count: booking.quantity })] : []),
  ];
}

interface ConfirmationOptions {
  /** A moved booking's mail: its own subject and lead. */
  moved?: boolean;
  /** A moved booking's former start (UTC): the mail names the old time beside the new one. */
  movedFromUtc?: string;
}

async function queueConfirmation(ctx: AppContext, m: MailContext, opts: ConfirmationOptions = {}, db: Db = ctx.db): Promise<void> {
  const { booking, type, tr } = m;
  const moved = opts.movedFromUtc ? [tr('mail.booking.was', { when: formatWhenForCustomer(m, movedFrom(booking, opts.movedFromUtc)) })] : [];
  // what the attached invite.ics carries, for a calendar that is not fed by the attachment
  const calendar = calendarLinkLines(tr, {
    title: type.title,
    startUtc: booking.startUtc,
    endUtc: booking.endUtc,
    location: m.meetingUrl || m.location,
    details: inviteDescription(m),
  });
  await queueMail(
    db,
    {
      to: booking.customerEmail,
      subject: opts.moved ? tr('mail.booking.subjectMoved', { title: type.title }) : tr('mail.booking.subjectConfirmed', { title: type.title }),
      text: [
        tr('mail.hello', { name: booking.customerName }),
        '',
        opts.moved ? tr('mail.booking.leadMoved') : tr('mail.booking.leadConfirmed'),
        '',
        ...summaryLines(m, moved.length ? 'mail.booking.now' : 'mail.when'),
        ...moved,
        '',
        tr('mail.booking.manage', { url: m.manageUrl }),
        '',
        ...calendar.lines,
      ].join('\n'),
      attachments: [{ filename: 'invite.ics', contentType: inviteType('REQUEST'), content: invite(ctx, m, 'REQUEST') }],
      topic: bookingMailTopic(booking.bookingId),
      linkOrigin: ctx.env.publicUrl,
      links: calendar.links,
      language: m.locale,
    },
    { onceKey: onceKey(m, 'confirmation') },
  );
}

/** The booking as it stood before the move: the old start, the same length. */
function movedFrom(booking: BookingRow, oldStartUtc: string): BookingRow {
  const length = utcMs(booking.endUtc) - utcMs(booking.startUtc);
  return { ...booking, startUtc: oldStartUtc, endUtc: toUtcString(utcMs(oldStartUtc) + length) };
}

/**
 * One mail of a kind per revision of the booking: a replayed announcement (a crash after the
 * listener ran, before its job was dropped) writes nothing twice.
 */
const onceKey = (m: MailContext, kind: string) => `${bookingMailTopic(m.booking.bookingId)}:${kind}:r${m.booking.revision}`;

async function scheduleReminder(ctx: AppContext, booking: BookingRow, db: Db = ctx.db): Promise<void> {
  const runAtMs = utcMs(booking.startUtc) - REMINDER_LEAD_MS;
  if (runAtMs <= Date.now()) return;
  await enqueueJob(
    db,
    BOOKING_REMINDER_JOB,
    { bookingId: booking.bookingId, startUtc: booking.startUtc },
    { runAtUtc: toUtcString(runAtMs), dedupeKey: reminderDedupeKey(booking.bookingId) },
  );
}

async function clearReminders(ctx: AppContext, bookingId: number, db: Db = ctx.db): Promise<void> {
  await cancelQueuedJobs(db, reminderDedupeKey(bookingId));
  await cancelQueuedMail(db, `${bookingMailTopic(bookingId)}:reminder`);
}

/**
 * The cancellation mail. A declined request, or a held booking whose payment never landed, never
 * had an invite, so its mail carries no calendar CANCEL.
 */
async function queueCancellation(ctx: AppContext, m: MailContext, db: Db = ctx.db, declined = false): Promise<void> {
  const hadInvite = !declined && m.booking.paymentStatus !== 'pending';
  await queueMail(
    db,
    {
      to: m.booking.customerEmail,
      subject: m.tr('mail.booking.subjectCancelled', { title: m.type.title }),
      text: [
        m.tr('mail.hello', { name: m.booking.customerName }),
        '',
        declined ? m.tr('mail.booking.leadDeclined') : m.tr('mail.booking.leadCancelled'),
        '',
        ...summaryLines(m),
      ].join('\n'),
      attachments: hadInvite ? [{ filename: 'invite.ics', contentType: inviteType('CANCEL'), content: invite(ctx, m, 'CANCEL') }] : [],
      topic: bookingMailTopic(m.booking.bookingId),
      language: m.locale,
    },
    { onceKey: onceKey(m, 'cancelled') },
  );
}

/**
 * In the payment's own transaction (docs/api.md#payments): the paid booking's confirmation (and
 * its reminder), so neither a crash after the commit nor a mail insert that fails can lose it —
 * a failed insert rolls the payment back and its job runs again. The `svc_booking_paid` listener
 * writes the same mail under the same once key afterwards, which then writes nothing.
 */
export async function queuePaidConfirmation(ctx: AppContext, tx: Db, bookingId: number): Promise<void> {
  const m = await loadMailContext(ctx, bookingId, tx);
  if (!m) return;
  await queueConfirmation(ctx, m, {}, tx);
  await scheduleReminder(ctx, m.booking, tx);
}

/** In the refund's own transaction: a refunded booking's cancellation mail, as `queuePaidConfirmation`. */
export async function queueRefundCancellation(ctx: AppContext, tx: Db, bookingId: number): Promise<void> {
  const m = await loadMailContext(ctx, bookingId, tx);
  if (!m) return;
  await queueCancellation(ctx, m, tx);
  await clearReminders(ctx, bookingId, tx);
}

export function registerBookingListeners(hooks: Hooks, ctx: AppContext): void {
  hooks.addAction(
    'svc_booking_created',
    async (bookingId: number, data: BookingRowStrings | BookingReadBackFailed) => {
      const m = await loadMailContext(ctx, bookingId);
      if (!m) return;
      const status = data.status ?? m.booking.status;
      if (status === 'confirmed') {
        await queueConfirmation(ctx, m);
        await scheduleReminder(ctx, m.booking);
      } else if (status === 'pending_approval') {
        await queueMail(
          ctx.db,
          {
            to: m.booking.customerEmail,
            subject: m.tr('mail.booking.subjectRequested', { title: m.type.title }),
            text: [
              m.tr('mail.hello', { name: m.booking.customerName }),
              '',
              m.tr('mail.booking.leadRequested'),
              '',
              ...summaryLines(m),
              '',
              m.tr('mail.booking.seeRequest', { url: m.manageUrl }),
            ].join('\n'),
            topic: bookingMailTopic(bookingId),
            linkOrigin: ctx.env.publicUrl,
            language: m.locale,
          },
          { onceKey: onceKey(m, 'requested') },
        );
      }
    },
    PRIORITY_BOOKING_EMAIL,
    2,
  );

  hooks.addAction(
    'svc_booking_approved',
    async (bookingId: number) => {
      const m = await loadMailContext(ctx, bookingId);
      if (!m) return;
      await queueConfirmation(ctx, m);
      await scheduleReminder(ctx, m.booking);
    },
    PRIORITY_BOOKING_APPROVED_EMAIL,
  );

  // docs/api.md#payments: a paid booking's confirmation goes out when the payment lands.
  hooks.addAction(
    'svc_booking_paid',
    async (bookingId: number) => {
      const m = await loadMailContext(ctx, bookingId);
      if (!m) return;
      await queueConfirmation(ctx, m);
      await scheduleReminder(ctx, m.booking);
    },
    PRIORITY_BOOKING_PAID_EMAIL,
  );

  /**
   * A declined request never had an invite: its cancellation mail carries no calendar CANCEL.
   * svc_booking_declined is followed by svc_booking_cancelled in the same call (contract), so
   * the mark lives only between the two.
   */
  const declinedNow = new Set<number>();
  hooks.addAction(
    'svc_booking_declined',
    (bookingId: number) => {
      declinedNow.add(bookingId);
    },
    PRIORITY_BOOKING_CANCELLED_EMAIL,
  );

  hooks.addAction(
    'svc_booking_cancelled',
    async (bookingId: number) => {
      const declined = declinedNow.delete(bookingId);
      const m = await loadMailContext(ctx, bookingId);
      if (!m) return;
      await queueCancellation(ctx, m, ctx.db, declined);
      await clearReminders(ctx, bookingId);
    },
    PRIORITY_BOOKING_CANCELLED_EMAIL,
  );

  hooks.addAction(
    'svc_booking_rescheduled',
    async (bookingId: number, oldStartUtc: string) => {
      const m = await loadMailContext(ctx, bookingId);
      if (!m) return;
      await clearReminders(ctx, bookingId);
      if (m.booking.status !== 'confirmed') return;
      await queueConfirmation(ctx, m, {
        moved: true,
        // the contract passes an empty old start when the column was empty: then there is no old time to name
        movedFromUtc: oldStartUtc || undefined,
      });
      await scheduleReminder(ctx, m.booking);
    },
    PRIORITY_BOOKING_RESCHEDULED_EMAIL,
    2,
  );
}

export function registerBookingJobs(runner: JobRunner, ctx: AppContext): void {
  // A request that died between its commit and its actions, or whose listener threw: they run here (server/jobs/announcements.ts).
  runner.register(ANNOUNCE_BOOKING_CREATED_JOB, async (payload, job) => {
    await bookingService(ctx).announceCreated(Number(payload.bookingId), payload.status as BookingStatus);
    job.logger.warn({ bookingId: payload.bookingId }, 'announced a booking after its request (which died after its commit, or whose listener failed)');
  });
  // Approval, decline, cancel or reschedule whose request died after its commit, or whose listeners threw.
  runner.register(ANNOUNCE_BOOKING_CHANGED_JOB, async (payload, job) => {
    const change = payload as unknown as BookingChange;
    await announceBookingChange(ctx.hooks, change);
    job.logger.warn({ bookingId: change.bookingId, change: change.change }, 'announced a booking change after its request');
  });

  runner.register(ANNOUNCE_BOOKING_PAID_JOB, async (payload, job) => {
    await bookingService(ctx).announcePaid(Number(payload.bookingId));
    job.logger.warn({ bookingId: payload.bookingId }, 'announced a paid booking whose writer died after its commit');
  });
  runner.register(ANNOUNCE_BOOKING_REFUNDED_JOB, async (payload, job) => {
    await bookingService(ctx).announceRefunded(Number(payload.bookingId));
    job.logger.warn({ bookingId: payload.bookingId }, 'announced a refunded booking whose writer died after its commit');
  });

  runner.register(BOOKING_REMINDER_JOB, async (payload) => {
    const bookingId = Number(payload.bookingId);
    const m = await loadMailContext(ctx, bookingId);
    // A booking cancelled or moved since the job was queued gets no stale reminder.
    if (m?.booking.status !== 'confirmed' || m.booking.startUtc !== payload.startUtc) return;
    await queueMail(ctx.db, {
      to: m.booking.customerEmail,
      subject: m.tr('mail.booking.subjectReminder', { title: m.type.title }),
      text: [
        m.tr('mail.hello', { name: m.booking.customerName }),
        '',
        m.tr('mail.booking.leadReminder'),
        '',
        ...summaryLines(m),
        '',
        m.tr('mail.booking.manageShort', { url: m.manageUrl }),
      ].join('\n'),
      topic: `${bookingMailTopic(bookingId)}:reminder`,
      linkOrigin: ctx.env.publicUrl,
      language: m.locale,
    });
  });

  runner.every(PAYMENT_HOLD_SWEEP_JOB, SWEEP_INTERVAL_MS, async (_payload, job) => {
    const released = await sweepPaymentHolds(ctx);
    if (released.length) job.logger.info({ released: released.length }, 'payment holds released');
  });
}
