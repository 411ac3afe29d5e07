import type { AppContext } from '../../context';
import { AppError } from '../../../shared/errors';
import {
  EVENT_TITLE_MAX,
  type CreateEventInput,
  type EventDto,
  type EventListQuery,
  type EventSignupState,
  type UpdateEventInput,
} from '../../../shared/events';
import { toUtcString } from '../../../shared/time';
import { imageDto } from '../../../shared/images';
import { matchLocale } from '../../../shared/i18n/locales';
import type { Principal } from '../../auth/principal';
import { assertTargetAllowed, outboundPolicy } from '../../security/outbound';
import type { Db } from '../../db/client';
import { eventsRepository, type EventRow, type NewEventRow } from './events.repository';
import { ticketsRepository } from '../orders/tickets.repository';
import { settingsService } from '../settings/settings.service';
import { dropEventReminder, planEventReminder } from '../attendees/attendees.reminders';
import { announcePromotedNow, promoteWaitlist } from '../attendees/waitlist.service';

/** What the public decides on besides the event itself: seats taken, the price's currency, the time of the answer. */
export interface EventLiveFacts {
  seatsTaken: number;
  currency: string;
  nowUtc: string;
}

/** The window as the sign-up checks it (signup.service.ts), then the seats; UTC strings compare as times. */
function signupStateOf(e: EventRow, placesLeft: number | null, nowUtc: string): EventSignupState {
  if (e.signupOpensUtc !== null && nowUtc < e.signupOpensUtc) return 'not_yet_open';
  if (nowUtc >= (e.signupClosesUtc ?? e.startsUtc)) return 'closed';
  if (placesLeft === 0) return e.waitlist ? 'full_waitlist' : 'full';
  return 'open';
}

/**
 * The public's view of an event. The extended edition adds the sign-up questions, and for
 * administrators (`admin`) the chat URL and a submission's submitter.
 */
export function toEventDto(e: EventRow, live: EventLiveFacts, view: { admin?: boolean; extended?: boolean } = {}): EventDto {
  const placesLeft = e.capacity === null ? null : Math.max(0, e.capacity - live.seatsTaken);
  const dto: EventDto = {
    id: e.id,
    title: e.title,
    description: e.description,
    startsUtc: e.startsUtc,
    endsUtc: e.endsUtc,
    timezone: e.timezone,
    language: matchLocale(e.language),
    venue: e.venue,
    venueAddress: e.venueAddress,
    venueLat: e.venueLat,
    venueLon: e.venueLon,
    capacity: e.capacity,
    maxPerSignup: e.maxPerSignup,
    signupOpensUtc: e.signupOpensUtc,
    signupClosesUtc: e.signupClosesUtc,
    waitlist: e.waitlist,
    waitlistPromotion: e.waitlistPromotion,
    status: e.status,
    priceCents: e.priceCents,
    currency: live.currency,
    reminderMinutes: e.reminderMinutesBefore,
    placesLeft,
    signupState: signupStateOf(e, placesLeft, live.nowUtc),
    image: imageDto(e.coverImage),
    createdUtc: e.createdUtc,
    updatedUtc: e.updatedUtc,
  };
  if (view.admin) dto.seatsTaken = live.seatsTaken;
  if (!view.extended) return dto;
  dto.fields = e.fields;
  if (!view.admin) return dto;
  return {
    ...dto,
    chatWebhookUrl: e.chatWebhookUrl,
    submission: e.submissionStatus ? { status: e.submissionStatus, submitterName: e.submitterName ?? '', submitterEmail: e.submitterEmail ?? '' } : null,
  };
}

const canSeeDrafts = (principal: Principal | null) => principal?.role === 'administrator';

/** Times are fixed-width UTC strings, so string order is time order. */
function assertCoherent(e: Pick<EventRow, 'startsUtc' | 'endsUtc' | 'signupOpensUtc' | 'signupClosesUtc' | 'venueLat' | 'venueLon'>): void {
  const params: Record<string, string> = {};
  // a point needs both halves (docs/decisions/051-link-previews-and-directions.md)
  if (e.venueLat === null && e.venueLon !== null) params.venueLat = 'must be given with venueLon';
  if (e.venueLon === null && e.venueLat !== null) params.venueLon = 'must be given with venueLat';
  if (e.endsUtc !== null && e.endsUtc < e.startsUtc) params.endsUtc = 'must not be before startsUtc';
  if (e.signupOpensUtc !== null && e.signupClosesUtc !== null && e.signupClosesUtc < e.signupOpensUtc) {
    params.signupClosesUtc = 'must not be before signupOpensUtc';
  }
  if (Object.keys(params).length > 0) throw new AppError('svc_invalid_param', `Invalid parameter(s): ${Object.keys(params).join(', ')}`, { params });
}

/**
 * Every new event row, made from the form or as a copy, is written here: the row, then its
 * reminder planned in the same transaction (docs/api.md#event-reminders).
 */
async function insertEvent(tx: Db, row: NewEventRow): Promise<EventRow> {
  const inserted = await eventsRepository(tx).insert(row);
  await planEventReminder(tx, null, inserted);
  return inserted;
}

/** What a copy of an event does not take over: its identity, its times of writing and a proposal's submitter. */
function settingsOf(e: EventRow): NewEventRow {
  const { id: _id, createdUtc: _created, updatedUtc: _updated, submissionStatus: _status, submitterName: _name, submitterEmail: _email, ...settings } = e;
  return settings;
}

/** "<title> (copy)", the title cut (never inside a character) so the copy stays within the longest title allowed. */
function copyTitle(title: string): string {
  const suffix = ' (copy)';
  if (title.length + suffix.length <= EVENT_TITLE_MAX) return `${title}${suffix}`;
  const cut = title.slice(0, EVENT_TITLE_MAX - suffix.length);
  // a lone high surrogate would be half an emoji
  return `${(/[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut).trimEnd()}${suffix}`;
}

export function eventsService(ctx: AppContext) {
  const { db } = ctx;
  const extended = ctx.env.SVC_EDITION === 'extended';
  const repo = eventsRepository(db);
  /** The team chat's address follows the webhooks' target rules (docs/api.md#chat): 400 naming the field. */
  const assertChatTarget = (url: string | undefined) => {
    if (url) assertTargetAllowed(url, outboundPolicy(ctx.env), 'chatWebhookUrl');
  };
  /** The rows as answers, their seats counted in one query for the whole page. */
  const toDtos = async (rows: EventRow[], admin: boolean): Promise<EventDto[]> => {
    const [taken, currency] = await Promise.all([repo.seatsTaken(rows.map((r) => r.id)), settingsService(ctx).currency()]);
    const nowUtc = toUtcString(Date.now());
    return rows.map((row) => toEventDto(row, { seatsTaken: taken.get(row.id) ?? 0, currency, nowUtc }, { admin, extended }));
  };
  const toDto = async (row: EventRow, admin: boolean) => (await toDtos([row], admin))[0]!;
  return {
    async list(query: EventListQuery, principal: Principal | null): Promise<{ items: EventDto[]; total: number }> {
      const status = canSeeDrafts(principal) ? query.status : 'published';
      const filter = { status, when: query.when, q: query.q || undefined, nowUtc: toUtcString(Date.now()) };
      const { rows, total } = await repo.list(filter, query.perPage, (query.page - 1) * query.perPage);
      const admin = canSeeDrafts(principal);
      return { items: await toDtos(rows, admin), total };
    },

    /** A draft is 404 to everyone but administrators (docs/api.md#rest). */
    async get(id: number, principal: Principal | null): Promise<EventDto> {
      const row = await repo.findById(id);
      if (!row || (row.status !== 'published' && !canSeeDrafts(principal))) throw new AppError('svc_not_found', 'No such event.');
      return toDto(row, canSeeDrafts(principal));
    },

    async create(input: CreateEventInput): Promise<EventDto> {
      assertCoherent(input);
      assertChatTarget(input.chatWebhookUrl);
      const { reminderMinutes, ...fields } = input;
      const row = await db.transaction((tx) => insertEvent(tx, { ...fields, reminderMinutesBefore: reminderMinutes }));
      return toDto(row, true);
    },

    /**
     * A draft titled "<title> (copy)" with the event's settings, sign-up questions and ticket
     * categories (in their order), made through the create's own path; no attendees, orders or
     * vouchers (docs/api.md#rest, "Admin lists and figures").
     */
    async duplicate(id: number): Promise<EventDto> {
      const row = await db.transaction(async (tx) => {
        const source = await eventsRepository(tx).findById(id);
        if (!source) return null;
        const copy = await insertEvent(tx, { ...settingsOf(source), title: copyTitle(source.title), status: 'draft' });
        const tickets = ticketsRepository(tx);
        for (const category of await tickets.listOfEvent(id)) {
          const { id: _id, soldCount: _sold, createdUtc: _created, updatedUtc: _updated, ...settings } = category;
          await tickets.insert({ ...settings, eventId: copy.id });
        }
        return copy;
      });
      if (!row) throw new AppError('svc_not_found', 'No such event.');
      return toDto(row, true);
    },

    async update(id: number, input: UpdateEventInput): Promise<EventDto> {
      const current = await repo.findById(id);
      if (!current) throw new AppError('svc_not_found', 'No such event.');
      assertCoherent({ ...current, ...input });
      assertChatTarget(input.chatWebhookUrl);
      const { reminderMinutes, ...fields } = input;
      const saved = await db.transaction(async (tx) => {
        const events = eventsRepository(tx);
        // locked: two saves of one event plan its reminder in the order they commit
        const before = await events.lockById(id);
        if (!before) return null;
        const updated = await events.update(id, reminderMinutes === undefined ? fields : { ...fields, reminderMinutesBefore: reminderMinutes });
        if (!updated) return null;
        await planEventReminder(tx, before, updated);
        // a raised capacity (or the waitlist set to move up by itself) gives free seats to the
        // waitlist under the same lock (docs/decisions/045-waitlist-promotion.md)
        return { row: updated, promoted: await promoteWaitlist(ctx, tx, updated) };
      });
      if (!saved) throw new AppError('svc_not_found', 'No such event.');
      await announcePromotedNow(ctx, saved.promoted);
      return toDto(saved.row, true);
    },

    /** Refused while attendees exist: deleting them is an explicit admin act that fires svc_attendee_deleted. */
    async delete(id: number): Promise<void> {
      try {
        const deleted = await db.transaction(async (tx) => {
          if (!(await eventsRepository(tx).delete(id))) return false;
          await dropEventReminder(tx, id);
          return true;
        });
        if (!deleted) throw new AppError('svc_not_found', 'No such event.');
      } catch (err) {
        if (isForeignKeyViolation(err)) throw new AppError('svc_conflict', 'This event still has attendees; delete them first.', undefined, { cause: err });
        throw err;
      }
    },
  };
}
export type EventsService = ReturnType<typeof eventsService>;

/** 23001 restrict_violation (ON DELETE RESTRICT) or 23503 foreign_key_violation, from the driver error under Drizzle's. */
function isForeignKeyViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (code === '23001' || code === '23503') return true;
  }
  return false;
}
