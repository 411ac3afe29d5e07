/**
 * A host's connected calendars (docs/api.md#host-calendars): CalDAV or ICS calendars whose busy
 * time blocks the host's slots. A refresh reads the calendar, expands its busy time over the
 * horizon and replaces the stored set in one transaction, raising the host's slot-cache epoch
 * when the set changed. A calendar that cannot be read keeps its last known busy set and shows
 * as `unreachable` with a safe message (docs/decisions/041-external-calendars.md).
 */
import { AppError } from '../../../shared/errors';
import type { HostCalendarDto, HostCalendarInput } from '../../../shared/host-calendars';
import { isValidTimeZone, toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Principal } from '../../auth/principal';
import { assertMayManageOwn } from './host-access';
import { isOwnCalendarUid } from '../../mail/ics';
import { openSecret, sealSecret } from '../../security/crypto';
import { assertTargetAllowed, outboundPolicy, type OutboundPolicy } from '../../security/outbound';
import { bookingRepository } from '../booking/booking.repository';
import { expandBusy, mergeBusy } from './calendar-busy';
import { CalendarReadError, readCalendar, type CalendarSource, type ReadResult } from './calendar-reader';
import { calendarsRepository, type CalendarSyncState, type HostCalendarRow } from './calendars.repository';

const DAY_MS = 86_400_000;
/** Busy time is kept from a day ago (a booking made now may start in the past day's zone) … */
export const BUSY_HORIZON_PAST_DAYS = 1;
/** … to this far ahead (beyond the furthest a type may be booked). */
export const BUSY_HORIZON_DAYS = 400;
/** A background or explicit refresh waits this long for the calendar server. */
export const REFRESH_TIMEOUT_MS = 15_000;
/** The write path (create, reschedule) waits at most this long before deciding with what is stored. */
export const WRITE_PATH_TIMEOUT_MS = 2_000;
/** The write path skips a calendar read this recently (a rush of bookings is not a rush of requests). */
const WRITE_PATH_FRESH_MS = 15_000;
/** At most this many intervals per calendar are kept. */
const MAX_BUSY_PER_CALENDAR = 20_000;
/** The purpose a calendar password is sealed under (server/security/crypto.ts); the write-back opens it too. */
export const PASSWORD_PURPOSE = 'host-calendar-password';

type CalendarContext = Pick<AppContext, 'db' | 'env' | 'secret' | 'logger'>;

/** Transports for tests: a policy with its own DNS answers. */
const policies = new WeakMap<object, OutboundPolicy>();
export function configureCalendarTransport(db: object, policy: OutboundPolicy): void {
  policies.set(db, policy);
}
/** The outbound policy calendar requests of `db`'s installation go under (the write-back's too). */
export function calendarPolicy(ctx: Pick<AppContext, 'db' | 'env'>): OutboundPolicy {
  return policies.get(ctx.db) ?? outboundPolicy(ctx.env);
}

const invalid = (field: string, message: string) => new AppError('svc_invalid_param', `Invalid parameter(s): ${field}`, { params: { [field]: message } });

export interface RefreshOutcome {
  ok: boolean;
  /** The stored busy set changed (the host's slot epoch was raised). */
  changed: boolean;
}

export function calendarsService(ctx: CalendarContext) {
  const { db } = ctx;
  const repo = calendarsRepository;
  const policy = () => calendarPolicy(ctx);
  const ownBookingUid = isOwnCalendarUid(ctx, 'booking');

  function dtoOf(row: HostCalendarRow, busyCount: number): HostCalendarDto {
    return {
      id: row.id,
      userId: row.userId,
      kind: row.kind,
      url: row.url,
      username: row.username,
      hasPassword: row.passwordSealed !== null,
      writeBack: row.writeBack,
      timezone: row.timezone,
      status: row.status,
      lastError: row.lastError,
      lastRefreshedUtc: row.lastRefreshedUtc,
      lastSuccessUtc: row.lastSuccessUtc,
      busyCount,
      createdUtc: row.createdUtc,
    };
  }

  async function dtosOf(rows: HostCalendarRow[]): Promise<HostCalendarDto[]> {
    const counts = await repo.busyCounts(
      db,
      rows.map((r) => r.id),
    );
    return rows.map((row) => dtoOf(row, counts.get(row.id) ?? 0));
  }

  function sourceOf(row: Pick<HostCalendarRow, 'kind' | 'url' | 'username' | 'passwordSealed'>): CalendarSource {
    const password = row.passwordSealed ? openSecret(ctx.secret, PASSWORD_PURPOSE, row.passwordSealed) : null;
    if (row.passwordSealed && password === null)
      throw new CalendarReadError('the stored password cannot be opened (the server secret changed): enter it again');
    return { kind: row.kind, url: row.url, username: row.username, password };
  }

  const horizon = (nowMs: number) => ({ fromMs: nowMs - BUSY_HORIZON_PAST_DAYS * DAY_MS, toMs: nowMs + BUSY_HORIZON_DAYS * DAY_MS });

  async function read(source: CalendarSource, previous: CalendarSyncState, timeoutMs: number, nowMs: number): Promise<ReadResult> {
    return readCalendar(source, { policy: policy(), timeoutMs, previous, ...horizon(nowMs) });
  }

  function busyOf(texts: string[], timezone: string, nowMs: number) {
    // the bookings svc wrote into the calendar (write-back) are not busy time besides themselves
    const merged = mergeBusy(expandBusy(texts, { timezone, ...horizon(nowMs), ignoreUid: ownBookingUid }));
    return merged.slice(0, MAX_BUSY_PER_CALENDAR).map((b) => ({ startUtc: toUtcString(b.startMs), endUtc: toUtcString(b.endMs) }));
  }

  /** Reads one calendar and stores what it shows; a failure marks it unreachable and keeps the last set. */
  async function refreshRow(row: HostCalendarRow, timeoutMs: number, nowMs = Date.now()): Promise<RefreshOutcome> {
    const atUtc = toUtcString(nowMs);
    const previous: CalendarSyncState = { collectionUrl: row.collectionUrl, ctag: row.ctag, syncToken: row.syncToken, etag: row.etag };
    let result: ReadResult;
    let busy: Array<{ startUtc: string; endUtc: string }> | null = null;
    try {
      result = await read(sourceOf(row), previous, timeoutMs, nowMs);
      if (!result.unchanged) busy = busyOf(result.texts, row.timezone, nowMs);
    } catch (err) {
      const message = err instanceof CalendarReadError ? err.message : 'the calendar could not be read';
      await repo.markUnreachable(db, row.id, message, atUtc);
      ctx.logger.info({ calendarId: row.id, hostUserId: row.userId, reason: message }, 'host calendar unreachable');
      return { ok: false, changed: false };
    }
    let changed = false;
    await db.transaction(async (tx) => {
      // removed while it was being read: nothing to keep
      if (!(await repo.lock(tx, row.id))) return;
      if (busy) {
        const stored = await repo.busyOf(tx, row.id);
        changed = stored.length !== busy.length || stored.some((s, i) => s.startUtc !== busy![i]!.startUtc || s.endUtc !== busy![i]!.endUtc);
        if (changed) {
          await repo.replaceBusy(tx, row.id, row.userId, busy);
          // the host's cached slot lists are stale from this commit on
          await bookingRepository.bumpEpochs(tx, [row.userId]);
        }
      }
      await repo.markRead(tx, row.id, result.state, atUtc);
    });
    return { ok: true, changed };
  }

  async function rowOrNotFound(id: number): Promise<HostCalendarRow> {
    const row = await repo.find(db, id);
    if (!row) throw new AppError('svc_not_found', 'No such calendar.');
    return row;
  }

  return {
    async list(principal: Principal, userId: number): Promise<HostCalendarDto[]> {
      assertMayManageOwn(principal, userId);
      if (!(await repo.user(db, userId))) throw new AppError('svc_not_found', 'No such user.');
      return dtosOf(await repo.listForUser(db, userId));
    },

    /**
     * Connects a calendar: the address is read once before anything is stored, so an address
     * that cannot be read, is not a calendar or refuses the credentials answers 400 naming the
     * field, and nothing is kept (docs/decisions/041-external-calendars.md).
     */
    async add(principal: Principal, userId: number, input: HostCalendarInput, nowMs = Date.now()): Promise<HostCalendarDto> {
      assertMayManageOwn(principal, userId);
      if (!(await repo.user(db, userId))) throw new AppError('svc_not_found', 'No such user.');
      const url = assertTargetAllowed(input.url, policy(), 'url').href;
      // all-day events and floating times: the zone given, else the zone of a type the host hosts, else UTC
      const timezone = input.timezone ?? (await repo.hostedTypeZone(db, userId)) ?? 'UTC';
      if (!isValidTimeZone(timezone)) throw invalid('timezone', 'must be an IANA time zone');
      if (input.password !== undefined && input.username === undefined) throw invalid('username', 'is required with a password');
      if (input.writeBack && input.kind !== 'caldav') throw invalid('writeBack', 'only a CalDAV calendar can take bookings');
      // one calendar takes a host's bookings (docs/decisions/042-calendar-write-back.md)
      if (input.writeBack && (await repo.listForUser(db, userId)).some((r) => r.writeBack))
        throw invalid('writeBack', 'another calendar of this host takes the bookings already');
      const source: CalendarSource = { kind: input.kind, url, username: input.username ?? null, password: input.password ?? null };
      const empty: CalendarSyncState = { collectionUrl: null, ctag: null, syncToken: null, etag: null };
      let result: ReadResult;
      let busy: Array<{ startUtc: string; endUtc: string }>;
      try {
        result = await read(source, empty, REFRESH_TIMEOUT_MS, nowMs);
        busy = result.unchanged ? [] : busyOf(result.texts, timezone, nowMs);
      } catch (err) {
        const reason = err instanceof CalendarReadError ? err : new CalendarReadError('the calendar could not be read');
        if (reason.reason === 'credentials') throw invalid('password', reason.message);
        throw invalid('url', `could not be read as a calendar: ${reason.message}`);
      }
      const atUtc = toUtcString(nowMs);
      const row = await db.transaction(async (tx) => {
        const made = await repo.insert(tx, {
          userId,
          kind: input.kind,
          url,
          username: input.username ?? null,
          passwordSealed: input.password === undefined ? null : sealSecret(ctx.secret, PASSWORD_PURPOSE, input.password),
          writeBack: input.writeBack ?? false,
          timezone,
          ...result.state,
          status: 'ok',
          lastRefreshedUtc: atUtc,
          lastSuccessUtc: atUtc,
        });
        if (busy.length > 0) {
          await repo.replaceBusy(tx, made.id, userId, busy);
          await bookingRepository.bumpEpochs(tx, [userId]);
        }
        return made;
      });
      return dtoOf(row, busy.length);
    },

    async remove(principal: Principal, id: number): Promise<void> {
      const row = await rowOrNotFound(id);
      assertMayManageOwn(principal, row.userId);
      await db.transaction(async (tx) => {
        await repo.remove(tx, id);
        await bookingRepository.bumpEpochs(tx, [row.userId]);
      });
    },

    /** POST /calendars/{id}/refresh: reads the calendar now and answers with its state afterwards. */
    async refreshNow(principal: Principal, id: number): Promise<HostCalendarDto> {
      const row = await rowOrNotFound(id);
      assertMayManageOwn(principal, row.userId);
      await refreshRow(row, REFRESH_TIMEOUT_MS);
      const [dto] = await dtosOf([await rowOrNotFound(id)]);
      return dto!;
    },

    refreshRow,

    /**
     * The write path's recheck: the hosts' calendars not read in the last seconds, read at once
     * with a short deadline. Never throws: an unreachable calendar keeps its last known set.
     */
    async refreshHosts(hostIds: number[], timeoutMs = WRITE_PATH_TIMEOUT_MS, nowMs = Date.now()): Promise<void> {
      const rows = (await repo.listForUsers(db, hostIds)).filter(
        (r) => r.lastRefreshedUtc === null || Date.parse(`${r.lastRefreshedUtc.replace(' ', 'T')}Z`) < nowMs - WRITE_PATH_FRESH_MS,
      );
      if (rows.length === 0) return;
      await Promise.all(rows.map((row) => refreshRow(row, timeoutMs, nowMs).catch(() => undefined)));
    },

    /** The background job's pass: every calendar not read for `intervalMs`, one after another. */
    async refreshDue(intervalMs: number, nowMs = Date.now(), limit = 500): Promise<{ read: number; failed: number }> {
      const due = await repo.listDue(db, toUtcString(nowMs - intervalMs + 1000), limit);
      let failed = 0;
      for (const row of due) if (!(await refreshRow(row, REFRESH_TIMEOUT_MS)).ok) failed++;
      return { read: due.length, failed };
    },
  };
}
