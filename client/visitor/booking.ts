/** Booking-page logic that talks to the server: slots for a month, the re-check before submit. */
import type { z } from 'zod';
import type { ZSlotDto } from '../../shared/booking';
import { call, rpc } from '../ui/trpc';
import { monthQueryRange } from './time';

/** A free time as `booking.slots` lists it. */
export type Slot = z.infer<typeof ZSlotDto>;

export const TZ_STORAGE_KEY = 'svc-visitor-tz';

export function slotsCacheKey(typeId: number, tz: string, year: number, month: number): string {
  return `slots:${typeId}:${tz}:${year}-${String(month).padStart(2, '0')}`;
}

export async function fetchSlots(typeId: number, query: { from: string; to: string; tz: string }): Promise<Slot[]> {
  const body = await call(rpc().booking.slots.query({ id: typeId, ...query }));
  return body.slots;
}

export function fetchMonthSlots(typeId: number, tz: string, year: number, month: number): Promise<Slot[]> {
  return fetchSlots(typeId, { ...monthQueryRange(year, month), tz });
}

/** How long a month asked for ahead stays usable (the picker normally takes it within the same second). */
const AHEAD_MS = 10_000;
const ahead = new Map<string, { at: number; slots: Promise<Slot[]> }>();

/**
 * Asks for a month's slots ahead, in the same tick as the booking type itself, so both go in one
 * batched request instead of two round trips one after the other (the picker mounts only once
 * the type is in). The picker takes the answer with `takeAheadSlots`.
 */
export function fetchMonthSlotsAhead(typeId: number, tz: string, year: number, month: number): void {
  const key = slotsCacheKey(typeId, tz, year, month);
  // always a fresh request: an answer left from an earlier visit may no longer be true
  const slots = fetchMonthSlots(typeId, tz, year, month);
  slots.catch(() => undefined); // a failure is the picker's to show, when it takes this answer
  ahead.set(key, { at: Date.now(), slots });
}

/** Forgets every answer asked for ahead (the booking page leaves). */
export function dropAheadSlots(): void {
  ahead.clear();
}

/** The answer asked for ahead under `key` (once), unless it is older than AHEAD_MS. */
export function takeAheadSlots(key: string, now = Date.now()): Promise<Slot[]> | undefined {
  const entry = ahead.get(key);
  ahead.delete(key);
  return entry && now - entry.at <= AHEAD_MS ? entry.slots : undefined;
}

/** Asks the server, uncached, whether `startUtc` is still offered with room for `quantity`. */
export async function slotStillFree(typeId: number, startUtc: string, quantity: number, tz: string): Promise<boolean> {
  const day = startUtc.slice(0, 10);
  const slots = await fetchSlots(typeId, { from: day, to: day, tz });
  return slots.some((s) => s.start_utc === startUtc && s.capacity_left >= quantity);
}

/** The slot errors that mean "pick another time" rather than "something is wrong". */
export function isSlotTaken(code: string | undefined): boolean {
  return code === 'svc_booking_slot_unavailable' || code === 'svc_booking_no_host';
}
