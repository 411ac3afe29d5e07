/**
 * Every read and write of the admin app goes through this module: the typed tRPC client
 * (`client/ui/trpc.ts`, decision 013), each call through `call()` so a failure is the `ApiError`
 * (the server said no) or `NetworkError` (no answer) pages show. The attendee export is the one
 * REST address the admin app still uses, as a download link (`links.ts`).
 *
 * Lists answer a `Listing` that says where the rows came from and as of when. For the events
 * an admin keeps offline (decision 012), the event and attendee lists fall back to the synced
 * Dexie cache when the server cannot be reached (`NetworkError`; `source: 'cache'`, `asOfMs` =
 * the last sync), and attendee edits are queued and reconciled (`saveAttendee`). The offline
 * modules (Dexie, the sync engine) are loaded only once an event is kept offline.
 */
import type { OrganizationInput } from '../../shared/organization-schemas';
import type { inferRouterInputs } from '@trpc/server';
import { ApiError, NetworkError, type ApiErrorData } from '../ui/errors';
import { call, rpc, type AppRouter } from '../ui/trpc';
import type { AttendeeDto, AttendeeSortKey, AttendeeStatus, UpdateAttendeeInput } from '../../shared/attendees';
import type {
  AdminCreateBookingInput,
  BookingDto,
  BookingListQuery,
  BookingTypeInput,
  BookingTypePatch,
  SettingsDto,
  SettingsPatch,
} from '../../shared/booking';
import type {
  Arrivals,
  AttendeeCheckinStats,
  CheckinCounts,
  CheckinDto,
  CheckinListItem,
  CreateDeviceInput,
  DeviceDto,
  DevicePairing,
  SyncEvent,
} from '../../shared/checkin';
import type { EventDto, UpdateEventInput } from '../../shared/events';
import type { OutboxItem } from '../../shared/mail';
import type { OrderDetailDto, OrderDto, OrderStatus, PaymentStatusDto } from '../../shared/payments';
import type { CreateTicketCategoryInput, TicketCategoryDto, UpdateTicketCategoryInput } from '../../shared/tickets';
import type { ApiTokenDto, UserDto } from '../../shared/users';
import type { HostProfileDto, HostProfilePatch } from '../../shared/hosts';
import type { ImageDto } from '../../shared/images';
import type { VoucherDto, VoucherInput, VoucherPatch } from '../../shared/vouchers';
import { forgetKept, keptFor, rememberKept, rememberUser } from './offline-flag';
import type { CachedAttendee, QueuedEdit } from './offline-db';
import type { EditField, FieldValues } from './reconcile';
import { adminUser, type AdminUser } from './session';

export type { ApiTokenDto, BookingDto, SettingsDto, UserDto };
export type { Arrivals, AttendeeCheckinStats, CheckinCounts, CheckinDto, CheckinListItem, DeviceDto, DevicePairing, EventDto, OutboxItem };
export type { OrderDetailDto, OrderDto, PaymentStatusDto };
export type { TicketCategoryDto, VoucherDto };

/** What each operation takes, as the server declares it (for inputs `shared/` has no type of). */
type Inputs = inferRouterInputs<AppRouter>;

export interface Listing<T> {
  items: T[];
  /** All rows matching, not just this page. */
  total: number;
  /** 'cache': the server could not be reached; the rows are the synced cache's. */
  source: 'server' | 'cache';
  /** When the rows were true (epoch ms): now for the server, the last sync for the cache. */
  asOfMs: number;
}

/** The largest page the list operations answer (docs/api.md#rest: perPage max 500). */
export const MAX_PAGE = 500;

/** A page a list operation answered (`{items, total}`), as a listing true now. */
function fromServer<T>(page: { items: T[]; total: number }): Listing<T> {
  return { items: page.items, total: page.total, source: 'server', asOfMs: Date.now() };
}

/** Every page of a list operation, for the small lists (events, users, booking types) the admin shows whole. */
async function allPages<T>(listPage: (page: { page: number; perPage: number }) => Promise<{ items: T[]; total: number }>, cap = 20): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; page <= cap; page++) {
    const chunk = await call(listPage({ page, perPage: MAX_PAGE }));
    items.push(...chunk.items);
    if (items.length >= chunk.total || chunk.items.length < MAX_PAGE) break;
  }
  return items;
}

// ---- events -----------------------------------------------------------------------------

export const listEvents = (): Promise<EventDto[]> => allPages((page) => rpc().events.list.query(page));
export const getEvent = (id: number): Promise<EventDto> => call(rpc().events.get.query({ id }));

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

function cachedEventDto(e: SyncEvent): EventDto {
  return {
    ...e,
    description: '',
    language: null,
    venueAddress: '',
    venueLat: null,
    venueLon: null,
    maxPerSignup: 0,
    signupOpensUtc: null,
    signupClosesUtc: null,
    waitlist: false,
    waitlistPromotion: 'manual',
    status: e.status === 'published' ? 'published' : 'draft',
    priceCents: 0,
    currency: '',
    // the sync does not carry it; this view is read-only (the form reads the event itself)
    reminderMinutes: null,
    placesLeft: null,
    signupState: 'open',
    image: null,
    createdUtc: '',
    updatedUtc: '',
  };
}
export const createEvent = (input: Inputs['events']['create']) => call(rpc().events.create.mutate(input));
export const updateEvent = (id: number, patch: UpdateEventInput) => call(rpc().events.update.mutate({ id, patch }));
/** A draft copy of the event (settings, sign-up questions, ticket categories; no attendees). */
export const duplicateEvent = (id: number) => call(rpc().events.duplicate.mutate({ id }));

// ---- ticket categories and vouchers (docs/api.md#tickets) -------------------------------

/** Every category of an event, hidden ones too, in their display order. */
export const listEventCategories = async (eventId: number): Promise<TicketCategoryDto[]> =>
  (await call(rpc().tickets.listCategories.query({ id: eventId }))).items;
export const createTicketCategory = (eventId: number, category: CreateTicketCategoryInput) =>
  call(rpc().tickets.createCategory.mutate({ id: eventId, category }));
export const updateTicketCategory = (id: number, patch: UpdateTicketCategoryInput) => call(rpc().tickets.updateCategory.mutate({ id, patch }));
export const deleteTicketCategory = (id: number) => call(rpc().tickets.deleteCategory.mutate({ id }));

export const listVouchers = (eventId: number): Promise<VoucherDto[]> => allPages((page) => rpc().vouchers.list.query({ id: eventId, ...page }));
export const createVoucher = (eventId: number, voucher: VoucherInput) => call(rpc().vouchers.create.mutate({ id: eventId, voucher }));
export const updateVoucher = (id: number, patch: VoucherPatch) => call(rpc().vouchers.update.mutate({ id, patch }));
export const deleteVoucher = (id: number) => call(rpc().vouchers.delete.mutate({ id }));

// ---- attendees --------------------------------------------------------------------------

/**
 * An attendee as the admin list shows it: the server's (the extended edition adds
 * `checkinCount` and `lastCheckinUtc`) or the cache's, with the fields a queued offline edit
 * still has to send (`pending`, client only).
 */
export type AdminAttendee = AttendeeDto & { pending?: EditField[] };

/** One page of an event's attendees, as the admin table asks for it. */
export interface AttendeeListParams {
  eventId: number;
  status?: AttendeeStatus | '';
  search?: string;
  sort?: AttendeeSortKey;
  order?: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** The `attendees.list` input; empty filters are left out. */
function attendeeQuery(p: AttendeeListParams): Inputs['attendees']['list'] {
  const search = p.search?.trim();
  return {
    eventId: p.eventId,
    ...(p.status ? { status: p.status } : {}),
    ...(search ? { search } : {}),
    ...(p.sort ? { sort: p.sort } : {}),
    ...(p.order ? { order: p.order } : {}),
    page: p.page,
    perPage: p.perPage,
  };
}

/**
 * A page of an event's attendees. Queued offline edits are laid over the rows (marked
 * `pending`); when the server cannot be reached and the event is kept offline, the page comes
 * from the cache, searched, filtered and sorted locally.
 */
export async function listAttendees(params: AttendeeListParams, signal?: AbortSignal): Promise<Listing<AdminAttendee>> {
  try {
    const res: Listing<AdminAttendee> = fromServer(await call(rpc().attendees.list.query(attendeeQuery(params), { signal })));
    const off = await offlineContext(params.eventId);
    if (off) {
      const edits = await off.store.queuedEdits(off.db, params.eventId);
      if (edits.length > 0) res.items = off.store.overlayEdits(res.items, edits);
    }
    return res;
  } catch (error) {
    if (signal?.aborted) throw error; // the caller moved on: no reason to read the cache
    const off = error instanceof NetworkError ? await offlineContext(params.eventId) : null;
    const asOfMs = off ? await off.store.cacheAsOf(off.db, params.eventId) : null;
    if (!off || asOfMs === null) throw error;
    const { items, total } = await off.store.queryCachedAttendees(off.db, params);
    return { items: items.map(cachedAttendeeDto), total, source: 'cache', asOfMs };
  }
}

function cachedAttendeeDto(a: CachedAttendee): AdminAttendee {
  return { ...a, customFields: null, createdUtc: '', updatedUtc: '' };
}

/** Count, last check-in and conflicts of the given attendees (one request per table page). */
export async function attendeeCheckinStats(eventId: number, attendeeIds: number[], signal?: AbortSignal): Promise<AttendeeCheckinStats[]> {
  if (attendeeIds.length === 0) return [];
  try {
    return await call(rpc().checkin.stats.query({ eventId, attendeeIds: attendeeIds.join(',') }, { signal }));
  } catch (error) {
    if (signal?.aborted) throw error;
    const off = error instanceof NetworkError ? await offlineContext(eventId) : null;
    if (!off) throw error;
    // the cached rows carry count and last check-in; conflicts are the server's to tell
    const rows = await off.db.attendees.bulkGet(attendeeIds);
    return rows.flatMap((r) => (r ? [{ attendeeId: r.id, checkinCount: r.checkinCount, lastCheckinUtc: r.lastCheckinUtc, conflicts: 0 }] : []));
  }
}

export const getAttendee = (id: number): Promise<AttendeeDto> => call(rpc().attendees.get.query({ id }));
/** `attendees.update`: the same actions fire as for any other caller. */
const updateAttendee = (id: number, patch: UpdateAttendeeInput): Promise<AttendeeDto> => call(rpc().attendees.update.mutate({ id, patch }));

/**
 * Saves an attendee edit. When the server cannot be reached and the event is kept offline, the
 * edit is queued with the values the admin saw (`before`) as its base and sent, reconciled,
 * when the server answers again (`queued: true`; the row comes back marked pending).
 */
export async function saveAttendee(before: AdminAttendee, patch: UpdateAttendeeInput): Promise<{ attendee: AdminAttendee; queued: boolean }> {
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
export const deleteAttendee = (id: number) => call(rpc().attendees.delete.mutate({ id }));

// ---- check-in dashboard -----------------------------------------------------------------

/** The overview's figures; `tz` names the days of "today" and "this week". */
export const getOverview = (tz: string) => call(rpc().overview.get.query({ tz }));
export const checkinCounts = (eventId: number) => call(rpc().checkin.counts.query({ eventId }));
export const arrivals = (eventId: number) => call(rpc().checkin.arrivals.query({ eventId }));
export async function listCheckins(eventId: number, opts: { conflicts?: boolean; page?: number; perPage?: number } = {}): Promise<Listing<CheckinListItem>> {
  const conflicts = opts.conflicts === undefined ? {} : { conflicts: opts.conflicts ? ('true' as const) : ('false' as const) };
  return fromServer(await call(rpc().checkin.list.query({ eventId, ...conflicts, page: opts.page ?? 1, perPage: opts.perPage ?? 50 })));
}
export const annulCheckin = (id: number) => call(rpc().checkin.annul.mutate({ id }));

// ---- door devices -----------------------------------------------------------------------

export const listDevices = async (): Promise<DeviceDto[]> => (await call(rpc().devices.list.query())).items;
export const createDevice = (input: CreateDeviceInput) => call(rpc().devices.create.mutate(input));
export const newPairingCode = (id: number) => call(rpc().devices.newPairingCode.mutate({ id }));
export const revokeDevice = (id: number) => call(rpc().devices.revoke.mutate({ id }));
/** The ticket categories of these events (a device check-in list names some of them). */
export const listTicketCategories = (eventIds: number[]) => call(rpc().devices.ticketCategories.query({ eventIds }));
/** Limit a device to some ticket categories (its check-in list), or null for every ticket. */
export const setDeviceCategories = (id: number, categoryIds: number[] | null) => call(rpc().devices.update.mutate({ id, patch: { categoryIds } }));
/** Allow or stop a device registering walk-ins at the door. */
export const setDeviceWalkIns = (id: number, walkIns: boolean) => call(rpc().devices.update.mutate({ id, patch: { walkIns } }));

// ---- booking types, slots, bookings -----------------------------------------------------

/** Every booking type, drafts too (the administrator's view adds the printed currency and location label). */
export const listBookingTypes = () => allPages((page) => rpc().booking.types.query(page));
export const getBookingType = (id: number) => call(rpc().booking.type.query({ id }));
export const createBookingType = (input: BookingTypeInput) => call(rpc().booking.createType.mutate(input));
export const updateBookingType = (id: number, patch: BookingTypePatch) => call(rpc().booking.updateType.mutate({ id, patch }));
export const deleteBookingType = (id: number) => call(rpc().booking.deleteType.mutate({ id }));
/** The slots a visitor sees (drafts answer administrators too). */
export const listSlots = async (id: number, opts: { from?: string; to?: string; tz?: string } = {}) =>
  (await call(rpc().booking.slots.query({ id, ...opts }))).slots;

export type BookingFilter = Pick<BookingListQuery, 'bookingTypeId' | 'status' | 'from' | 'to' | 'tz' | 'q'>;

export const listBookings = async (filter: BookingFilter, page = 1, perPage = 100): Promise<Listing<BookingDto>> =>
  fromServer(await call(rpc().booking.list.query({ ...filter, page, perPage })));
export const approveBooking = (id: number) => call(rpc().booking.approve.mutate({ id }));
export const declineBooking = (id: number) => call(rpc().booking.decline.mutate({ id }));
export const cancelBooking = (id: number) => call(rpc().booking.cancel.mutate({ id, patch: { status: 'cancelled' } }));
/** Confirmed at once: no approval step, no payment hold (contract). */
export const createAdminBooking = (input: AdminCreateBookingInput) => call(rpc().booking.createByAdmin.mutate(input));

// ---- settings, people, tokens, outbox ---------------------------------------------------

/** The first-run checklist (administrators): each step done when its data exists. */
export const getSetup = () => call(rpc().setup.get.query());
export const getSettings = () => call(rpc().settings.get.query());
export const updateSettings = (patch: SettingsPatch) => call(rpc().settings.update.mutate(patch));
export const getOrganization = () => call(rpc().settings.organization.query());
export const putOrganization = (input: OrganizationInput) => call(rpc().settings.putOrganization.mutate(input));

export const listUsers = (): Promise<UserDto[]> => allPages((page) => rpc().auth.users.query(page));
export const createUser = (input: Inputs['auth']['createUser']) => call(rpc().auth.createUser.mutate(input));
export const updateUser = (id: number, patch: Inputs['auth']['updateUser']['patch']) => call(rpc().auth.updateUser.mutate({ id, patch }));
export const deleteUser = (id: number) => call(rpc().auth.deleteUser.mutate({ id }));
/** Creates the user without a password and emails them a one-time link to choose one. */
export const inviteUser = (input: Inputs['auth']['inviteUser']) => call(rpc().auth.inviteUser.mutate(input));
/** Emails a fresh link (invite again, or a password reset); older links stop working. */
export const sendPasswordLink = (id: number) => call(rpc().auth.sendPasswordLink.mutate({ id }));

/** What the public invite page shows (never uses the link up). */
export const previewInvite = (token: string) => call(rpc().auth.invite.query({ token }));
/** Uses the link up and signs in (the server sets the session cookie). */
export const acceptInvite = (token: string, password: string) => call(rpc().auth.acceptInvite.mutate({ token, password }));

export const listTokens = async (): Promise<ApiTokenDto[]> => (await call(rpc().auth.tokens.query())).items;
/** The answer carries the token: the only time it is ever shown. */
export const createToken = (input: Inputs['auth']['createToken']) => call(rpc().auth.createToken.mutate(input));
export const revokeToken = (id: number) => call(rpc().auth.revokeToken.mutate({ id }));

/** Newest first, a page at a time; `to` keeps one recipient's mail (any case). Secrets in the text come masked. */
export const listOutbox = async (page = 1, perPage = 100, to?: string): Promise<Listing<OutboxItem>> =>
  fromServer(await call(rpc().system.outbox.query({ page, perPage, ...(to ? { to } : {}) })));

// ---- payments and orders (extended edition; `status` answers in the free edition too) -----

export const getPaymentStatus = (): Promise<PaymentStatusDto> => call(rpc().payments.status.query());

export interface OrderFilter {
  eventId?: number;
  status?: OrderStatus;
  search?: string;
  ticketCategoryId?: number;
  voucherCode?: string;
}

export const listOrders = async (filter: OrderFilter, page = 1, perPage = 50): Promise<Listing<OrderDto>> =>
  fromServer(await call(rpc().payments.orders.query({ ...filter, page, perPage })));
export const getOrder = (id: number): Promise<OrderDetailDto> => call(rpc().payments.order.query({ id }));
export const refundOrder = (id: number): Promise<OrderDetailDto> => call(rpc().payments.refundOrder.mutate({ id }));

/** Private calendar feeds of bookings (docs/api.md#calendar-feeds): one per host, and the administrator's of every booking. */
export type FeedOwner = { scope: 'all' } | { scope: 'host'; userId: number };
export const getFeed = (owner: FeedOwner) => call(owner.scope === 'all' ? rpc().feeds.allFeed.query() : rpc().feeds.hostFeed.query({ userId: owner.userId }));
export const renewFeed = (owner: FeedOwner) =>
  call(owner.scope === 'all' ? rpc().feeds.renewAllFeed.mutate() : rpc().feeds.renewHostFeed.mutate({ userId: owner.userId }));
export const revokeFeed = (owner: FeedOwner) =>
  call(owner.scope === 'all' ? rpc().feeds.revokeAllFeed.mutate() : rpc().feeds.revokeHostFeed.mutate({ userId: owner.userId }));

// ---- a host's own space (docs/api.md#host-space) ----------------------------------------

/** Administrators: users who host a booking type. */
export const listHosts = () => call(rpc().hostSpace.hosts.query());
export const listHostBookings = async (userId: number, filter: BookingFilter, page = 1, perPage = 100): Promise<Listing<BookingDto>> =>
  fromServer(await call(rpc().hostSpace.hostBookings.query({ userId, ...filter, page, perPage })));
/** Administrators any booking, a host the bookings they host; the visitor is mailed. */
export const moveBooking = (id: number, startUtc: string) => call(rpc().booking.move.mutate({ id, startUtc }));
export const getHostProfile = (userId: number) => call(rpc().hostSpace.hostProfile.query({ userId }));
export const updateHostProfile = (userId: number, patch: HostProfilePatch) => call(rpc().hostSpace.updateHostProfile.mutate({ userId, patch }));
export const removeHostPhoto = (userId: number) => call(rpc().hostSpace.removeHostPhoto.mutate({ userId }));

/** The photo goes as the file's own bytes (REST only: tRPC carries JSON); the server judges the type by the bytes. */
export async function uploadHostPhoto(userId: number, file: Blob): Promise<HostProfileDto> {
  let res: Response;
  try {
    res = await fetch(`/svc/v1/hosts/${userId}/photo`, {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch (err) {
    throw new NetworkError(err);
  }
  const body = (await res.json().catch(() => null)) as (HostProfileDto & { code?: string; message?: string; data?: ApiErrorData }) | null;
  if (!res.ok) throw new ApiError(body?.code ?? 'svc_internal', body?.message ?? res.statusText, res.status, body?.data);
  return body!;
}

// ---- cover images (docs/api.md#images) ---------------------------------------------------

/** Whose image: an event's or a booking type's cover, or the organization's logo (its id is unused). */
export type CoverOwner = 'event' | 'bookingType' | 'logo';
const COVER_PATHS: Record<CoverOwner, (id: number) => string> = {
  event: (id) => `/svc/v1/events/${id}/image`,
  bookingType: (id) => `/svc/v1/booking-types/${id}/image`,
  logo: () => '/svc/v1/settings/organization/logo',
};
const coverPath = (owner: CoverOwner, id: number) => COVER_PATHS[owner](id);

/** The cover goes as the file's own bytes (REST only: tRPC carries JSON); the server judges it by its bytes. */
export async function uploadCoverImage(owner: CoverOwner, id: number, file: Blob): Promise<ImageDto> {
  let res: Response;
  try {
    res = await fetch(coverPath(owner, id), {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch (err) {
    throw new NetworkError(err);
  }
  const body = (await res.json().catch(() => null)) as (ImageDto & { code?: string; message?: string; data?: ApiErrorData }) | null;
  if (!res.ok) throw new ApiError(body?.code ?? 'svc_internal', body?.message ?? res.statusText, res.status, body?.data);
  return body!;
}

export const removeCoverImage = (owner: CoverOwner, id: number) =>
  call(
    owner === 'event'
      ? rpc().images.removeEventImage.mutate({ id })
      : owner === 'bookingType'
        ? rpc().images.removeBookingTypeImage.mutate({ id })
        : rpc().images.removeOrganizationLogo.mutate(),
  );
