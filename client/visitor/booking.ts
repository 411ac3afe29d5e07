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
