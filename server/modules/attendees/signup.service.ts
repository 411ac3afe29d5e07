/**
 * Sign-up and visitor cancel: the contract's attendee rules in the order issue 3 fixes.
 */
import { languageForNewRow, type RequestLanguage } from '../../mail/language';
import { plainText } from '../../../shared/custom-fields';
import { AppError } from '../../../shared/errors';
import { ZSignupFields, type CancelPreview, type CancelResult, type SignupBody, type SignupResult } from '../../../shared/attendees';
import type { SignupForm } from '../../../shared/events';
import { toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import { transactionWithFinalWrite } from '../../db/client';
import { applyContractFilter, applyRsvpCustomFields, encodeCustomFields, type RawCustomFieldInput } from '../../hooks';
import { invalidParams } from '../../api/route';
import { holdAnnouncement } from '../../jobs/announcements';
import { calendarUid } from '../../mail/ics';
import { safeEqual, sha256Hex } from '../../security/crypto';
import { assertNonce, PUBLIC_FORM_NONCE_ACTION, readSigned, signValue } from '../../security/nonce';
import { countRateLimits, enforceRateLimit, secondsLeftInWindow, type RateLimit } from '../../security/throttle';
import { eventsRepository, type EventRow } from '../events/events.repository';
import { attendeesRepository, type AttendeeRecord, type RedemptionInStatement } from './attendees.repository';
import { announceChangeNow, holdAttendeeChange } from './attendees.announce';
import { announcePromotedNow, lockEvent, NO_PROMOTION, promoteWaitlist } from './waitlist.service';
import { ticketPdfTokenOf } from './ticket-pdf.service';
import { walletAvailable } from '../../wallet/pass';
import { withdrawAttendeeReminder } from './attendees.reminders';
import { settingsService } from '../settings/settings.service';
import { ordersService } from '../orders/orders.service';
import { openPayment, paymentsEnabled } from '../orders/payments.service';
import { ANNOUNCE_RSVP_SUBMITTED_JOB, announceSubmittedNow, announceSubmittedRowsNow, newTicketSecrets, seatsTakenLocked } from '../orders/tickets.service';
import { decideTicketLines, orderTotalOf, resolveTicketLines, voucherCodeOf, type TicketLine } from '../orders/ticket-categories.service';
import { applicableVoucher, attachRedemption, attachRedemptionToTickets, checkVoucher, redeemVoucher } from '../orders/vouchers.service';
import { vouchersRepository } from '../orders/vouchers.repository';
import { voucherCodeKey } from '../../../shared/vouchers';
import { ticketsRepository } from '../orders/tickets.repository';
import { paymentsRepository } from '../orders/payments.repository';

/** docs/api.md#errors: minimum fill time of the sign-up form. */
export const MIN_FILL_MS = 3_000;
/** docs/api.md#errors: honeypot input, must arrive empty. */
export const HONEYPOT_FIELD = 'svc_hp';
export const FORM_TOKEN_FIELD = 'svc_ts';
export const CUSTOM_FIELD_PREFIX = 'svc_cf_';
/** Contract "Limits": 5 sign-ups per minute per IP (key from svc_rsvp_client_ip). */
export const SIGNUP_IP_LIMIT = { limit: 5, windowSeconds: 60 } as const;
/** docs/api.md#errors: 5 sign-ups per hour per email. */
export const SIGNUP_EMAIL_LIMIT = { limit: 5, windowSeconds: 3600 } as const;
/** Bounds on the extra inputs, checked before the filter sees them. */
const MAX_CUSTOM_FIELDS = 50;
const MAX_CUSTOM_VALUE_LENGTH = 2000;

export interface SignupRequest {
  eventId: number;
  /** The posted body as it arrived (JSON or form). */
  raw: SignupBody;
  /** REMOTE_ADDR after IP validation, or ''. */
  ip: string;
  /** The request headers (the bot check sees them without the caller's credentials). */
  headers: Record<string, string>;
  /** What the request says about the visitor's language; the sign-up stores the one negotiated (server/mail/language.ts). */
  language?: RequestLanguage;
  nowMs?: number;
}

const formTokenPurpose = (eventId: number) => `signup-form|${eventId}`;

/** WordPress-style sanitize_key: lowercase letters, digits, `_` and `-`. */
export function sanitizeKey(key: string): string {
  return key.toLowerCase().replace(/[^a-z0-9_-]/g, '');
}

/** Plain text only: tags removed, control characters and runs of whitespace collapsed (one rule with the phone's check). */
export const sanitizeText = plainText;

/** The `svc_cf_<key>` inputs, prefix removed, keys and values sanitized (the filter's `raw`). */
export function collectCustomInputs(raw: Record<string, unknown>): RawCustomFieldInput {
  const out: RawCustomFieldInput = {};
  const params: Record<string, string> = {};
  const keys = Object.keys(raw).filter((k) => k.startsWith(CUSTOM_FIELD_PREFIX));
  if (keys.length > MAX_CUSTOM_FIELDS)
    throw new AppError('svc_invalid_param', 'Too many extra fields.', { params: { [CUSTOM_FIELD_PREFIX]: `at most ${MAX_CUSTOM_FIELDS} extra fields` } });
  for (const name of keys) {
    const key = sanitizeKey(name.slice(CUSTOM_FIELD_PREFIX.length));
    if (!key) continue;
    const value = raw[name];
    const tooLong = (s: string) => s.length > MAX_CUSTOM_VALUE_LENGTH;
    if (Array.isArray(value)) {
      const items = value.filter((v): v is string | number | boolean => ['string', 'number', 'boolean'].includes(typeof v)).map((v) => String(v));
      if (items.length > MAX_CUSTOM_FIELDS || items.some(tooLong)) params[name] = `must be at most ${MAX_CUSTOM_VALUE_LENGTH} characters`;
      else out[key] = items.map(sanitizeText);
    } else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      const text = String(value);
      if (tooLong(text)) params[name] = `must be at most ${MAX_CUSTOM_VALUE_LENGTH} characters`;
      else out[key] = sanitizeText(text);
    }
  }
  if (Object.keys(params).length > 0) throw new AppError('svc_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
  return out;
}

/** Without an explicit close, sign-up ends when the event starts. */
function signupWindowOpen(event: EventRow, nowText: string): boolean {
  if (event.signupOpensUtc !== null && nowText < event.signupOpensUtc) return false;
  const closes = event.signupClosesUtc ?? event.startsUtc;
  return nowText < closes;
}

function emailOf(raw: Record<string, unknown>): string {
  return typeof raw.email === 'string' ? raw.email.trim().toLowerCase() : '';
}

export function signupService(ctx: AppContext) {
  const { db, hooks } = ctx;

  /**
   * A published event. On sign-up an unknown event is bad input naming the field (decision 007);
   * reading its form, an unknown event is simply not there (404), as a draft is to the public.
   */
  async function publicEvent(eventId: number, unknownIs: 'invalid_param' | 'not_found'): Promise<EventRow> {
    return assertPublished(await eventsRepository(db).findById(eventId), unknownIs);
  }

  function assertPublished(event: EventRow | null, unknownIs: 'invalid_param' | 'not_found'): EventRow {
    if (!event && unknownIs === 'invalid_param') throw new AppError('svc_invalid_param', 'Invalid parameter(s): id', { params: { id: 'no such event' } });
    if (event?.status !== 'published') throw new AppError('svc_not_found', 'No such event.');
    return event;
  }

  /**
   * The throttles before validation only look: a bucket already full refuses at once (429), and
   * the attempt is counted only once the fields are well-formed, so a typo in an address does
   * not use up the visitor's sign-ups (docs/api.md#errors).
   */
  async function refuseWhenFull(buckets: Array<{ bucket: string; rule: RateLimit }>, nowMs: number): Promise<void> {
    if (buckets.length === 0) return;
    const counts = await countRateLimits(db, buckets, nowMs);
    const full = buckets.find((b, i) => counts[i]! >= b.rule.limit);
    if (full) throw new AppError('svc_rate_limited', undefined, { retryAfter: secondsLeftInWindow(full.rule, nowMs) });
  }

  return {
    /**
     * The check before anything else, even validation (contract order, both transports): the
     * public-form nonce the visitor sends as X-Svc-Nonce (403 svc_invalid_nonce without it).
     */
    async screenSubmission(input: { nonce: string | undefined }): Promise<void> {
      assertNonce(ctx.secret, PUBLIC_FORM_NONCE_ACTION, input.nonce);
    },

    /** `GET /events/{id}/form`: the extra fields' HTML and the signed render time. */
    async form(eventId: number, nowMs = Date.now()): Promise<SignupForm> {
      const event = await publicEvent(eventId, 'not_found');
      const html = await applyContractFilter(hooks, 'svc_rsvp_form_fields', '', event.id);
      return { html, formToken: signValue(ctx.secret, formTokenPurpose(event.id), String(nowMs)) };
    },

    async signup(req: SignupRequest): Promise<SignupResult> {
      const nowMs = req.nowMs ?? Date.now();
      const { raw } = req;

      // 1. Published event, open window. Read with it, for an event with a capacity and no
      // waitlist, the seats it holds: when it is already full the sign-up is refused in 9. without
      // queueing on the event row's lock behind the sign-ups that still fit. A seat only comes back
      // by a cancel; a refusal read just before one is simply ordered before it.
      const found = await attendeesRepository(db).eventWithSeats(req.eventId);
      const event = assertPublished(found?.event ?? null, 'invalid_param');
      const seatsAtRead = found?.seatsTaken ?? null;
      if (!signupWindowOpen(event, toUtcString(nowMs))) throw new AppError('svc_signup_closed');

      // 2. Honeypot.
      const honeypot = raw[HONEYPOT_FIELD];
      if (honeypot !== undefined && honeypot !== null && String(honeypot) !== '') throw new AppError('svc_spam_suspected');

      // 3. Minimum fill time from the signed render time.
      const token = raw[FORM_TOKEN_FIELD];
      const rendered = Number(readSigned(ctx.secret, formTokenPurpose(event.id), typeof token === 'string' ? token : null));
      if (!Number.isFinite(rendered) || rendered <= 0 || nowMs - rendered < MIN_FILL_MS) {
        throw new AppError('svc_spam_suspected', 'The form was sent too quickly or has expired. Please try again.');
      }

      // 4. The operator's view of the visitor IP ('' turns the per-IP throttle off).
      const ip = await applyContractFilter(hooks, 'svc_rsvp_client_ip', req.ip);

      // 5. Throttles, kept in the database so every instance shares them: a full bucket refuses here;
      // the attempt itself is counted after validation (below).
      const email = emailOf(raw);
      const buckets = [
        ...(ip !== '' ? [{ bucket: `signup:ip:${ip}`, rule: SIGNUP_IP_LIMIT }] : []),
        ...(email !== '' ? [{ bucket: `signup:email:${sha256Hex(email)}`, rule: SIGNUP_EMAIL_LIMIT }] : []),
      ];
      await refuseWhenFull(buckets, nowMs);

      // 6. Bot check and spam scoring (plugins; none by default) with the filtered IP.
      await ctx.verifiers.assertHuman({
        kind: 'signup',
        ip,
        email,
        name: typeof raw.display_name === 'string' ? raw.display_name : '',
        content: Object.fromEntries(Object.entries(raw).filter(([key]) => key.startsWith(CUSTOM_FIELD_PREFIX))),
        headers: req.headers,
      });

      // 7. Validation.
      const parsed = ZSignupFields.safeParse(raw);
      if (!parsed.success) throw invalidParams(parsed.error);
      const fields = parsed.data;
      if (fields.quantity > event.maxPerSignup) {
        throw new AppError('svc_invalid_param', 'Invalid parameter(s): quantity', { params: { quantity: `must be at most ${event.maxPerSignup}` } });
      }

      // Ticket categories (docs/api.md#tickets): null for an event without any, as before they existed.
      const lines = await resolveTicketLines(db, event, found?.categories ?? [], raw, fields.quantity, toUtcString(nowMs));
      const requested = lines ? lines.reduce((n, l) => n + l.quantity, 0) : fields.quantity;

      const customInputs = collectCustomInputs(raw);

      // 8. Custom answers: an error object goes back as is; no callback, nothing stored.
      const answers = await applyRsvpCustomFields(hooks, customInputs, event.id);
      if (answers instanceof AppError) throw answers;

      // A well-formed attempt counts (the check in 5. may have raced another request: this one decides).
      for (const { bucket, rule } of buckets) await enforceRateLimit(db, bucket, rule, nowMs);

      // 9. Seats decided under the event row's lock: concurrent sign-ups queue on it and never oversell.
      // Unpaid orders hold seats too (docs/api.md#payments). Already full at 1.: refused without the lock.
      if (seatsAtRead !== null && event.capacity !== null && seatsAtRead + requested > event.capacity) throw new AppError('svc_event_full');
      // the same for a ticket category already sold out at 1. (its quota's count was read with the
      // lines): without a waitlist it is refused here, as the lock would refuse it, without queueing
      if (lines && !event.waitlist) decideTicketLines(event, seatsAtRead ?? 0, lines);
      const paid = paymentsEnabled(ctx) && (lines ? lines.some((l) => l.category.priceCents > 0) : event.priceCents > 0);
      const currency = paid ? await settingsService(ctx).currency() : '';
      const { cancelToken, ticketCode, ticketCodeHash } = newTicketSecrets();
      const customFields = encodeCustomFields(answers);
      // every later mail to this person (a job's, an administrator's) is written in it
      const language = await languageForNewRow(db, req.language, event.language);
      if (lines) return categorizedSignup(lines);
      const decided = paid ? await paidSignup() : await freeSignup();
      if (decided.order) return decided.order;
      const row = decided.row!;

      // 10. After commit, exactly the contract's payload keys.
      await announceSubmittedNow(ctx, decided.announcement!, row);
      return answerOf(row);

      /**
       * The visitor who just signed up sees their ticket at once (it is also in their email); a
       * waitlisted sign-up is not admitted, so it gets no code to show at the door.
       */
      function answerOf(made: AttendeeRecord): {
        id: number;
        status: 'going' | 'waitlist';
        ticketCode?: string;
        calendarUid?: string;
        ticketPdfToken?: string;
        walletAvailable?: boolean;
      } {
        return made.status === 'waitlist'
          ? { id: made.id, status: 'waitlist' }
          : {
              id: made.id,
              status: 'going',
              ticketCode: made.ticketCode,
              calendarUid: calendarUid(ctx, 'attendee', made.id),
              ticketPdfToken: ticketPdfTokenOf(ctx.secret, made.id),
              walletAvailable: walletAvailable(ctx.env),
            };
      }

      /**
       * Free: the lock, one statement that counts, decides and inserts (with the held job), and the
       * COMMIT leave together, so the hot row stays locked for the database's work only. PostgreSQL
       * runs them in order and the statement takes its snapshot when it starts, after the lock is
       * granted: it sees every seat committed while this request waited. Refused (not published,
       * full), the statement wrote nothing and the commit has nothing to keep
       * (docs/decisions/022-prepared-statements.md).
       */
      async function freeSignup(): Promise<{ row: AttendeeRecord; announcement: number; order?: undefined }> {
        const { written } = await transactionWithFinalWrite(db, async (tx) => ({
          decision: null,
          write: () =>
            Promise.all([
              eventsRepository(tx).lockById(event.id),
              attendeesRepository(tx).insertIfSeats(
                event.id,
                {
                  email: fields.email,
                  displayName: fields.display_name,
                  quantity: fields.quantity,
                  customFields,
                  cancelToken,
                  ticketCode,
                  ticketCodeHash,
                  language,
                },
                ANNOUNCE_RSVP_SUBMITTED_JOB,
              ),
            ]),
        }));
        const [locked, seated] = written!;
        if (locked?.status !== 'published') throw new AppError('svc_not_found', 'No such event.');
        if (!seated.row) throw new AppError('svc_event_full');
        // svc_rsvp_submitted (and the ticket mail its listener queues) held in that transaction: a crash cannot lose it.
        return { row: seated.row, announcement: seated.announcement! };
      }

      /**
       * An event with ticket categories: under the event row's lock (the same one every sign-up of
       * the event takes) the categories' sold counts are read again and each line decided against
       * the event's capacity and its category's quota (decideTicketLines). Free lines and
       * waitlisted ones become one row each now, with their held `svc_rsvp_submitted`; going lines
       * with a price, when payments run, become one order that holds their seats until it is paid.
       */
      async function categorizedSignup(requestedLines: TicketLine[]): Promise<SignupResult> {
        const made = (await allGoingInOneStatement(requestedLines)) ?? (await decidedLineByLine(requestedLines));
        // 10. After commit: svc_rsvp_submitted once per row made, exactly the contract's payload keys.
        if (made.announcement !== null) await announceSubmittedRowsNow(ctx, made.announcement, made.rows);
        const tickets = made.rows.map((row) => ({ ...answerOf(row), ticketCategoryId: row.ticketCategoryId }));
        if (made.order) return { ...made.order, tickets };
        const first = made.rows.find((r) => r.status === 'going') ?? made.rows[0]!;
        return { ...answerOf(first), tickets };
      }

      /**
       * The usual sign-up of a rush, none of its lines to pay online: every line going, in one
       * statement sent behind the event row's lock and followed by the COMMIT, so the hot row is
       * held for one round trip, as a sign-up without categories (`freeSignup`). The statement
       * checks the event's capacity, each quota and the code's limits itself and writes nothing
       * when one no longer holds (null): the sign-up is then decided line by line under the lock,
       * which says which line does not fit, waitlists it or refuses the code as it should. A code
       * that is unknown, out of its window or for none of the tickets is refused here as there.
       */
      async function allGoingInOneStatement(requestedLines: TicketLine[]): Promise<{ rows: AttendeeRecord[]; announcement: number; order: null } | null> {
        if (paid) return null;
        const code = voucherCodeOf(raw);
        let redemption: RedemptionInStatement | null = null;
        if (code !== '') {
          const { voucher, terms, quantity } = await applicableVoucher(db, {
            eventId: event.id,
            code,
            lines: requestedLines.map((l) => ({ categoryId: l.category.id, quantity: l.quantity })),
            atUtc: toUtcString(nowMs),
          });
          redemption = { voucherId: voucher.id, email: fields.email.trim().toLowerCase(), quantity, categoryIds: terms.categoryIds };
        }
        const { written } = await transactionWithFinalWrite(db, async (tx) => ({
          decision: null,
          write: () =>
            Promise.all([
              eventsRepository(tx).lockById(event.id),
              attendeesRepository(tx).insertTicketRowsIfSeats(
                event.id,
                requestedLines.map((line) => ({
                  eventId: event.id,
                  email: fields.email,
                  displayName: fields.display_name,
                  quantity: line.quantity,
                  customFields,
                  ...newTicketSecrets(),
                  ticketCategoryId: line.category.id,
                  language,
                })),
                ANNOUNCE_RSVP_SUBMITTED_JOB,
                redemption,
              ),
            ]),
        }));
        const seated = written![1];
        return seated ? { ...seated, order: null } : null;
      }

      /** The sign-up's lines decided one by one under the event row's lock (see `categorizedSignup`). */
      async function decidedLineByLine(requestedLines: TicketLine[]) {
        return db.transaction(async (tx) => {
          // The lock and the two counts are sent together: the connection runs them in order, so
          // the counts start once the lock is held and read (each statement its own snapshot)
          // every seat committed before it. One wait for the three while other sign-ups queue.
          const code = voucherCodeOf(raw);
          const [locked, categoriesNow, seatsTaken, codeRow] = await Promise.all([
            eventsRepository(tx).lockById(event.id),
            ticketsRepository(tx).ofEventByIds(
              event.id,
              requestedLines.map((l) => l.category.id),
            ),
            attendeesRepository(tx).seatsTaken(event.id),
            code === '' ? undefined : vouchersRepository.findByCode(tx, event.id, voucherCodeKey(code)),
          ]);
          if (locked?.status !== 'published') throw new AppError('svc_not_found', 'No such event.');
          const fresh = new Map(categoriesNow.map((c) => [c.id, c]));
          const current = requestedLines.map((line) => {
            const category = fresh.get(line.category.id);
            if (!category)
              throw new AppError('svc_invalid_param', 'Invalid parameter(s): tickets', {
                params: { tickets: `no ticket category ${line.category.id} for this event` },
              });
            return { category, quantity: line.quantity };
          });
          const decidedLines = decideTicketLines(locked, seatsTaken, current);
          const going = decidedLines.filter((l) => l.status === 'going');
          // the code is redeemed under the same lock, for the going tickets (waitlisted ones pay nothing now)
          const redemption =
            code !== '' && going.length > 0
              ? await redeemVoucher(tx, {
                  eventId: locked.id,
                  code,
                  found: codeRow,
                  email: fields.email,
                  lines: going.map((l) => ({ categoryId: l.category.id, quantity: l.quantity })),
                })
              : null;
          // every ticket waitlisted: a wrong code is still refused, a good one takes no use
          if (code !== '' && going.length === 0) {
            await checkVoucher(tx, {
              eventId: locked.id,
              code,
              found: codeRow,
              lines: decidedLines.map((l) => ({ categoryId: l.category.id, quantity: l.quantity })),
            });
          }
          const priced = orderTotalOf(going, redemption?.terms ?? null);
          const grossOf = new Map(priced.lines.map((p, i) => [going[i]!, p.grossCents]));
          // a line the code made free is a ticket now, like a free category's
          const toPay = paid ? going.filter((l) => (grossOf.get(l) ?? 0) > 0) : [];
          const ticketLines = decidedLines.filter((line) => !toPay.includes(line));
          // the rows and their held announcement in one statement: one round trip under the lock
          const { rows, announcement } =
            ticketLines.length > 0
              ? await attendeesRepository(tx).insertTicketRows(
                  ticketLines.map((line) => ({
                    eventId: locked.id,
                    email: fields.email,
                    displayName: fields.display_name,
                    quantity: line.quantity,
                    status: line.status,
                    customFields,
                    ...newTicketSecrets(),
                    ticketCategoryId: line.category.id,
                    language,
                  })),
                  ANNOUNCE_RSVP_SUBMITTED_JOB,
                )
              : { rows: [] as AttendeeRecord[], announcement: null };
          if (toPay.length === 0) {
            if (redemption) await attachRedemptionToTickets(tx, redemption, rows);
            return { rows, announcement, order: null };
          }
          const quantity = toPay.reduce((n, l) => n + l.quantity, 0);
          const total = orderTotalOf(toPay, redemption?.terms ?? null);
          const order = await ordersService(ctx).hold(tx, {
            event: locked,
            email: fields.email,
            name: fields.display_name,
            quantity,
            currency,
            customFields,
            language,
            tickets: {
              lines: toPay.map((l) => ({ eventId: locked.id, quantity: l.quantity, categoryId: l.category.id, unitPriceCents: l.category.priceCents })),
              total,
              voucher: redemption ? { id: redemption.voucherId, code: redemption.code, discountCents: total.discountCents } : null,
            },
          });
          if (redemption) await attachRedemption(tx, redemption.redemptionId, { orderId: order.id });
          const payment = await openPayment(ctx, tx, {
            orderId: order.id,
            amountCents: order.amountCents,
            currency,
            description: `${locked.title}: ${quantity} ${quantity === 1 ? 'ticket' : 'tickets'}`,
            customerEmail: fields.email,
          });
          return { rows, announcement, order: { orderId: order.id, status: 'pending_payment' as const, paymentUrl: payment.url } };
        });
      }

      function paidSignup() {
        return db.transaction(async (tx) => {
          const locked = await eventsRepository(tx).lockById(event.id);
          if (locked?.status !== 'published') throw new AppError('svc_not_found', 'No such event.');
          let status: 'going' | 'waitlist' = 'going';
          const taken = await seatsTakenLocked(tx, locked);
          if (locked.capacity !== null && taken + fields.quantity > locked.capacity) {
            if (!locked.waitlist) throw new AppError('svc_event_full');
            status = 'waitlist';
          }
          // A paid event: the seats are held by an order until it is paid; the tickets come with the payment.
          if (status === 'going') {
            const order = await ordersService(ctx).hold(tx, {
              event: locked,
              email: fields.email,
              name: fields.display_name,
              quantity: fields.quantity,
              currency,
              customFields,
              language,
            });
            const payment = await openPayment(ctx, tx, {
              orderId: order.id,
              amountCents: order.amountCents,
              currency,
              description: `${locked.title}: ${fields.quantity} ${fields.quantity === 1 ? 'ticket' : 'tickets'}`,
              customerEmail: fields.email,
            });
            return { order: { orderId: order.id, status: 'pending_payment' as const, paymentUrl: payment.url } };
          }
          const row = await attendeesRepository(tx).insert({
            eventId: locked.id,
            email: fields.email,
            displayName: fields.display_name,
            quantity: fields.quantity,
            status,
            customFields,
            cancelToken,
            ticketCode,
            ticketCodeHash,
            language,
          });
          return { row, announcement: await holdAnnouncement(tx, ANNOUNCE_RSVP_SUBMITTED_JOB, { attendeeIds: [row.id] }) };
        });
      }
    },

    /** What the public cancel page shows; never a secret. */
    async cancelPreview(token: string): Promise<CancelPreview> {
      const row = await findByToken(token);
      const event = await eventsRepository(db).findById(row.eventId);
      if (!event) throw new AppError('svc_not_found');
      return {
        eventId: event.id,
        eventTitle: event.title,
        eventStartsUtc: event.startsUtc,
        eventTimezone: event.timezone,
        displayName: row.displayName,
        quantity: row.quantity,
        status: row.status,
        walletAvailable: walletAvailable(ctx.env),
        refund: await refundOf(row),
      };
    },

    /**
     * Visitor cancel: the seat is released and `svc_rsvp_cancelled` fires once. The event row is
     * locked first, as the sign-up locks it: in an event whose waitlist moves up by itself the
     * freed seats go to the oldest waitlisted parties that fit, in this transaction, each
     * mailed and announced with `svc_attendee_status_changed` after `svc_rsvp_cancelled`
     * (docs/decisions/045-waitlist-promotion.md). Otherwise an administrator moves them with PATCH.
     */
    async cancel(token: string): Promise<CancelResult> {
      const found = await findByToken(token);
      const cancelled = await db.transaction(async (tx) => {
        const event = await lockEvent(tx, found.eventId);
        const repo = attendeesRepository(tx);
        const row = await repo.lockById(found.id);
        if (!row || !safeEqual(row.cancelToken, token)) throw new AppError('svc_not_found');
        if (row.status === 'cancelled') throw new AppError('svc_already_cancelled');
        const updated = await repo.update(row.id, { status: 'cancelled' });
        if (!updated) return null;
        await withdrawAttendeeReminder(tx, updated.id);
        const held = await holdAttendeeChange(tx, { change: 'cancelled', attendeeId: updated.id });
        return { id: updated.id, held, promoted: event ? await promoteWaitlist(ctx, tx, event) : NO_PROMOTION };
      });
      if (!cancelled) throw new AppError('svc_not_found');
      await announceChangeNow(ctx, cancelled.held, { change: 'cancelled', attendeeId: cancelled.id });
      await announcePromotedNow(ctx, cancelled.promoted);
      return { id: cancelled.id, status: 'cancelled' };
    },
  };

  /**
   * Whether a ticket of a paid order gets its money back, and how (docs/api.md#payments): a
   * refund through the provider goes back to the way it was paid (`refunding`, then `refunded`);
   * a ticket cancelled on its own is not refunded by svc (`none`: the organizer decides); a shop's
   * order is refunded in the shop (`shop`). Null for a ticket no one paid for here.
   */
  async function refundOf(row: AttendeeRecord): Promise<CancelPreview['refund']> {
    if (row.orderId === null) return null;
    const order = await paymentsRepository.findOrder(db, row.orderId);
    if (!order) return null;
    if (order.source === 'commerce') return 'shop';
    const payment = await paymentsRepository.latestPaymentOf(db, { orderId: order.id });
    if (payment?.status === 'refunding') return 'refunding';
    if (payment?.status === 'refunded' || order.status === 'refunded') return 'refunded';
    return order.status === 'paid' ? 'none' : null;
  }

  async function findByToken(token: string) {
    const row = await attendeesRepository(db).findByCancelToken(token);
    // The index finds the candidate; the comparison that decides is constant-time.
    if (!row || !safeEqual(row.cancelToken, token)) throw new AppError('svc_not_found');
    return row;
  }
}
