/**
 * Shared resources (docs/api.md#resources): the administrators' list, and the capacity rule the
 * extended edition applies at priority 10 of `svc_booking_slots`.
 *
 * The rule: a resource of capacity N hosts at most N sessions at any moment. A session is one
 * booking, or the bookings of one group session (same type, host and start: they share the
 * room). Every session occupies the resource from its start − its own type's buffer before to its
 * end + its own type's buffer after; a candidate slot needs its own padded span, and at no moment
 * of that span may N sessions already run. A full resource still lets a booking join a group
 * session of this type at that start (the slot keeps only those hosts).
 */
import { AppError } from '../../../shared/errors';
import type { ResourceDto, ResourceInput, ResourcePatch } from '../../../shared/resources';
import { utcMs, toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { Slot } from '../../hooks/types';
import { requireExtended } from '../orders/payments.service';
import { resourcesRepository, type NeededResource, type ResourceBooking, type ResourcesRepository, type ResourceWithTypes } from './resources.repository';

const MINUTE_MS = 60_000;

export function toResourceDto(row: ResourceWithTypes): ResourceDto {
  return {
    id: row.id,
    name: row.name,
    capacity: row.capacity,
    bookingTypeIds: row.bookingTypeIds,
    createdUtc: row.createdUtc,
    updatedUtc: row.updatedUtc,
  };
}

export function resourcesService(ctx: Pick<AppContext, 'db' | 'env'>, repo: ResourcesRepository = resourcesRepository) {
  const { db } = ctx;

  async function get(id: number): Promise<ResourceDto> {
    requireExtended(ctx);
    const row = await repo.find(db, id);
    if (!row) throw new AppError('svc_not_found', 'No such resource.');
    return toResourceDto(row);
  }

  return {
    get,

    async list(opts: { page: number; perPage: number }): Promise<{ items: ResourceDto[]; total: number }> {
      requireExtended(ctx);
      const { items, total } = await repo.list(db, opts);
      return { items: items.map(toResourceDto), total };
    },

    async create(input: ResourceInput): Promise<ResourceDto> {
      requireExtended(ctx);
      const row = await repo.insert(db, { name: input.name, capacity: input.capacity });
      return toResourceDto({ ...row, bookingTypeIds: [] });
    },

    /** A lower capacity keeps the bookings already made; it only limits new ones. */
    async update(id: number, patch: ResourcePatch): Promise<ResourceDto> {
      requireExtended(ctx);
      const changes = Object.values(patch).some((v) => v !== undefined);
      if (changes && !(await repo.update(db, id, patch))) throw new AppError('svc_not_found', 'No such resource.');
      return get(id);
    },

    /**
     * Refused (409 `svc_conflict`, naming the types) while a booking type needs the resource:
     * deleting it would silently drop the limit it puts on those types' bookings. The row is
     * locked first, so a type cannot take it into use between the check and the delete.
     */
    async remove(id: number): Promise<void> {
      requireExtended(ctx);
      await db.transaction(async (tx) => {
        if (!(await repo.lockOne(tx, id))) throw new AppError('svc_not_found', 'No such resource.');
        const users = await repo.typesUsing(tx, id);
        if (users.length > 0) {
          const names = users.map((t) => `“${t.title}”`).join(', ');
          throw new AppError('svc_conflict', `Booking types still need this resource: ${names}. Remove it from them first.`, {
            params: { id: `needed by booking type(s) ${users.map((t) => t.id).join(', ')}` },
            bookingTypes: users,
          });
        }
        await repo.delete(tx, id);
      });
    },
  };
}

export type ResourcesService = ReturnType<typeof resourcesService>;

/**
 * The slots of `list` whose needed resources have room (the rule above), for booking type
 * `typeId`. Two queries whatever the list's length: the type's resources, then every booking
 * that uses one of them over the list's span. On the write path (`lock`) the resource rows are
 * locked in id order before the bookings are read, in the booking's transaction `db`, so two
 * bookings that need one resource are decided one after the other.
 */
export async function keepSlotsWithRoom(
  db: Db,
  list: Slot[],
  typeId: number,
  opts: { lock: boolean; excludeBookingId?: number },
  repo: ResourcesRepository = resourcesRepository,
): Promise<Slot[]> {
  if (list.length === 0) return list;
  const needed = await repo.neededByType(db, typeId, { lock: opts.lock });
  if (needed.length === 0) return list;
  const type = needed[0]!;
  const beforeMs = type.bufferBeforeMinutes * MINUTE_MS;
  const afterMs = type.bufferAfterMinutes * MINUTE_MS;
  const spans = list.map((slot) => candidateSpan(slot, type, beforeMs, afterMs));
  let fromMs = Infinity;
  let toMs = -Infinity;
  for (const span of spans) {
    if (!span) continue;
    fromMs = Math.min(fromMs, span.from);
    toMs = Math.max(toMs, span.to);
  }
  if (fromMs > toMs) return list;
  const bookings = await repo.bookingsUsing(
    db,
    needed.map((r) => r.resourceId),
    toUtcString(fromMs),
    toUtcString(toMs),
    opts.excludeBookingId,
  );
  const usage = needed.map((r) => ({ capacity: r.capacity, sessions: SessionIndex.of(bookings.filter((b) => b.resourceId === r.resourceId)) }));
  // Seats taken per (host, start) in this type's own sessions: each booking is listed once per resource, count it once.
  const own = new Map<string, number>();
  for (const b of bookings) {
    if (b.bookingTypeId !== typeId || b.resourceId !== type.resourceId) continue;
    const key = `${b.hostUserId}|${b.startMs}`;
    own.set(key, (own.get(key) ?? 0) + b.quantity);
  }

  const kept: Slot[] = [];
  list.forEach((slot, i) => {
    const span = spans[i];
    if (!span) return void kept.push(slot);
    const roomLeft = Math.min(...usage.map((u) => u.capacity - u.sessions.peak(span.from, span.to)));
    const hosts: number[] = Array.isArray(slot.hosts) ? slot.hosts : [];
    const joinable = hosts.filter((h) => type.seats - (own.get(`${h}|${span.start}`) ?? Infinity) > 0);
    const joinSeats = joinable.reduce((sum, h) => sum + type.seats - own.get(`${h}|${span.start}`)!, 0);
    if (roomLeft > 0) {
      kept.push({ ...slot, capacity_left: Math.min(slot.capacity_left, joinSeats + roomLeft * type.seats) });
    } else if (joinable.length > 0) {
      kept.push({ ...slot, hosts: joinable, capacity_left: Math.min(slot.capacity_left, joinSeats) });
    }
  });
  return kept;
}

/** A slot's padded span; null for an entry without a readable start (the contract filter drops it later). */
function candidateSpan(slot: Slot, type: NeededResource, beforeMs: number, afterMs: number): { start: number; from: number; to: number } | null {
  if (typeof slot?.start_utc !== 'string') return null;
  const start = utcMs(slot.start_utc);
  if (Number.isNaN(start)) return null;
  const listedEnd = typeof slot.end_utc === 'string' ? utcMs(slot.end_utc) : Number.NaN;
  const end = Number.isNaN(listedEnd) || listedEnd <= start ? start + type.durationMinutes * MINUTE_MS : listedEnd;
  return { start, from: start - beforeMs, to: end + afterMs };
}

/** One resource's sessions, ordered by where their occupation begins. */
class SessionIndex {
  private constructor(
    private readonly from: number[],
    private readonly to: number[],
    private readonly longest: number,
  ) {}

  static of(bookings: ResourceBooking[]): SessionIndex {
    const sessions = new Map<string, { from: number; to: number }>();
    for (const b of bookings) {
      const key = `${b.bookingTypeId}|${b.hostUserId}|${b.startMs}`;
      const from = b.startMs - b.bufferBeforeMs;
      const to = b.endMs + b.bufferAfterMs;
      const known = sessions.get(key);
      sessions.set(key, known ? { from: Math.min(known.from, from), to: Math.max(known.to, to) } : { from, to });
    }
    const sorted = [...sessions.values()].sort((a, b) => a.from - b.from);
    return new SessionIndex(
      sorted.map((s) => s.from),
      sorted.map((s) => s.to),
      sorted.reduce((max, s) => Math.max(max, s.to - s.from), 0),
    );
  }

  /** The most sessions running at one moment of [fromMs, toMs). */
  peak(fromMs: number, toMs: number): number {
    // Sessions beginning before fromMs − longest end before fromMs: skip them by binary search.
    let lo = 0;
    let hi = this.from.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.from[mid]! < fromMs - this.longest) lo = mid + 1;
      else hi = mid;
    }
    const edges: Array<[number, number]> = [];
    for (let i = lo; i < this.from.length && this.from[i]! < toMs; i++) {
      if (this.to[i]! <= fromMs) continue;
      edges.push([Math.max(this.from[i]!, fromMs), 1], [this.to[i]!, -1]);
    }
    if (edges.length <= 2) return edges.length / 2;
    // Half-open spans: an end and a start at the same moment do not overlap, so ends sort first.
    edges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let running = 0;
    let peak = 0;
    for (const [, step] of edges) {
      running += step;
      peak = Math.max(peak, running);
    }
    return peak;
  }
}
