/**
 * Every read and write of the admin app goes through this module (REST `/svc/v1`, SPEC §4).
 *
 * Lists answer a `Listing` that says where the rows came from and as of when. For the events
 * an admin keeps offline (decision 012), the event and attendee lists fall back to the synced
 * Dexie cache when the server cannot be reached (`source: 'cache'`, `asOfMs` = the last sync),
 * and attendee edits are queued and reconciled (`saveAttendee`). The offline modules (Dexie,
 * the tRPC sync client) are loaded only once an event is kept offline.
 */
import { api, apiRequest, NetworkError } from '../api';
import type { AttendeeCore, AttendeeStatus, UpdateAttendeeInput } from '../../shared/attendees';
import type { BookingDto, BookingStatus, BookingTypeDto as SharedBookingTypeDto } from '../../shared/booking';
import type { Slot } from '../../shared/booking/slots';
import type { Arrivals, AttendeeCheckinStats, CheckinCounts, CheckinDto, DeviceDto, DevicePairing } from '../../shared/checkin';
import type { CreateEventInput, EventDto, UpdateEventInput } from '../../shared/events';
import type { OutboxItem } from '../../shared/mail';
import type { ApiTokenDto, UserDto } from '../../shared/users';
import type { AssignmentMode, LocationMode, Role } from './constants';
import { attendeeListPath, queryString, type AttendeeListParams } from './links';
import { forgetKept, keptFor, rememberKept, rememberUser } from './offline-flag';
import type { CachedAttendee, QueuedEdit } from './offline-db';
import type { EditField, FieldValues } from './reconcile';
import { adminUser, type AdminUser } from './session';

export type { ApiTokenDto, BookingDto, UserDto };
export type { Arrivals, AttendeeCheckinStats, CheckinCounts, CheckinDto, DeviceDto, DevicePairing, EventDto, OutboxItem };

export interface Listing<T> {
  items: T[];
  /** X-Total-Count: all rows matching, not just this page. */
  total: number;
  /** 'cache': the server could not be reached; the rows are the synced cache's. */
  source: 'server' | 'cache';
  /** When the rows were true (epoch ms): now for the server, the last sync for the cache. */
  asOfMs: number;
}

/** The largest page the list routes answer (SPEC §4: perPage max 500). */
export const MAX_PAGE = 500;

async function listing<T>(path: string, signal?: AbortSignal): Promise<Listing<T>> {
  const res = await apiRequest<T[]>(path, signal ? { signal } : {});
  const header = Number(res.headers.get('x-total-count'));
  return { items: res.data, total: Number.isFinite(header) && res.headers.has('x-total-count') ? header : res.data.length, source: 'server', asOfMs: Date.now() };
}

/** Every page of a list route, for the small lists (events, users, devices) the admin shows whole. */
async function allPages<T>(path: string, cap = 20): Promise<T[]> {
  const sep = path.includes('?') ? '&' : '?';
  const items: T[] = [];
  for (let page = 1; page <= cap; page++) {
    const chunk = await listing<T>(`${path}${sep}page=${page}&perPage=${MAX_PAGE}`);
    items.push(...chunk.items);
    if (items.length >= chunk.total || chunk.items.length < MAX_PAGE) break;
  }
  return items;
}

// ---- events -----------------------------------------------------------------------------

export const listEvents = (): Promise<EventDto[]> => allPages<EventDto>('/events');
export const getEvent = (id: number) => api<EventDto>(`/events/${id}`);

/** The events list; offline, the events kept offline from the cache. */
export async function listEventsListing(): Promise<Listing<EventDto>> {
  try {
    const items = await listEvents();
    return { items, total: items.length, source: 'server', asOfMs: Date.now() };
  } catch (error) {
    const off = error instanceof NetworkError ? await offlineContext() : null;
    if (!off) throw error;
    const events = await off.store.cachedEvents(off.db);
    const asOf = await Promise.all(events.map((e) => off.store.cacheAsOf(off.db, e.id)));
    const known = asOf.filter((t): t is number => t !== null);
    if (known.length === 0) throw error;
    return { items: events.map(cachedEventDto), total: events.length, source: 'cache', asOfMs: Math.min(...known) };
  }
}

/** One event; offline, a kept event from the cache (the fields the sync carries). */
export async function getEventOrCached(id: number): Promise<EventDto> {
  try {
    return await getEvent(id);
  } catch (error) {
    const off = error instanceof NetworkError ? await offlineContext(id) : null;
    const cached = off ? await off.db.events.get(id) : undefined;
    if (!cached) throw error;
    return cachedEventDto(cached);
  }
}

function cachedEventDto(e: import('../../shared/checkin').SyncEvent): EventDto {
  return {
    ...e,
    description: '',
    maxPerSignup: 0,
    signupOpensUtc: null,
    signupClosesUtc: null,
    waitlist: false,
    status: e.status === 'published' ? 'published' : 'draft',
    priceCents: 0,
    createdUtc: '',
    updatedUtc: '',
  };
}
export const createEvent = (input: Partial<CreateEventInput> & Pick<CreateEventInput, 'title' | 'startsUtc'>) =>
  api<EventDto>('/events', { method: 'POST', body: input });
export const updateEvent = (id: number, patch: UpdateEventInput) => api<EventDto>(`/events/${id}`, { method: 'PATCH', body: patch });
export const deleteEvent = (id: number) => api<undefined>(`/events/${id}`, { method: 'DELETE' });

// ---- attendees --------------------------------------------------------------------------

/** The REST serialization; the extended edition adds `checkinCount` and `lastCheckinUtc`. */
export interface AttendeeDto extends AttendeeCore {
  customFields: Record<string, unknown> | null;
  createdUtc: string;
  updatedUtc: string;
  checkinCount?: number;
  lastCheckinUtc?: string | null;
  /** Client only: fields with an offline edit still waiting for the server. */
  pending?: EditField[];
}

/**
 * A page of an event's attendees. Queued offline edits are laid over the rows (marked
 * `pending`); when the server cannot be reached and the event is kept offline, the page comes
 * from the cache, searched, filtered and sorted locally.
 */
export async function listAttendees(params: AttendeeListParams, signal?: AbortSignal): Promise<Listing<AttendeeDto>> {
  try {
    const res = await listing<AttendeeDto>(attendeeListPath(params), signal);
    const off = await offlineContext(params.eventId);
    if (off) {
      const edits = await off.store.queuedEdits(off.db, params.eventId);
      if (edits.length > 0) res.items = off.store.overlayEdits(res.items, edits);
    }
    return res;
  } catch (error) {
    const off = error instanceof NetworkError ? await offlineContext(params.eventId) : null;
    const asOfMs = off ? await off.store.cacheAsOf(off.db, params.eventId) : null;
    if (!off || asOfMs === null) throw error;
    const { items, total } = await off.store.queryCachedAttendees(off.db, params);
    return { items: items.map(cachedAttendeeDto), total, source: 'cache', asOfMs };
  }
}

function cachedAttendeeDto(a: CachedAttendee): AttendeeDto {
  return { ...a, customFields: null, createdUtc: '', updatedUtc: '' };
}

/** Count, last check-in and conflicts of the given attendees (one request per table page). */
export async function attendeeCheckinStats(eventId: number, attendeeIds: number[], signal?: AbortSignal): Promise<AttendeeCheckinStats[]> {
  if (attendeeIds.length === 0) return [];
  try {
    return await api<AttendeeCheckinStats[]>(`/checkins/stats${queryString({ eventId, attendeeIds: attendeeIds.join(',') })}`, signal ? { signal } : {});
  } catch (error) {
    const off = error instanceof NetworkError ? await offlineContext(eventId) : null;
    if (!off) throw error;
    // the cached rows carry count and last check-in; conflicts are the server's to tell
    const rows = await off.db.attendees.bulkGet(attendeeIds);
    return rows.flatMap((r) => (r ? [{ attendeeId: r.id, checkinCount: r.checkinCount, lastCheckinUtc: r.lastCheckinUtc, conflicts: 0 }] : []));
  }
}

export const getAttendee = (id: number) => api<AttendeeDto>(`/attendees/${id}`);
/** The seed's PATCH: the same actions fire as for any other caller. */
export const updateAttendee = (id: number, patch: UpdateAttendeeInput) => api<AttendeeDto>(`/attendees/${id}`, { method: 'PATCH', body: patch });

/**
 * Saves an attendee edit. When the server cannot be reached and the event is kept offline, the
 * edit is queued with the values the admin saw (`before`) as its base and sent, reconciled,
 * when the server answers again (`queued: true`; the row comes back marked pending).
 */
export async function saveAttendee(before: AttendeeDto, patch: UpdateAttendeeInput): Promise<{ attendee: AttendeeDto; queued: boolean }> {
  try {
    return { attendee: await updateAttendee(before.id, patch), queued: false };
  } catch (error) {
    const off = error instanceof NetworkError ? await offlineContext(before.eventId) : null;
    if (!off) throw error;
    const changes = patch as FieldValues;
    const base: FieldValues = {};
    for (const field of Object.keys(changes) as EditField[]) (base as Record<string, unknown>)[field] = before[field];
    await off.store.queueEdit(off.db, { attendeeId: before.id, eventId: before.eventId, label: before.displayName, changes, base });
    off.runtime.notifyOfflineChange();
    const [row] = off.store.overlayEdits([before], await off.store.queuedEdits(off.db, before.eventId));
    return { attendee: row!, queued: true };
  }
}

// ---- offline (decision 012) -----------------------------------------------------------------

const offlineListeners = new Set<() => void>();
let offlineHooked = false;

/** The offline store and runtime when the signed-in admin keeps `eventId` (or any event) offline. */
async function offlineContext(eventId?: number) {
  const user = await adminUser().catch(() => null);
  if (!user) return null;
  const kept = keptFor(user.id);
  if (kept.length === 0 || (eventId !== undefined && !kept.includes(eventId))) return null;
  return loadOffline(user);
}

const editTransport = {
  get: (id: number) => getAttendee(id),
  patch: (id: number, patch: FieldValues) => updateAttendee(id, patch as UpdateAttendeeInput),
};

async function loadOffline(user: AdminUser) {
  const [runtime, store] = await Promise.all([import('./offline'), import('./offline-db')]);
  if (!offlineHooked) {
    offlineHooked = true;
    runtime.subscribeOffline(() => {
      for (const fn of offlineListeners) fn();
    });
  }
  const { db } = runtime.offlineRuntime(user, editTransport);
  return { runtime, store, db, user };
}

/** Starts syncing and sending queued edits if this admin keeps any event offline (every admin page). */
export async function startOffline(user: AdminUser): Promise<void> {
  if (keptFor(user.id).length > 0) await loadOffline(user);
}

export const isKeptOffline = (user: AdminUser, eventId: number): boolean => keptFor(user.id).includes(eventId);

/** Keeps an event's lists in this browser (or stops), then syncs. */
export async function setKeepOffline(user: AdminUser, eventId: number, keep: boolean): Promise<void> {
  const kept = keptFor(user.id).filter((id) => id !== eventId);
  if (keep) kept.push(eventId);
  if (kept.length > 0) rememberKept(user.id, kept);
  else forgetKept(user.id);
  rememberUser(user);
  const off = await loadOffline(user);
  await off.runtime.keepOffline(user, editTransport, eventId, keep);
}

/** Something offline changed: a sync, an edit queued, sent or reconciled. */
export function onOfflineChange(fn: () => void): () => void {
  offlineListeners.add(fn);
  return () => offlineListeners.delete(fn);
}

export interface OfflineEditsView {
  /** Edits waiting for the server. */
  pending: QueuedEdit[];
  /** Reconciled edits the admin must be told about (a field the server kept, or a refusal). */
  attention: QueuedEdit[];
  /** Last sync of this event's cache (null: not downloaded yet). */
  asOfMs: number | null;
}

export async function offlineEdits(eventId: number): Promise<OfflineEditsView | null> {
  const off = await offlineContext();
  if (!off) return null;
  const [pending, attention, asOfMs] = await Promise.all([
    off.store.queuedEdits(off.db, eventId),
    off.store.attentionEdits(off.db, eventId),
    off.store.cacheAsOf(off.db, eventId),
  ]);
  return { pending, attention, asOfMs };
}

export async function dismissAttention(clientId: string): Promise<void> {
  const off = await offlineContext();
  if (!off) return;
  await off.store.dismissEdit(off.db, clientId);
  off.runtime.notifyOfflineChange();
}
export const deleteAttendee = (id: number) => api<undefined>(`/attendees/${id}`, { method: 'DELETE' });
export type { AttendeeStatus };

// ---- check-in dashboard -----------------------------------------------------------------

export const checkinCounts = (eventId: number) => api<CheckinCounts>(`/checkins/counts?eventId=${eventId}`);
export const arrivals = (eventId: number) => api<Arrivals>(`/checkins/arrivals?eventId=${eventId}`);
export const listCheckins = (eventId: number, opts: { conflicts?: boolean; page?: number; perPage?: number } = {}) =>
  listing<CheckinDto>(`/checkins${queryString({ eventId, conflicts: opts.conflicts, page: opts.page ?? 1, perPage: opts.perPage ?? 50 })}`);
export const annulCheckin = (id: number) => api<CheckinDto>(`/checkins/${id}/annul`, { method: 'POST' });

// ---- door devices -----------------------------------------------------------------------

export const listDevices = () => api<DeviceDto[]>('/devices');
export const createDevice = (input: { name: string; eventIds: number[] }) =>
  api<DeviceDto & { pairing: DevicePairing }>('/devices', { method: 'POST', body: input });
export const newPairingCode = (id: number) => api<DevicePairing>(`/devices/${id}/pairing-code`, { method: 'POST' });
export const revokeDevice = (id: number) => api<undefined>(`/devices/${id}`, { method: 'DELETE' });

// ---- booking types, slots, bookings -----------------------------------------------------

/** A booking type as the admin reads it (the public view adds the printed currency and location label). */
export type BookingTypeDto = SharedBookingTypeDto & { currency?: string; locationLabel?: string };

export type BookingTypeInput = Omit<BookingTypeDto, 'id' | 'currency' | 'locationLabel' | 'slotIntervalMinutes' | 'slug' | 'createdUtc' | 'updatedUtc'> & {
  slotIntervalMinutes: number | null;
  slug?: string;
};

/** A slot as the public route shows it to a visitor. */
export type SlotDto = Slot;

export const listBookingTypes = () => allPages<BookingTypeDto>('/booking-types');
export const getBookingType = (id: number) => api<BookingTypeDto>(`/booking-types/${id}`);
export const createBookingType = (input: BookingTypeInput) => api<BookingTypeDto>('/booking-types', { method: 'POST', body: input });
export const updateBookingType = (id: number, patch: Partial<BookingTypeInput>) => api<BookingTypeDto>(`/booking-types/${id}`, { method: 'PATCH', body: patch });
export const deleteBookingType = (id: number) => api<undefined>(`/booking-types/${id}`, { method: 'DELETE' });
/** The public slots route (drafts answer administrators too). */
export const listSlots = (id: number, opts: { from?: string; to?: string; tz?: string } = {}) =>
  api<{ slots: SlotDto[] }>(`/booking-types/${id}/slots${queryString(opts)}`).then((r) => r.slots);


export interface BookingFilter {
  bookingTypeId?: number;
  status?: BookingStatus;
  from?: string;
  to?: string;
}

export const listBookings = (filter: BookingFilter, page = 1, perPage = 100) =>
  listing<BookingDto>(`/bookings${queryString({ ...filter, page, perPage })}`);
export const approveBooking = (id: number) => api<BookingDto>(`/bookings/${id}/approve`, { method: 'POST' });
export const declineBooking = (id: number) => api<BookingDto>(`/bookings/${id}/decline`, { method: 'POST' });
export const cancelBooking = (id: number) => api<BookingDto>(`/bookings/${id}`, { method: 'PATCH', body: { status: 'cancelled' } });

export interface AdminBookingInput {
  bookingTypeId: number;
  startUtc: string;
  quantity: number;
  customerName: string;
  customerEmail: string;
  customerTz: string;
  hostUserId?: number;
}
/** Confirmed at once: no approval step, no payment hold (contract). */
export const createAdminBooking = (input: AdminBookingInput) =>
  api<{ bookingId: number; status: BookingStatus; startUtc: string; endUtc: string; hostUserId: number }>('/bookings/admin', { method: 'POST', body: input });

// ---- settings, people, tokens, outbox ---------------------------------------------------

export interface SettingsDto {
  currency: string;
  locationLabels: Record<string, string>;
  paymentHoldHours: number;
}
export const getSettings = () => api<SettingsDto>('/settings');
export const updateSettings = (patch: Partial<SettingsDto>) => api<SettingsDto>('/settings', { method: 'PATCH', body: patch });

export interface UserInput {
  email: string;
  displayName: string;
  role: Role;
  timezone?: string;
  password?: string;
  eventIds?: number[] | null;
}
export const listUsers = () => allPages<UserDto>('/users');
export const createUser = (input: UserInput) => api<UserDto>('/users', { method: 'POST', body: input });
export const updateUser = (id: number, patch: Partial<UserInput>) => api<UserDto>(`/users/${id}`, { method: 'PATCH', body: patch });
export const deleteUser = (id: number) => api<undefined>(`/users/${id}`, { method: 'DELETE' });
/** Creates the user without a password and emails them a one-time link to choose one. */
export const inviteUser = (input: Omit<UserInput, 'password'>) => api<UserDto>('/users/invite', { method: 'POST', body: input });
/** Emails a fresh link (invite again, or a password reset); older links stop working. */
export const sendPasswordLink = (id: number) => api<UserDto>(`/users/${id}/invite`, { method: 'POST' });

/** What the public invite page shows (GET never uses the link up). */
export interface InvitePreview {
  email: string;
  displayName: string;
  role: Role;
  hasPassword: boolean;
  expiresUtc: string;
}
export const previewInvite = (token: string) => api<InvitePreview>(`/auth/invites/${encodeURIComponent(token)}`);
/** Uses the link up and signs in (the server sets the session cookie). */
export const acceptInvite = (token: string, password: string) =>
  api<UserDto>(`/auth/invites/${encodeURIComponent(token)}`, { method: 'POST', body: { password } });

export const listTokens = () => api<ApiTokenDto[]>('/auth/tokens');
/** The answer carries the token: the only time it is ever shown. */
export const createToken = (input: { name: string; role: Role; expiresInDays?: number }) =>
  api<{ id: number; name: string; token: string }>('/auth/tokens', { method: 'POST', body: input });
export const revokeToken = (id: number) => api<undefined>(`/auth/tokens/${id}`, { method: 'DELETE' });

export const listOutbox = (page = 1) => listing<OutboxItem>(`/outbox${queryString({ page, perPage: 100 })}`);
