/**
 * The slot service: loads the hosts' agendas, runs the pure generator, then
 * `svc_booking_slots`. Display reads go through a cache; the write path never does.
 *
 * Cache invalidation works across instances without messaging: every booking write raises the
 * `svc_slot_epochs` counter of its host in the same transaction, and a type edit raises the
 * type's `version`. A cached set is used only while (type version, sum of its hosts' epochs)
 * is unchanged and its TTL (`svc_slot_cache_ttl`) has not run out. The cache holds the generator's
 * lists only: `svc_booking_slots` runs on every answer, so a filter that reads other agendas (the
 * extended edition's shared resources) is never answered from a stale set.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { generateSlots, resolveSlotRange, SLOT_LIMIT, type Slot as GeneratedSlot } from '../../../shared/booking/slots';
import { toUtcDate, toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { applyContractFilter, DEFAULT_SLOT_CACHE_TTL_SECONDS } from '../../hooks';
import type { Slot } from '../../hooks/types';
import { hostHoursFor } from '../hosts/hours.service';
import { calendarsRepository } from '../hosts/calendars.repository';
import { slotRulesOf } from './booking-type.service';
import { bookingRepository, type BookingRepository, type BookingTypeRow } from './booking.repository';

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;
const FIRST_CHUNK_DAYS = 7;
/** The display cache's budget: bounded by bytes, not entries (a 30-day list is ~350 KB). */
export const SLOT_CACHE_MAX_BYTES = 32 * 1024 * 1024;

interface CacheEntry {
  version: number;
  epoch: number;
  expiresMs: number;
  slots: GeneratedSlot[];
  bytes: number;
}

/** What a slot list costs in the heap, roughly: its strings (2 bytes a character), the host ids and the objects around them. */
export function slotListBytes(slots: GeneratedSlot[]): number {
  let bytes = 64;
  for (const s of slots) bytes += 2 * (s.start_utc.length + s.end_utc.length + s.start.length + s.label.length) + 8 * s.hosts.length + 160;
  return bytes;
}

/**
 * Least recently used first out, bounded by bytes; an entry found expired on read is dropped
 * then and there. One per server (AppContext).
 */
export class SlotCache {
  private readonly entries = new Map<string, CacheEntry>();
  private total = 0;

  constructor(private readonly maxBytes = SLOT_CACHE_MAX_BYTES) {}

  get(key: string, nowMs: number): CacheEntry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.delete(key);
    if (entry.expiresMs <= nowMs) return undefined;
    this.entries.set(key, entry);
    this.total += entry.bytes;
    return entry;
  }

  set(key: string, entry: Omit<CacheEntry, 'bytes'>): void {
    this.delete(key);
    const bytes = slotListBytes(entry.slots);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { ...entry, bytes });
    this.total += bytes;
    for (const [oldest, old] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.total -= old.bytes;
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.total -= entry.bytes;
  }

  /** For the metrics endpoint and tests. */
  stats(): { entries: number; bytes: number; maxBytes: number } {
    return { entries: this.entries.size, bytes: this.total, maxBytes: this.maxBytes };
  }
}

const caches = new WeakMap<AppContext, SlotCache>();

export function slotCacheOf(ctx: AppContext): SlotCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new SlotCache();
    caches.set(ctx, cache);
  }
  return cache;
}

/** What `svc_booking_slots` runs inside on the write path (docs/api.md#resources). */
export interface SlotWritePath {
  /** The booking's transaction, its host locks held: a filter reads and locks through it. */
  tx: Db;
  /** Reschedule: the booking being moved. */
  excludeBookingId?: number;
}

const writePath = new AsyncLocalStorage<SlotWritePath>();

/**
 * Inside a `svc_booking_slots` callback: the write path's transaction, or undefined on a display
 * read. A filter that reads the database must read through it there (PGlite has one connection,
 * and a check outside the transaction would not be decided with it).
 */
export function slotWritePath(): SlotWritePath | undefined {
  return writePath.getStore();
}

export interface ComputeOptions {
  fromDay: string;
  toDay: string;
  nowMs: number;
  requesterTz: string;
  /** Reschedule: the booking being moved does not block its own new time. */
  excludeBookingId?: number;
}

export function slotService(ctx: AppContext, repo: BookingRepository = bookingRepository) {
  /**
   * The generator's list for a type, from the agendas as `db` (a transaction, on the write path)
   * sees them. Long ranges are generated in chunks of UTC days, each loading only its own stretch
   * of the agendas, until the 750-slot cap is reached: 7 days first, then as many days as the
   * slots-per-day seen so far say the cap needs (with a margin, at least 7), so a 60-day range is
   * usually read in two small queries instead of one large one. Chunks are disjoint in start
   * time, so their concatenation is exactly the one-run result.
   */
  async function compute(db: Db, type: BookingTypeRow, opts: ComputeOptions): Promise<GeneratedSlot[]> {
    const reach = (type.durationMinutes + type.bufferBeforeMinutes + type.bufferAfterMinutes) * MINUTE_MS;
    const lastDayMs = Date.parse(`${opts.toDay}T00:00:00Z`);
    const rules = slotRulesOf(type);
    // the hosts' own hours (docs/decisions/040-host-hours.md), read once per call through `db`
    const hostHours = await hostHoursFor(db, type.hosts);
    const slots: GeneratedSlot[] = [];
    const firstMs = Date.parse(`${opts.fromDay}T00:00:00Z`);
    let chunkMs = firstMs;
    for (let span = FIRST_CHUNK_DAYS; ;) {
      const chunkEndMs = Math.min(chunkMs + (span - 1) * DAY_MS, lastDayMs);
      const [fromUtc, toUtc] = [toUtcString(chunkMs - reach), toUtcString(chunkEndMs + DAY_MS + reach)];
      const busy = await repo.busyForHosts(db, type.hosts, fromUtc, toUtc, opts.excludeBookingId);
      // the hosts' connected calendars block them for every type (docs/api.md#host-calendars)
      for (const entry of await calendarsRepository.busyForHosts(db, type.hosts, fromUtc, toUtc)) busy.push(entry);
      const part = generateSlots({
        rules,
        bookingTypeId: type.id,
        busy,
        fromDay: toUtcDate(chunkMs),
        toDay: toUtcDate(chunkEndMs),
        nowMs: opts.nowMs,
        requesterTz: opts.requesterTz,
        limit: SLOT_LIMIT - slots.length,
        hostHours,
      });
      for (const slot of part) slots.push(slot);
      if (slots.length >= SLOT_LIMIT || chunkEndMs >= lastDayMs) return slots;
      chunkMs = chunkEndMs + DAY_MS;
      const perDay = slots.length / ((chunkMs - firstMs) / DAY_MS);
      span = Math.max(FIRST_CHUNK_DAYS, perDay > 0 ? Math.ceil(((SLOT_LIMIT - slots.length) / perDay) * 1.25) : span * 2);
    }
  }

  return {
    compute,

    /**
     * GET /booking-types/{id}/slots: `from`/`to` are the raw query values (may be empty) and
     * reach `svc_booking_slots` as they came.
     */
    async listForDisplay(type: BookingTypeRow, query: { from?: string; to?: string; tz?: string }, nowMs = Date.now()): Promise<Slot[]> {
      const { fromDay, toDay } = resolveSlotRange(query.from, query.to, nowMs);
      const requesterTz = query.tz ?? type.timezone;
      const ttl = await applyContractFilter(ctx.hooks, 'svc_slot_cache_ttl', DEFAULT_SLOT_CACHE_TTL_SECONDS);
      let list: GeneratedSlot[];
      if (ttl > 0) {
        const cache = slotCacheOf(ctx);
        const key = `${type.id}|${fromDay}|${toDay}|${requesterTz}`;
        const epoch = await repo.epochSum(ctx.db, type.hosts);
        const hit = cache.get(key, nowMs);
        if (hit && hit.version === type.version && hit.epoch === epoch) {
          // Time has moved on since the set was made: drop starts now inside the notice period.
          const earliest = toUtcString(nowMs + type.minNoticeMinutes * MINUTE_MS);
          list = hit.slots.filter((s) => s.start_utc >= earliest);
        } else {
          list = await compute(ctx.db, type, { fromDay, toDay, nowMs, requesterTz });
          cache.set(key, { version: type.version, epoch, expiresMs: nowMs + ttl * 1000, slots: list });
        }
      } else {
        list = await compute(ctx.db, type, { fromDay, toDay, nowMs, requesterTz });
      }
      // Plugins get their own copies: a filter that edits a slot must not edit the cache.
      const copies = list.map((s) => ({ ...s, hosts: [...s.hosts] }));
      return applyContractFilter(ctx.hooks, 'svc_booking_slots', copies, type.id, query.from ?? '', query.to ?? '');
    },

    /**
     * The write path's live list for one UTC day (contract: from = to = that day, timezone UTC),
     * never cached, read through `db` (the booking's transaction).
     */
    async liveForDay(db: Db, type: BookingTypeRow, day: string, opts: { nowMs?: number; excludeBookingId?: number } = {}): Promise<Slot[]> {
      const list = await compute(db, type, {
        fromDay: day,
        toDay: day,
        nowMs: opts.nowMs ?? Date.now(),
        requesterTz: 'UTC',
        excludeBookingId: opts.excludeBookingId,
      });
      return writePath.run({ tx: db, excludeBookingId: opts.excludeBookingId }, () =>
        applyContractFilter(ctx.hooks, 'svc_booking_slots', list, type.id, day, day),
      );
    },
  };
}

export type SlotService = ReturnType<typeof slotService>;
