/** Fixtures for booking tests: hosts, types, nonces, submissions. */
import { toUtcString, type Weekday } from '../../shared/time';
import type { SlotRules } from '../../shared/booking/slots';
import type { Hooks } from '../../server/hooks';
import { apiClient, type ApiResponse } from './http';

type Api = ReturnType<typeof apiClient>;

export const ALL_DAY = {
  mon: [['00:00', '24:00']],
  tue: [['00:00', '24:00']],
  wed: [['00:00', '24:00']],
  thu: [['00:00', '24:00']],
  fri: [['00:00', '24:00']],
  sat: [['00:00', '24:00']],
  sun: [['00:00', '24:00']],
};

let hostSeq = 0;
export async function createHost(api: Api, name = 'Host'): Promise<number> {
  hostSeq += 1;
  const res = await api.post('/users', {
    email: `host${hostSeq}-${Date.now()}@example.test`,
    displayName: `${name} ${hostSeq}`,
    role: 'host',
    password: 'long enough password',
  });
  if (res.status !== 201) throw new Error(`createHost: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id as number;
}

/** A published type open all day, every day, in UTC (60-minute slots) unless overridden. */
export async function createType(api: Api, overrides: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const res = await api.post('/booking-types', {
    title: 'Consultation',
    status: 'published',
    durationMinutes: 60,
    timezone: 'UTC',
    weeklyWindows: ALL_DAY,
    maxAdvanceDays: 0,
    ...overrides,
  });
  if (res.status !== 201) throw new Error(`createType: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** `Y-m-d H:i:s` UTC, `days` from today at hh:mm. */
export function futureStart(days: number, hour = 10, minute = 0): string {
  const now = new Date();
  return toUtcString(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + days, hour, minute));
}

export async function fetchNonce(url: string): Promise<string> {
  const res = await apiClient(url).get('/nonce');
  return res.body.nonce as string;
}

let emailSeq = 0;
export function uniqueEmail(prefix = 'visitor'): string {
  emailSeq += 1;
  return `${prefix}${emailSeq}-${process.pid}@example.test`;
}

export function bookingBody(typeId: number, startUtc: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { bookingTypeId: typeId, startUtc, customerName: 'Vera Visitor', customerEmail: uniqueEmail(), customerTz: 'Europe/Berlin', ...extra };
}

/** POST /bookings with a fresh nonce. */
export async function submitBooking(url: string, body: Record<string, unknown>, nonce?: string): Promise<ApiResponse<any>> {
  return apiClient(url).post('/bookings', body, { 'x-svc-nonce': nonce ?? (await fetchNonce(url)) });
}

/** Turns the per-IP throttle off (contract: an empty client IP disables it), so tests can book freely. */
export function disableIpThrottle(hooks: Hooks): () => void {
  const off = () => '';
  hooks.addFilter('svc_booking_client_ip', off, 10);
  return () => hooks.removeFilter('svc_booking_client_ip', off, 10);
}

/** Records every call of the given actions in firing order: `[name, ...args]`. */
export function recordActions(hooks: Hooks, names: string[]): Array<[string, ...unknown[]]> {
  const calls: Array<[string, ...unknown[]]> = [];
  for (const name of names) {
    hooks.addAction(name as 'svc_booking_confirmed', (...args: unknown[]) => void calls.push([name, ...args]), 100, 5 as 1);
  }
  return calls;
}

/** The same windows on every day of the week. */
export const EVERY_DAY = (...windows: Array<[string, string]>): Record<Weekday, Array<[string, string]>> => ({
  mon: windows,
  tue: windows,
  wed: windows,
  thu: windows,
  fri: windows,
  sat: windows,
  sun: windows,
});

/** Slot rules for the generator's unit tests: 30-minute slots 09:00–11:00 UTC every day, one host, no buffers. */
export function slotRules(overrides: Partial<SlotRules> = {}): SlotRules {
  return {
    durationMinutes: 30,
    slotIntervalMinutes: 30,
    timezone: 'UTC',
    weeklyWindows: EVERY_DAY(['09:00', '11:00']),
    daysOff: [],
    minNoticeMinutes: 0,
    maxAdvanceDays: 0,
    bufferBeforeMinutes: 0,
    bufferAfterMinutes: 0,
    capacity: 1,
    hosts: [1],
    ...overrides,
  };
}
