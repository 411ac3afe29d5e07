/**
 * The booking service: create (contract order), cancel, reschedule, approve/decline, the
 * holder's view, the admin list and the payment-hold sweeper.
 *
 * No double booking: the live-slot check and the insert happen in one transaction that first
 * takes a transaction-scoped advisory lock on every host that could be written (ascending ids,
 * so no lock cycle), then reads the agendas again and only then inserts. Every write that can
 * change a host's agenda takes the same lock, so two bookings that touch one host are decided
 * one after the other, on every instance sharing the database (docs/decisions/008-booking-engine.md).
 * `svc_booking_slots` runs inside that transaction (`slotWritePath()`): the extended edition's
 * shared resources lock their rows there, after the host locks and in id order, so two types
 * that share a room are decided one after the other too (docs/api.md#resources).
 */
import { languageForNewRow, type RequestLanguage } from '../../mail/language';
import { createHash } from 'node:crypto';
import { AppError } from '../../../shared/errors';
import {
  CANCEL_TOKEN_RE,
  SLOT_HOLDING_STATUSES,
  type AdminCreateBookingInput,
  type BookingListQuery,
  type BookingStatus,
  type BookingCreatedDto,
  type BookingDto,
  type BookingHolderDto,
  type CreateBookingInput,
} from '../../../shared/booking';
import { occupiedFrom, occupiedTo, type BusyBooking } from '../../../shared/booking/slots';
import { DAY_MS, zoneTimeline } from '../../../shared/booking/tz';
import { parseUtcString, toUtcString, utcMs } from '../../../shared/time';
import type { AppContext } from '../../context';
import { transactionWithFinalWrite, type Db } from '../../db/client';
import { applyContractFilter, encodeCustomFields } from '../../hooks';
import type { AssignmentStrategy, BookingRowStrings, RedactedBookingRow } from '../../hooks/types';
import { newCancelToken, randomToken, safeEqual, sha256Hex } from '../../security/crypto';
import { announce, holdAnnouncement } from '../../jobs/announcements';
import type { Hooks } from '../../hooks';
import { calendarUid } from '../../mail/ics';
import { assertNonce, PUBLIC_FORM_NONCE_ACTION } from '../../security/nonce';
import { enforceRateLimit } from '../../security/throttle';
import { calendarsService } from '../hosts/calendars.service';
import { settingsService } from '../settings/settings.service';
import { bookingTypeService, describeLocation, effectiveAssignment, toBookingTypeConfig } from './booking-type.service';
import { bookingRepository, type BookingRepository, type BookingRow, type BookingTypeRow, type NewMeeting } from './booking.repository';
import { organizationSlug } from '../../../shared/booking/meeting-links';
import type { Principal } from '../../auth/principal';
import { slotService } from './slot.service';
import { walletAvailable } from '../../wallet/pass';
import { paymentsRepository } from '../orders/payments.repository';

const MINUTE_MS = 60_000;

/** Contract Limits: booking submissions per IP (key: md5 of the IP) and per email. */
export const BOOKING_IP_LIMIT = { limit: 8, windowSeconds: 60 } as const;
export const BOOKING_EMAIL_LIMIT = { limit: 5, windowSeconds: 3600 } as const;
/** The held job behind a new booking's actions (server/jobs/announcements.ts). */
export const ANNOUNCE_BOOKING_CREATED_JOB = 'announce.booking_created';
/** The held jobs behind a paid booking's actions, and a refunded one's cancellation. */
export const ANNOUNCE_BOOKING_PAID_JOB = 'announce.booking_paid';
export const ANNOUNCE_BOOKING_REFUNDED_JOB = 'announce.booking_refunded';

/** What a payment's verdict did to its booking, and the actions to run once that commits. */
export interface AppliedPayment {
  outcome: 'confirmed' | 'already' | 'released' | 'abandoned' | 'cancelled' | 'unchanged';
  after: () => Promise<void>;
}

/**
 * The held job behind a booking's actions after approval, decline, cancel and reschedule
 * (server/jobs/announcements.ts): their listeners queue the mail, so the job is queued in the
 * transaction that makes the change true, and no crash or failed mail insert loses it.
 */
export const ANNOUNCE_BOOKING_CHANGED_JOB = 'announce.booking_changed';

/** What changed, as the held job's payload: enough to fire the contract's actions again. */
export type BookingChange =
  { bookingId: number; change: 'approved' | 'declined' | 'cancelled' } | { bookingId: number; change: 'rescheduled'; oldStart: string; newStart: string };

/** The contract's actions after a change, in its order; run by the writer after commit, or by a runner. */
export async function announceBookingChange(hooks: Hooks, c: BookingChange): Promise<void> {
  switch (c.change) {
    case 'approved':
      await hooks.doAction('svc_booking_approved', c.bookingId);
      await hooks.doAction('svc_booking_confirmed', c.bookingId);
      return;
    case 'declined':
      await hooks.doAction('svc_booking_declined', c.bookingId);
      await hooks.doAction('svc_booking_cancelled', c.bookingId);
      return;
    case 'cancelled':
      await hooks.doAction('svc_booking_cancelled', c.bookingId);
      return;
    case 'rescheduled':
      await hooks.doAction('svc_booking_rescheduled', c.bookingId, c.oldStart, c.newStart);
  }
}

/** Throttle bucket of an IP: the contract keys the per-IP limit by the md5 of the IP. */
export function bookingIpBucket(ip: string): string {
  return `booking:ip:${createHash('md5').update(ip).digest('hex')}`;
}

export function bookingEmailBucket(email: string): string {
  return `booking:email:${sha256Hex(email.trim().toLowerCase())}`;
}

export type { BookingCreatedDto, BookingDto, BookingHolderDto };

export function toBookingDto(row: BookingRow): BookingDto {
  return {
    bookingId: row.bookingId,
    bookingTypeId: row.bookingTypeId,
    hostUserId: row.hostUserId,
    customerUserId: row.customerUserId,
    customerEmail: row.customerEmail,
    customerName: row.customerName,
    customerTz: row.customerTz,
    startUtc: row.startUtc,
    endUtc: row.endUtc,
    status: row.status,
    quantity: row.quantity,
    paymentStatus: row.paymentStatus,
    orderId: row.orderId,
    customFields: decodeCustomFields(row.customFields),
    rescheduledFrom: row.rescheduledFrom,
    createdUtc: row.createdUtc,
    updatedUtc: row.updatedUtc,
  };
}

function decodeCustomFields(value: string | null): Record<string, unknown> | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function redact(row: BookingRowStrings | null): RedactedBookingRow {
  if (!row) return {} as RedactedBookingRow;
  const { cancel_token: _secret, ...rest } = row;
  return rest;
}

/**
 * Seats `hostId` has left at `startMs` (docs/api.md#rest capacity rule, as the generator applies it):
 * any booking whose occupation (its own buffers included) overlaps [start − bufferBefore,
 * end + bufferAfter) blocks the host, except bookings of this type at this same start, which
 * take seats instead.
 */
export function hostSeatsLeft(busy: BusyBooking[], hostId: number, type: BookingTypeRow, startMs: number): number {
  const from = startMs - type.bufferBeforeMinutes * MINUTE_MS;
  const to = startMs + (type.durationMinutes + type.bufferAfterMinutes) * MINUTE_MS;
  let taken = 0;
  for (const b of busy) {
    if (b.hostUserId !== hostId || occupiedTo(b) <= from || occupiedFrom(b) >= to) continue;
    if (b.bookingTypeId === type.id && b.startMs === startMs) taken += b.quantity;
    else return 0;
  }
  return type.capacity - taken;
}

function invalid(field: string, problem: string): AppError {
  return new AppError('svc_invalid_param', `Invalid parameter(s): ${field}`, { params: { [field]: problem } });
}

export interface SubmissionScreenInput {
  nonce: string | undefined;
  /** REMOTE_ADDR after validation, or ''. */
  remoteIp: string;
  /** The body as sent, before validation (the email throttle and the bot check run first). */
  raw: unknown;
  headers: Record<string, string>;
}

/** The UTC time of midnight starting `day` (+ `plusDays`) in `tz` (UTC when absent), for the list's day filters. */
function dayStartUtc(day: string, tz: string | undefined, plusDays = 0): string {
  const wallMs = Date.parse(`${day}T00:00:00Z`) + plusDays * DAY_MS;
  if (!tz || tz === 'UTC') return toUtcString(wallMs);
  return toUtcString(zoneTimeline(tz, wallMs - 2 * DAY_MS, wallMs + 2 * DAY_MS).wallToUtc(wallMs));
}

/** Bytes of a meeting link's `{token}`: 128 bits, base64url, unguessable and not the manage token. */
const MEETING_TOKEN_BYTES = 16;

/**
 * A booking's own changes by a signed-in user (docs/decisions/043-host-space.md): an
 * administrator any booking, a host only the bookings they host; staff and door devices none.
 */
export function assertMayManageBooking(principal: Principal, booking: Pick<BookingRow, 'hostUserId'> | null = null): void {
  if (principal.role === 'administrator') return;
  // before any lookup: a caller who may change no booking never learns which ids exist
  if (!booking && principal.role === 'host' && principal.deviceId === undefined) return;
  if (booking && principal.role === 'host' && principal.deviceId === undefined && principal.userId !== null && principal.userId === booking.hostUserId) return;
  throw new AppError('svc_forbidden', 'You may only change bookings you host.');
}

export function bookingService(ctx: AppContext, repo: BookingRepository = bookingRepository) {
  const { hooks } = ctx;
  const slots = slotService(ctx, repo);
  const types = bookingTypeService(ctx, repo);

  /**
   * The default strategy: least-loaded for round_robin, the first candidate for every other mode.
   * `prefetched` holds the upcoming counts create() already read with the agendas (same locks,
   * same round trip); a candidate it does not cover is counted afresh.
   */
  function defaultStrategy(tx: Db, type: BookingTypeRow, prefetched: Map<number, number> | null = null, coveredIds: number[] = []): AssignmentStrategy {
    if (effectiveAssignment(type) !== 'round_robin') return { pick: (candidates) => candidates[0] ?? 0 };
    return {
      async pick(candidates) {
        const counts =
          prefetched && candidates.every((id) => coveredIds.includes(id)) ? prefetched : await repo.upcomingCounts(tx, candidates, toUtcString(Date.now()));
        let best = 0;
        let bestCount = Infinity;
        // Ties go to the earlier candidate (ascending host id), so the choice is deterministic.
        for (const id of candidates) {
          const n = counts.get(id) ?? 0;
          if (n < bestCount) [best, bestCount] = [id, n];
        }
        return best;
      },
    };
  }

  async function findByToken(token: string, tx: Db = ctx.db, forUpdate = false): Promise<BookingRow> {
    // A malformed token (wrong length or alphabet) is as unknown as a wrong one: 404 either way.
    if (!CANCEL_TOKEN_RE.test(token)) throw new AppError('svc_not_found', 'No such booking.');
    const row = await repo.findBookingByToken(tx, token, { forUpdate });
    if (!row || !safeEqual(row.cancelToken, token)) throw new AppError('svc_not_found', 'No such booking.');
    return row;
  }

  async function cancel(bookingId: number): Promise<BookingDto> {
    const change: BookingChange = { bookingId, change: 'cancelled' };
    const row = await ctx.db.transaction(async (tx) => {
      const current = await repo.findBooking(tx, bookingId, { forUpdate: true });
      if (!current) throw new AppError('svc_not_found', 'No such booking.');
      if (current.status === 'cancelled') throw new AppError('svc_already_cancelled');
      if (!SLOT_HOLDING_STATUSES.includes(current.status)) throw new AppError('svc_booking_invalid_state');
      const updated = await repo.updateStatus(tx, bookingId, [current.status], 'cancelled').catch((err: unknown) => {
        throw new AppError('svc_internal', undefined, undefined, { cause: err });
      });
      // Contract Errors: a failed cancellation update is HTTP 500 and fires nothing.
      if (!updated) throw new AppError('svc_internal');
      await repo.bumpEpochs(tx, [updated.hostUserId]);
      return { updated, held: await holdAnnouncement(tx, ANNOUNCE_BOOKING_CHANGED_JOB, change) };
    });
    await announce(ctx.db, ctx.logger, row.held, () => announceBookingChange(hooks, change));
    return toBookingDto(row.updated);
  }

  /**
   * Reschedule: the live-slot check for the new start (the booking itself does not block it),
   * the host is kept, the strategy is not consulted, the end comes from the type.
   */
  async function move(booking: BookingRow, startUtc: string): Promise<{ updated: BookingRow; type: BookingTypeRow }> {
    const nowMs = Date.now();
    const startMs = await assertStartInFuture(startUtc, nowMs);
    const type = await repo.findType(ctx.db, booking.bookingTypeId);
    if (!type) throw new AppError('svc_not_found', 'No such booking type.');
    // the host's calendars are read again before deciding, briefly (docs/decisions/041-external-calendars.md)
    await calendarsService(ctx).refreshHosts([booking.hostUserId]);
    const moved = await ctx.db.transaction(async (tx) => {
      await repo.lockHosts(tx, [booking.hostUserId]);
      const current = await repo.findBooking(tx, booking.bookingId, { forUpdate: true });
      if (!current) throw new AppError('svc_not_found', 'No such booking.');
      if (current.status !== 'confirmed' && current.status !== 'pending_approval') throw new AppError('svc_booking_invalid_state');
      const list = await slots.liveForDay(tx, type, startUtc.slice(0, 10), { nowMs, excludeBookingId: current.bookingId });
      const slot = list.find((s) => s.start_utc === startUtc);
      if (!slot || slot.capacity_left < current.quantity || !slot.hosts.includes(current.hostUserId)) throw new AppError('svc_booking_slot_unavailable');
      const reach = (type.durationMinutes + type.bufferBeforeMinutes + type.bufferAfterMinutes) * MINUTE_MS;
      const busy = await repo.busyForHosts(tx, [current.hostUserId], toUtcString(startMs - reach), toUtcString(startMs + reach), current.bookingId);
      if (hostSeatsLeft(busy, current.hostUserId, type, startMs) < current.quantity) throw new AppError('svc_booking_slot_unavailable');
      const endUtc = toUtcString(startMs + type.durationMinutes * MINUTE_MS);
      const updated = await repo.moveBooking(tx, current.bookingId, startUtc, endUtc, current.startUtc);
      if (!updated) throw new AppError('svc_internal');
      await repo.bumpEpochs(tx, [current.hostUserId]);
      const change: BookingChange = { bookingId: current.bookingId, change: 'rescheduled', oldStart: current.startUtc ?? '', newStart: startUtc };
      return { updated, change, held: await holdAnnouncement(tx, ANNOUNCE_BOOKING_CHANGED_JOB, change) };
    });
    await announce(ctx.db, ctx.logger, moved.held, () => announceBookingChange(hooks, moved.change));
    return { updated: moved.updated, type };
  }

  async function assertStartInFuture(startUtc: string, nowMs: number): Promise<number> {
    const start = parseUtcString(startUtc);
    if (!start) throw invalid('startUtc', 'must be a UTC time in Y-m-d H:i:s format');
    if (start.getTime() <= nowMs) throw invalid('startUtc', 'must be in the future');
    return start.getTime();
  }

  /**
   * Create, in the contract's order after validation: live slot list for that UTC day →
   * the start listed with enough seats and a host → candidates → assignment strategy →
   * awaiting payment → insert → read back → actions.
   */
  /** `language`: the booking request's (the customer's own); an administrator's booking has none and takes the organization's. */
  async function create(input: CreateBookingInput, opts: { admin?: { hostUserId?: number }; language?: RequestLanguage } = {}): Promise<BookingCreatedDto> {
    const admin = opts.admin;
    const nowMs = Date.now();
    const type = await types.getRow(input.bookingTypeId, { publicView: !admin });
    if (input.quantity > type.capacity) throw invalid('quantity', `must be at most ${type.capacity}`);
    const startMs = await assertStartInFuture(input.startUtc, nowMs);
    const endUtc = toUtcString(startMs + type.durationMinutes * MINUTE_MS);
    const day = input.startUtc.slice(0, 10);
    const config = toBookingTypeConfig(type);
    // every later mail about the booking (reminder, an administrator's cancel) is written in it
    const language = await languageForNewRow(ctx.db, admin ? undefined : opts.language);
    // the hosts' calendars are read again before deciding, briefly (docs/decisions/041-external-calendars.md)
    await calendarsService(ctx).refreshHosts(type.hosts);
    const meeting = await newMeeting(type);

    // A start no longer offered is refused without queueing on the host locks behind the bookings
    // being decided: in a rush most attempts collide, and each used to wait its turn to learn so.
    // A slot only comes back when a booking leaves it; a refusal read just before that is ordered
    // before it. Only while no callback filters the list: a filter may add the start back, and
    // it runs once per create, under the locks (contract).
    if (!hooks.hasFilter('svc_booking_slots')) {
      const offered = (await slots.liveForDay(ctx.db, type, day, { nowMs })).find((s) => s.start_utc === input.startUtc);
      if (!offered || offered.capacity_left < input.quantity) throw new AppError('svc_booking_slot_unavailable');
    }

    let lockSet = [...type.hosts];
    let decided: { bookingId: number; status: BookingStatus; hostUserId: number; announcement: number } | null = null;
    // A filter may offer hosts outside the type; they are locked too, by starting over with them.
    for (let attempt = 0; attempt < 3 && !decided; attempt++) {
      const { decision, written } = await transactionWithFinalWrite(ctx.db, async (tx) => {
        const reach = (type.durationMinutes + type.bufferBeforeMinutes + type.bufferAfterMinutes) * MINUTE_MS;
        // Sent with the lock, in one round trip: the live list, which of the locked hosts exist
        // and what they hold around the start, and least-loaded assignment's counts. PostgreSQL
        // runs a connection's statements in order and each takes its snapshot when it starts, so
        // the reads run once the locks are granted and see every booking committed before; the
        // hosts stay locked for one round trip fewer (docs/decisions/022-prepared-statements.md).
        const countUpcoming = admin?.hostUserId === undefined && effectiveAssignment(type) === 'round_robin';
        const [, list, real, busy, upcoming] = await Promise.all([
          repo.lockHosts(tx, lockSet),
          slots.liveForDay(tx, type, day, { nowMs }),
          repo.existingUserIds(tx, lockSet),
          repo.busyForHosts(tx, lockSet, toUtcString(startMs - reach), toUtcString(startMs + reach)),
          countUpcoming ? repo.upcomingCounts(tx, lockSet, toUtcString(nowMs)) : null,
        ]);
        const slot = list.find((s) => s.start_utc === input.startUtc);
        if (!slot || slot.capacity_left < input.quantity) throw new AppError('svc_booking_slot_unavailable');
        const unlocked = slot.hosts.filter((id) => !lockSet.includes(id));
        if (unlocked.length > 0) {
          lockSet = [...lockSet, ...unlocked];
          return { decision: null, write: null };
        }
        // One booking's quantity must fit one host (docs/api.md#rest).
        // In the type's host order (its first host is "first" for fixed assignment), hosts a filter added last.
        const rank = (id: number) => (type.hosts.includes(id) ? type.hosts.indexOf(id) : type.hosts.length + id);
        const candidates = [...new Set(slot.hosts)]
          .filter((id) => real.has(id) && hostSeatsLeft(busy, id, type, startMs) >= input.quantity)
          .sort((a, b) => rank(a) - rank(b));
        if (candidates.length === 0) throw new AppError('svc_booking_no_host');

        let hostUserId: number;
        if (admin?.hostUserId !== undefined) {
          if (!candidates.includes(admin.hostUserId)) throw new AppError('svc_booking_no_host', 'That host is not free at that time.');
          hostUserId = admin.hostUserId;
        } else {
          const strategy = await applyContractFilter(
            hooks,
            'svc_booking_assignment_strategy',
            defaultStrategy(tx, type, upcoming, lockSet),
            effectiveAssignment(type),
          );
          const picked = Number(await strategy.pick([...candidates], type.id, input.startUtc));
          // Contract: 0 means nobody; an id outside the candidates is written unchecked.
          if (!Number.isInteger(picked) || picked <= 0 || picked > 2_147_483_647) throw new AppError('svc_booking_no_host');
          hostUserId = picked;
        }

        // Contract: not consulted for admin-entered bookings or types requiring approval.
        const awaitingPayment = !admin && !type.requiresApproval && (await applyContractFilter(hooks, 'svc_booking_awaiting_payment', false, type.id, config));
        const status: BookingStatus = awaitingPayment ? 'pending_payment' : type.requiresApproval && !admin ? 'pending_approval' : 'confirmed';
        const paymentStatus = awaitingPayment ? 'pending' : type.priceCents > 0 ? 'on_site' : null;
        // The row with its held announcement (the actions after commit: a crash before they run delays
        // them, never loses them) and the host's slot-cache epoch, sent with the COMMIT: decided, the
        // hosts stay locked for the database's work only.
        const write = () =>
          Promise.all([
            repo.insertBookingHeld(
              tx,
              {
                bookingTypeId: type.id,
                hostUserId,
                customerEmail: input.customerEmail,
                customerName: input.customerName,
                customerTz: input.customerTz,
                language,
                startUtc: input.startUtc,
                endUtc,
                status,
                quantity: input.quantity,
                paymentStatus,
                customFields: encodeCustomFields(input.customFields ?? {}),
                cancelToken: newCancelToken(),
              },
              ANNOUNCE_BOOKING_CREATED_JOB,
              meeting,
            ),
            repo.bumpEpochs(tx, [hostUserId]),
          ]);
        return { decision: { status, hostUserId }, write };
      });
      if (decision && written) decided = { ...decision, bookingId: written[0].bookingId, announcement: written[0].announcement };
    }
    if (!decided) throw new AppError('svc_booking_slot_unavailable');

    const { bookingId, status, hostUserId } = decided;
    const result: BookingCreatedDto = { bookingId, status, startUtc: input.startUtc, endUtc, hostUserId, calendarUid: calendarUid(ctx, 'booking', bookingId) };
    const paymentUrl = await announce(ctx.db, ctx.logger, decided.announcement, () => announceCreated(bookingId, status));
    if (paymentUrl) result.paymentUrl = paymentUrl;
    const meetingUrl = meeting ? await repo.meetingUrl(ctx.db, bookingId) : null;
    if (meetingUrl) result.meetingUrl = meetingUrl;
    return result;
  }

  /**
   * A virtual type's meeting link for a new booking (docs/decisions/044-meeting-links.md): its
   * pattern with the organization's slug and a fresh random token, or else the host's own link.
   */
  async function newMeeting(type: BookingTypeRow): Promise<NewMeeting | null> {
    if (type.locationMode !== 'virtual') return null;
    if (type.meetingLinkPattern === '') return { hostLink: true };
    const org = type.meetingLinkPattern.includes('{org}') ? organizationSlug((await settingsService({ db: ctx.db, hooks }).seller()).sellerName) : 'svc';
    // `{id}` stays for the insert to fill in with the new booking's id.
    const pattern = type.meetingLinkPattern.replace(/\{(org|token)\}/g, (_, name: string) => (name === 'org' ? org : randomToken(MEETING_TOKEN_BYTES)));
    return { pattern };
  }

  /**
   * The contract's actions after a booking is written: read-back, `svc_booking_created`, then
   * confirmed, requested or payment pending (with the payment URL filter, whose URL it answers).
   * Run by the request after commit, or by a job if the request died first.
   */
  async function announceCreated(bookingId: number, status: BookingStatus): Promise<string | undefined> {
    const row = await repo.readBackRow(ctx.db, bookingId).catch((err: unknown) => {
      ctx.logger.warn({ err, bookingId }, 'booking read-back failed');
      return null;
    });
    // Contract: data is the full persisted row, or an empty array when the read-back failed.
    await hooks.doAction('svc_booking_created', bookingId, row ?? {});
    if (status === 'confirmed') {
      await hooks.doAction('svc_booking_confirmed', bookingId);
    } else if (status === 'pending_approval') {
      await hooks.doAction('svc_booking_requested', bookingId);
    } else {
      await hooks.doAction('svc_booking_payment_pending', bookingId);
      const url = await applyContractFilter(hooks, 'svc_booking_payment_url', '', bookingId, redact(row));
      // Contract: an empty URL means the payment path is misconfigured.
      if (url) return url;
      ctx.logger.warn({ bookingId }, 'svc_booking_payment_url answered no URL for a booking awaiting payment');
    }
    return undefined;
  }

  /** The contract's actions once a booking's payment landed (writer after commit, or a runner). */
  async function announcePaid(bookingId: number): Promise<void> {
    await hooks.doAction('svc_booking_paid', bookingId);
    await hooks.doAction('svc_booking_confirmed', bookingId);
  }

  /** A paid booking whose money went back is cancelled: its action (and, through it, the mail). */
  async function announceRefunded(bookingId: number): Promise<void> {
    await hooks.doAction('svc_booking_cancelled', bookingId);
  }

  return {
    create,
    cancel,
    announceCreated,

    /**
     * A payment's verdict applied to its booking, in the payment's transaction (the payment row is
     * locked first: docs/decisions/024-payment-events-as-a-set.md). The contract's actions are
     * held in that transaction as a job (server/jobs/announcements.ts) and fired by `after` once it
     * commits, or by a runner if the writer died first.
     * - `confirm`: pending_payment → confirmed, payment_status paid, then `svc_booking_paid` and
     *   `svc_booking_confirmed`. 'already' when this booking is paid already (nothing fires);
     *   'released' when its hold was released first (the caller refunds; never confirmed).
     * - `release` (nothing was paid): the hold goes, as the sweeper would — abandoned,
     *   `svc_booking_payment_abandoned`, no `svc_booking_cancelled`, no mail.
     * - `refund` (the money goes back): a held booking is released as above; one this payment
     *   confirmed is cancelled (`svc_booking_cancelled` and its mail: the holder was told it was
     *   confirmed); either way payment_status refunded.
     */
    async applyPayment(tx: Db, bookingId: number, verdict: 'confirm' | 'release' | 'refund'): Promise<AppliedPayment> {
      const current = await repo.findBooking(tx, bookingId, { forUpdate: true });
      const nothing = async () => {};
      if (!current) return { outcome: 'unchanged', after: nothing };
      if (verdict === 'confirm') {
        if (current.status === 'pending_payment' && (await repo.markPaid(tx, bookingId))) {
          const job = await holdAnnouncement(tx, ANNOUNCE_BOOKING_PAID_JOB, { bookingId });
          return { outcome: 'confirmed', after: () => announce(ctx.db, ctx.logger, job, () => announcePaid(bookingId)) };
        }
        if (current.paymentStatus === 'paid' && current.status === 'confirmed') return { outcome: 'already', after: nothing };
        // Landed after the hold was released: the caller refunds it, which the row says already.
        if (current.paymentStatus !== 'refunded') await repo.setPaymentStatus(tx, bookingId, 'refunded');
        return { outcome: 'released', after: nothing };
      }
      if (current.status === 'pending_payment') {
        // nothing is owed any more: the checkout was given up (a refund then says refunded)
        const row = await repo.abandonHold(tx, bookingId, 'cancelled');
        if (!row) return { outcome: 'unchanged', after: nothing };
        await repo.bumpEpochs(tx, [row.hostUserId]);
        if (verdict === 'refund') await repo.setPaymentStatus(tx, bookingId, 'refunded');
        return { outcome: 'abandoned', after: () => hooks.doAction('svc_booking_payment_abandoned', bookingId) };
      }
      if (verdict === 'release') {
        // The provider's failure says the checkout was given up whether it arrives before or after
        // the sweeper released the hold: the same final word in either order (docs/decisions/024-payment-events-as-a-set.md).
        if (current.status === 'abandoned' && current.paymentStatus === 'expired') await repo.setPaymentStatus(tx, bookingId, 'cancelled');
        return { outcome: 'unchanged', after: nothing };
      }
      if (current.status === 'confirmed' && current.paymentStatus === 'paid') {
        const row = await repo.updateStatus(tx, bookingId, ['confirmed'], 'cancelled');
        if (!row) return { outcome: 'unchanged', after: nothing };
        await repo.bumpEpochs(tx, [row.hostUserId]);
        await repo.setPaymentStatus(tx, bookingId, 'refunded');
        const job = await holdAnnouncement(tx, ANNOUNCE_BOOKING_REFUNDED_JOB, { bookingId });
        return { outcome: 'cancelled', after: () => announce(ctx.db, ctx.logger, job, () => announceRefunded(bookingId)) };
      }
      if (current.paymentStatus !== 'refunded') await repo.setPaymentStatus(tx, bookingId, 'refunded');
      return { outcome: 'unchanged', after: nothing };
    },

    announcePaid,
    announceRefunded,

    /**
     * POST /bookings checks before validation, in the contract's order: nonce, then
     * `svc_booking_client_ip`, then the per-IP and per-email throttles, then the bot check
     * and spam scoring.
     */
    async screenSubmission(input: SubmissionScreenInput): Promise<{ ip: string }> {
      assertNonce(ctx.secret, PUBLIC_FORM_NONCE_ACTION, input.nonce);
      const ip = await applyContractFilter(hooks, 'svc_booking_client_ip', input.remoteIp);
      // Contract: an empty IP turns the per-IP throttle off; the per-email one still applies.
      if (ip !== '') await enforceRateLimit(ctx.db, bookingIpBucket(ip), BOOKING_IP_LIMIT);
      const raw = (typeof input.raw === 'object' && input.raw !== null ? input.raw : {}) as Record<string, unknown>;
      const email = typeof raw.customerEmail === 'string' ? raw.customerEmail.trim() : '';
      if (email !== '') await enforceRateLimit(ctx.db, bookingEmailBucket(email), BOOKING_EMAIL_LIMIT);
      await ctx.verifiers.assertHuman({
        kind: 'booking',
        ip,
        email,
        name: typeof raw.customerName === 'string' ? raw.customerName : '',
        content: typeof raw.customFields === 'object' && raw.customFields !== null ? (raw.customFields as Record<string, unknown>) : {},
        headers: input.headers,
      });
      return { ip };
    },

    /** An administrator enters a booking: confirmed at once, no payment hold, no approval step. */
    createByAdmin(input: AdminCreateBookingInput): Promise<BookingCreatedDto> {
      const { hostUserId, ...rest } = input;
      return create(rest, { admin: { hostUserId } });
    },

    async cancelByToken(token: string): Promise<BookingDto> {
      const row = await findByToken(token);
      return cancel(row.bookingId);
    },

    async approve(bookingId: number): Promise<BookingDto> {
      const change: BookingChange = { bookingId, change: 'approved' };
      const row = await ctx.db.transaction(async (tx) => {
        const current = await repo.findBooking(tx, bookingId, { forUpdate: true });
        if (!current) throw new AppError('svc_not_found', 'No such booking.');
        // Contract: a second approval is refused before svc_booking_approved fires.
        if (current.status === 'confirmed') throw new AppError('svc_booking_already_approved');
        if (current.status !== 'pending_approval') throw new AppError('svc_booking_invalid_state');
        const updated = await repo.updateStatus(tx, bookingId, ['pending_approval'], 'confirmed');
        if (!updated) throw new AppError('svc_internal');
        return { updated, held: await holdAnnouncement(tx, ANNOUNCE_BOOKING_CHANGED_JOB, change) };
      });
      await announce(ctx.db, ctx.logger, row.held, () => announceBookingChange(hooks, change));
      return toBookingDto(row.updated);
    },

    async decline(bookingId: number): Promise<BookingDto> {
      const change: BookingChange = { bookingId, change: 'declined' };
      const row = await ctx.db.transaction(async (tx) => {
        const current = await repo.findBooking(tx, bookingId, { forUpdate: true });
        if (!current) throw new AppError('svc_not_found', 'No such booking.');
        if (current.status === 'cancelled') throw new AppError('svc_already_cancelled');
        if (current.status !== 'pending_approval') throw new AppError('svc_booking_invalid_state');
        const updated = await repo.updateStatus(tx, bookingId, ['pending_approval'], 'cancelled');
        if (!updated) throw new AppError('svc_internal');
        await repo.bumpEpochs(tx, [updated.hostUserId]);
        return { updated, held: await holdAnnouncement(tx, ANNOUNCE_BOOKING_CHANGED_JOB, change) };
      });
      await announce(ctx.db, ctx.logger, row.held, () => announceBookingChange(hooks, change));
      return toBookingDto(row.updated);
    },

    /**
     * Token reschedule: the live-slot check for the new start (the booking itself does not
     * block it), the host is kept, the strategy is not consulted, the end comes from the type.
     */
    async reschedule(token: string, startUtc: string): Promise<BookingHolderDto> {
      const booking = await findByToken(token);
      const { updated, type } = await move(booking, startUtc);
      return holderView(updated, type);
    },

    /** A host (their own bookings) or an administrator moves a booking; the holder is mailed as after their own move. */
    async rescheduleAs(principal: Principal, bookingId: number, startUtc: string): Promise<BookingDto> {
      assertMayManageBooking(principal);
      const booking = await repo.findBooking(ctx.db, bookingId);
      if (!booking) throw new AppError('svc_not_found', 'No such booking.');
      assertMayManageBooking(principal, booking);
      return toBookingDto((await move(booking, startUtc)).updated);
    },

    /** A host (their own bookings) or an administrator cancels a booking; the holder is mailed. */
    async cancelAs(principal: Principal, bookingId: number): Promise<BookingDto> {
      assertMayManageBooking(principal);
      const booking = await repo.findBooking(ctx.db, bookingId);
      if (!booking) throw new AppError('svc_not_found', 'No such booking.');
      assertMayManageBooking(principal, booking);
      return cancel(bookingId);
    },

    async getForHolder(token: string): Promise<BookingHolderDto> {
      const row = await findByToken(token);
      const type = await repo.findType(ctx.db, row.bookingTypeId);
      if (!type) throw new AppError('svc_not_found', 'No such booking type.');
      return holderView(row, type);
    },

    /** Upcoming first (soonest first), then past (latest first); `from`/`to` are days in `tz` (UTC when absent). */
    async list(query: BookingListQuery & { hostUserId?: number }, nowMs = Date.now()): Promise<{ items: BookingDto[]; total: number }> {
      const { items, total } = await repo.listBookings(ctx.db, {
        bookingTypeId: query.bookingTypeId,
        hostUserId: query.hostUserId,
        status: query.status,
        fromUtc: query.from ? dayStartUtc(query.from, query.tz) : undefined,
        toUtc: query.to ? dayStartUtc(query.to, query.tz, 1) : undefined,
        q: query.q || undefined,
        nowUtc: toUtcString(nowMs),
        page: query.page,
        perPage: query.perPage,
      });
      const flagged = await paymentsRepository.attentionOfBookings(
        ctx.db,
        items.map((b) => b.bookingId),
      );
      // Only on a flagged booking: an unflagged one reads as everywhere else (webhooks send the same shape).
      return {
        items: items.map((b) => {
          const paymentAttention = flagged.get(b.bookingId);
          return paymentAttention ? { ...toBookingDto(b), paymentAttention } : toBookingDto(b);
        }),
        total,
      };
    },
  };

  async function holderView(row: BookingRow, type: BookingTypeRow): Promise<BookingHolderDto> {
    const settings = settingsService({ db: ctx.db, hooks });
    const [host, labels, currency, meetingUrl] = await Promise.all([
      repo.findUser(ctx.db, row.hostUserId),
      settings.locationLabels(),
      settings.currency(),
      repo.meetingUrl(ctx.db, row.bookingId),
    ]);
    const upcoming = utcMs(row.startUtc) > Date.now();
    const holding = SLOT_HOLDING_STATUSES.includes(row.status);
    return {
      ...toBookingDto(row),
      bookingTypeTitle: type.title,
      hostName: host?.displayName || '',
      durationMinutes: type.durationMinutes,
      location: describeLocation(type, labels),
      locationMode: type.locationMode,
      priceCents: type.priceCents,
      currency,
      canCancel: holding,
      canReschedule: upcoming && (row.status === 'confirmed' || row.status === 'pending_approval'),
      walletAvailable: walletAvailable(ctx.env),
      meetingUrl,
    };
  }
}

export type BookingService = ReturnType<typeof bookingService>;

/**
 * Payment-hold sweeper: pending_payment bookings older than `svc_booking_payment_hold_hours`
 * become `abandoned` and free their slot; `svc_booking_payment_abandoned` fires for each.
 * No cancelled action, no email (contract state table).
 */
export async function sweepPaymentHolds(ctx: AppContext, nowMs = Date.now(), repo: BookingRepository = bookingRepository): Promise<number[]> {
  const hours = await settingsService(ctx).paymentHoldHours();
  const cutoff = toUtcString(nowMs - hours * 3_600_000);
  const released = await ctx.db.transaction(async (tx) => {
    const rows = await repo.abandonExpiredHolds(tx, cutoff);
    await repo.bumpEpochs(
      tx,
      rows.map((r) => r.hostUserId),
    );
    return rows;
  });
  for (const { bookingId } of released) await ctx.hooks.doAction('svc_booking_payment_abandoned', bookingId);
  return released.map((r) => r.bookingId);
}
