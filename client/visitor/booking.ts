/** Booking-page logic that talks to the server: slots for a month, the re-check before submit. */
import { api } from '../api';
import type { Slot } from './types';
import { monthQueryRange } from './time';

export const TZ_STORAGE_KEY = 'svc-visitor-tz';

export function slotsCacheKey(typeId: number, tz: string, year: number, month: number): string {
  return `slots:${typeId}:${tz}:${year}-${String(month).padStart(2, '0')}`;
}

export async function fetchSlots(typeId: number, query: { from: string; to: string; tz: string }): Promise<Slot[]> {
  const params = new URLSearchParams(query);
  const body = await api<{ slots: Slot[] }>(`/booking-types/${typeId}/slots?${params.toString()}`);
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
