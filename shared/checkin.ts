/**
 * Check-in and sync schemas shared by the server (REST + tRPC) and the door PWA, and the
 * ONE verdict rule: the device runs `checkinVerdict` offline on its local list, the server
 * runs it online on the database, so both answer alike.
 */
import { z } from 'zod';
import { ZPositiveId, ZQueryId, ZUtcDateTime } from './schemas';
import { ZPublicBookingTypeDto, ZSlotDto } from './booking';
import { MAX_EMAIL_LENGTH, MAX_NAME_LENGTH, MAX_QUANTITY } from './attendees';

import { CHECKIN_SOURCES, CONFLICTS, MAX_PUSH_BATCH, VERDICTS } from './checkin-rules';
export * from './checkin-rules';

export const ZVerdict = z.enum(VERDICTS);
export const ZConflict = z.enum(CONFLICTS);
export const ZCheckinSource = z.enum(CHECKIN_SOURCES);

/** SHA-256 hex of a ticket code, as the device stores and sends it (docs/api.md#sync). */
export const ZCodeHash = z
  .string()
  .regex(/^[0-9a-fA-F]{64}$/, 'must be a SHA-256 hex digest')
  .transform((v) => v.toLowerCase());

export const ZClientId = z.uuid({ message: 'must be a UUID' }).transform((v) => v.toLowerCase());

/** One queued scan of the device. `attendeeId` (from the device's list) lets the server tell a deleted attendee from an unknown code. */
export const ZPushItem = z
  .object({
    /** Absent on scans from before walk-ins existed. */
    kind: z.literal('scan').optional(),
    clientId: ZClientId,
    codeHash: ZCodeHash.optional(),
    attendeeId: ZPositiveId.optional(),
    eventId: ZPositiveId,
    scannedUtc: ZUtcDateTime,
    verdictOnDevice: ZVerdict,
    source: ZCheckinSource.exclude(['rest', 'walk_in']).default('scan'),
  })
  .refine((item) => item.codeHash !== undefined || item.attendeeId !== undefined, { message: 'needs codeHash or attendeeId', path: ['codeHash'] });
export type PushItem = z.infer<typeof ZPushItem>;

/**
 * A walk-in registered at the door (docs/api.md#sync): the attendee and their check-in, made on
 * the device with one client id each. `clientId` is the check-in's (the item's key, as for a scan),
 * `attendeeClientId` the attendee's; both make a re-push answer the same result and create nothing.
 * An empty email is stored as '' and no ticket is mailed.
 */
export const ZWalkInPushItem = z.object({
  kind: z.literal('walk_in'),
  clientId: ZClientId,
  attendeeClientId: ZClientId,
  eventId: ZPositiveId,
  scannedUtc: ZUtcDateTime,
  displayName: z.string().trim().min(1, 'must not be empty').max(MAX_NAME_LENGTH),
  email: z
    .string()
    .trim()
    .max(MAX_EMAIL_LENGTH)
    .pipe(z.union([z.literal(''), z.email({ message: 'must be a valid email address or empty' })]))
    .default(''),
  quantity: z.number().int().min(1).max(MAX_QUANTITY),
});
export type WalkInPushItem = z.infer<typeof ZWalkInPushItem>;

/** Anything a door queues for sync.push: a scan (with or without `kind`) or a walk-in. */
export const ZPushInputItem = z.discriminatedUnion('kind', [ZPushItem, ZWalkInPushItem]);
export type PushInputItem = z.infer<typeof ZPushInputItem>;

export const ZPushInput = z.object({
  items: z.array(ZPushInputItem).min(1).max(MAX_PUSH_BATCH),
  /** How many scans the device still holds unsynced after this batch (shown to administrators). */
  pending: z.number().int().min(0).max(10_000_000).optional(),
});
export type PushInput = z.infer<typeof ZPushInput>;

/**
 * Per item: `inserted`/`duplicate` (drop from the queue), `rejected` (logged as a failed
 * scan; drop from the queue), `failed` (not stored: keep it queued and send it again).
 */
/** A walk-in's attendee as the server stored it: the door replaces its local attendee with this one. */
export const ZWalkInAttendee = z.object({ attendeeId: z.number().int(), codeHash: z.string() });
export type WalkInAttendee = z.infer<typeof ZWalkInAttendee>;

export const ZPushItemResult = z.discriminatedUnion('status', [
  z.object({
    clientId: z.string(),
    status: z.literal('inserted'),
    checkinId: z.number().int(),
    conflict: ZConflict.nullable(),
    walkIn: ZWalkInAttendee.optional(),
  }),
  z.object({ clientId: z.string(), status: z.literal('duplicate'), checkinId: z.number().int(), walkIn: ZWalkInAttendee.optional() }),
  z.object({
    clientId: z.string(),
    status: z.literal('rejected'),
    /** `walk_ins_not_allowed`: a walk-in from a device the administrator has not allowed to register them (nothing stored). */
    reason: z.union([ZVerdict.exclude(['ok', 'again']), z.literal('forbidden'), z.literal('walk_ins_not_allowed')]),
  }),
  z.object({ clientId: z.string(), status: z.literal('failed') }),
]);
export type PushItemResult = z.infer<typeof ZPushItemResult>;

/** sync.push: one result per pushed item, in the order sent. */
export const ZPushResult = z.object({ results: z.array(ZPushItemResult) });
export type PushResult = z.infer<typeof ZPushResult>;

/** POST /svc/v1/checkins (docs/api.md#rest). */
export const ZCheckinInput = z
  .object({
    ticketCode: z.string().trim().min(1).max(200).optional(),
    attendeeId: ZPositiveId.optional(),
    eventId: ZPositiveId,
    clientId: ZClientId.optional(),
    scannedUtc: ZUtcDateTime.optional(),
  })
  .refine((v) => v.ticketCode !== undefined || v.attendeeId !== undefined, { message: 'needs ticketCode or attendeeId', path: ['ticketCode'] });
export type CheckinInput = z.infer<typeof ZCheckinInput>;

export const ZPreviousCheckin = z.object({
  checkinId: z.number().int(),
  scannedUtc: z.string(),
  deviceId: z.number().int().nullable(),
  /** The device's name, or the signed-in user's name for a check-in without a device. */
  deviceName: z.string().nullable(),
});
export type PreviousCheckin = z.infer<typeof ZPreviousCheckin>;

export const ZCheckinResult = z.object({
  checkinId: z.number().int(),
  attendeeId: z.number().int(),
  eventId: z.number().int(),
  verdict: z.enum(['ok', 'again']),
  displayName: z.string(),
  quantity: z.number().int(),
  /** For `again`: the last check-in before this one. */
  previous: ZPreviousCheckin.nullable(),
  /** True when the clientId was seen before and this is the original check-in. */
  duplicate: z.boolean(),
});
export type CheckinResult = z.infer<typeof ZCheckinResult>;

export const ZCheckinCounts = z.object({
  eventId: z.number().int(),
  /** Attendee rows going (or with the old empty status). */
  attendeesGoing: z.number().int(),
  /** Seats of those rows. */
  seatsGoing: z.number().int(),
  /** Going attendees (the same set as attendeesGoing) with at least one check-in not annulled. */
  checkedIn: z.number().int(),
  /** Seats of those checked-in attendees: the dashboard's "seats checked in" (of seatsGoing). */
  seatsCheckedIn: z.number().int(),
  /** Seats on the waitlist. */
  seatsWaitlisted: z.number().int(),
  /** Capacity minus seats taken (going and unpaid orders), as the public event shows it; null when unlimited. */
  placesLeft: z.number().int().nullable(),
  /** Check-in rows not annulled (re-scans included). */
  scans: z.number().int(),
  /** Check-in rows not annulled with a conflict to review. */
  conflicts: z.number().int(),
  annulled: z.number().int(),
  /** Refused scans in the scan log. */
  rejectedScans: z.number().int(),
  /**
   * The same going and checked-in figures per ticket category, in the categories' order; a row with
   * `categoryId` null holds the attendees without a category. Empty for an event without categories
   * and attendees of none.
   */
  categories: z.array(
    z.object({
      categoryId: z.number().int().nullable(),
      name: z.string().nullable(),
      attendeesGoing: z.number().int(),
      seatsGoing: z.number().int(),
      checkedIn: z.number().int(),
      seatsCheckedIn: z.number().int(),
      /** Seats the category may hold; null when only the event's capacity limits it (and for the row without a category). */
      quota: z.number().int().nullable(),
      /** Seats counted against the quota: going tickets and seats held by unpaid orders (the row without a category: its going seats). */
      soldCount: z.number().int(),
      /** Cents paid online for the category's tickets: each paid order's amount split over its lines (docs/decisions/032-category-sales.md); null unless the caller is an administrator. */
      revenueCents: z.number().int().nullable(),
      /** Cents going tickets without an online payment owe at the door, at the category's price after the sign-up's voucher; null unless the caller is an administrator. */
      atDoorCents: z.number().int().nullable(),
    }),
  ),
  /** The currency of the money figures (the settings' currency). */
  currency: z.string(),
});
export type CheckinCounts = z.infer<typeof ZCheckinCounts>;

export const ZCheckinDto = z.object({
  id: z.number().int(),
  attendeeId: z.number().int(),
  eventId: z.number().int(),
  scannedUtc: z.string(),
  createdUtc: z.string(),
  deviceId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  clientId: z.string(),
  source: z.string(),
  conflict: z.string().nullable(),
  annulledUtc: z.string().nullable(),
  annulledBy: z.number().int().nullable(),
});
export type CheckinDto = z.infer<typeof ZCheckinDto>;

/** A row of the check-in list: `repeat` marks a re-entry (an earlier check-in of the attendee stands). */
export const ZCheckinListItem = ZCheckinDto.extend({ repeat: z.boolean() });
export type CheckinListItem = z.infer<typeof ZCheckinListItem>;

export const ZCheckinListQuery = z.object({
  eventId: ZQueryId,
  attendeeId: ZQueryId.optional(),
  conflicts: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  perPage: z.coerce.number().int().min(1).max(500).default(50),
});
export type CheckinListQuery = z.infer<typeof ZCheckinListQuery>;

/** Most attendees one stats request may name: one admin list page. */
export const MAX_STATS_ATTENDEES = 500;

/** GET /checkins/stats: check-in figures of some attendees of one event (the admin table's visible page). */
export const ZCheckinStatsQuery = z.object({
  eventId: ZQueryId,
  /** Comma-separated attendee ids. */
  attendeeIds: z
    .string()
    .max(MAX_STATS_ATTENDEES * 11)
    .regex(/^\d{1,10}(,\d{1,10})*$/, 'must be comma-separated attendee ids')
    .transform((v) => [...new Set(v.split(',').map(Number))])
    // ten digits pass the pattern but not PostgreSQL's integer (a 500 before this check)
    .refine((ids) => ids.every((id) => id <= 2_147_483_647), 'must be comma-separated attendee ids')
    .refine((ids) => ids.length <= MAX_STATS_ATTENDEES, `must name at most ${MAX_STATS_ATTENDEES} attendees`),
});
export type CheckinStatsQuery = z.infer<typeof ZCheckinStatsQuery>;

export const ZAttendeeCheckinStats = z.object({
  attendeeId: z.number().int(),
  /** Check-ins not annulled. */
  checkinCount: z.number().int(),
  lastCheckinUtc: z.string().nullable(),
  /** Check-ins not annulled with a conflict to review. */
  conflicts: z.number().int(),
});
export type AttendeeCheckinStats = z.infer<typeof ZAttendeeCheckinStats>;

/** Width of one bar of the arrivals chart. */
export const ARRIVAL_BUCKET_MINUTES = 5;
/** Buckets one arrivals answer holds at most: 24 hours of 5-minute bars. */
export const MAX_ARRIVAL_BUCKETS = 288;

export const ZArrivalsQuery = z.object({ eventId: ZQueryId });

/** GET /checkins/arrivals: check-ins not annulled per 5 minutes of scan time, the latest 24 h that have any. */
export const ZArrivals = z.object({
  eventId: z.number().int(),
  bucketMinutes: z.number().int(),
  /** Only buckets with scans, oldest first; `startUtc` is the bucket's start (UTC, aligned to 5 minutes). */
  buckets: z.array(z.object({ startUtc: z.string(), scans: z.number().int() })),
});
export type Arrivals = z.infer<typeof ZArrivals>;

// ---- sync.pull / sync.download ----------------------------------------------------------

const MAX_XID8 = BigInt('18446744073709551615');
/** An opaque position in the change log: `<txid>:<id>` (see docs/decisions/009-checkin-sync.md). */
export const ZSyncCursor = z
  .string()
  .regex(/^\d{1,20}:\d{1,20}$/, 'must be a sync cursor')
  // within the columns' ranges (xid8, and an id the server reads as a safe integer): past them the
  // change-log query failed, a 500
  .refine((v) => {
    const [txid, id] = v.split(':') as [string, string];
    return BigInt(txid) <= MAX_XID8 && BigInt(id) <= BigInt(Number.MAX_SAFE_INTEGER);
  }, 'must be a sync cursor');

/** Column order of an attendee tuple in pull and download answers (no per-row keys). */
export const ATTENDEE_TUPLE_COLUMNS = [
  'id',
  'eventId',
  'displayName',
  'email',
  'status',
  'quantity',
  'codeHash',
  'checkinCount',
  'lastCheckinUtc',
  'lastCheckinDevice',
  'conflict',
  'categoryId',
] as const;
/** An attendee in pull and download answers, in ATTENDEE_TUPLE_COLUMNS order. */
export const ZAttendeeTuple = z.tuple([
  /* id */ z.number().int(),
  /* eventId */ z.number().int(),
  /* displayName */ z.string(),
  /* email */ z.string(),
  /* status */ z.string(),
  /* quantity */ z.number().int(),
  /* codeHash */ z.string(),
  /* checkinCount */ z.number().int(),
  /* lastCheckinUtc */ z.string().nullable(),
  /* lastCheckinDevice */ z.string().nullable(),
  /** `again_elsewhere` when two doors admitted this attendee while apart (docs/api.md#sync); null otherwise. */
  /* conflict */ z.literal('again_elsewhere').nullable().optional(),
  /** The ticket category; null = the event's implicit single category (absent from a server before categories). */
  /* categoryId */ z.number().int().nullable().optional(),
]);
export type AttendeeTuple = z.infer<typeof ZAttendeeTuple>;

export const ZSyncEvent = z.object({
  id: z.number().int(),
  title: z.string(),
  startsUtc: z.string(),
  endsUtc: z.string().nullable(),
  timezone: z.string(),
  venue: z.string(),
  status: z.string(),
  capacity: z.number().int().nullable(),
});
export type SyncEvent = z.infer<typeof ZSyncEvent>;

/** A ticket category as the door names it on a verdict and counts it (docs/decisions/029-check-in-lists.md). */
export const ZSyncCategory = z.object({ id: z.number().int(), eventId: z.number().int(), name: z.string(), position: z.number().int() });
export type SyncCategory = z.infer<typeof ZSyncCategory>;

export const MAX_PULL_CHANGES = 5000;
export const ZPullInput = z.object({
  cursor: ZSyncCursor,
  /** Events to follow; each must be allowed to the caller. */
  eventIds: z.array(ZPositiveId).min(1).max(50),
  limit: z.number().int().min(1).max(MAX_PULL_CHANGES).default(2000),
  pending: z.number().int().min(0).max(10_000_000).optional(),
  /** Also answer every published booking type: a small snapshot each time, not a delta. */
  bookingTypes: z.boolean().default(false),
  /** Also answer the live slots of these booking types for offline booking pages (a snapshot). */
  slotTypeIds: z.array(ZPositiveId).max(20).default([]),
  /** UTC days of slots from today, inclusive. */
  slotDays: z.number().int().min(1).max(60).default(14),
  /** The zone slot labels are written in (default: each type's own). */
  slotTz: z.string().max(64).optional(),
});
export type PullInput = z.input<typeof ZPullInput>;
export type ParsedPullInput = z.output<typeof ZPullInput>;

/** Slots of one booking type as computed at `asOfUtc` (offline pages show their age). */
export const ZSlotSnapshot = z.object({
  bookingTypeId: z.number().int(),
  asOfUtc: z.string(),
  slots: z.array(ZSlotDto),
});
export type SlotSnapshot = z.infer<typeof ZSlotSnapshot>;

/** sync.pull: `{reset: true}` for a cursor from before the pruned history (download again), else one page of deltas. */
export const ZPullResult = z.discriminatedUnion('reset', [
  z.object({ reset: z.literal(true) }),
  z.object({
    reset: z.literal(false),
    cursor: z.string(),
    hasMore: z.boolean(),
    events: z.array(ZSyncEvent),
    attendees: z.array(ZAttendeeTuple),
    tombstones: z.object({ events: z.array(z.number().int()), attendees: z.array(z.number().int()) }),
    /** Present when asked for (`bookingTypes: true`): every published type. */
    bookingTypes: z.array(ZPublicBookingTypeDto).optional(),
    /** Present when asked for (`slotTypeIds`); a type that is not published has none. */
    slots: z.array(ZSlotSnapshot).optional(),
    /** Every ticket category of the followed events (a small snapshot each time, not a delta). */
    categories: z.array(ZSyncCategory).optional(),
    /** The calling device's check-in list: the categories it admits; null = every ticket (and for a session). */
    checkinList: z.array(z.number().int()).nullable().optional(),
  }),
]);
export type PullResult = z.infer<typeof ZPullResult>;

export const MAX_DOWNLOAD_PAGE = 20_000;
export const ZDownloadInput = z.object({
  eventId: ZPositiveId,
  /** Attendee id the previous page ended with (0 for the first page). */
  afterId: z.number().int().min(0).max(2_147_483_647).default(0),
  limit: z.number().int().min(1).max(MAX_DOWNLOAD_PAGE).default(10_000),
});
export type DownloadInput = z.infer<typeof ZDownloadInput>;

export const ZDownloadResult = z.object({
  /** Only on the first page: the pull cursor taken BEFORE the first page was read. */
  cursor: z.string().nullable(),
  /** Only on the first page: the event's attendees when it was read (the door shows "N of total" while it downloads). */
  total: z.number().int().optional(),
  event: ZSyncEvent,
  attendees: z.array(ZAttendeeTuple),
  nextAfterId: z.number().int(),
  hasMore: z.boolean(),
});
export type DownloadResult = z.infer<typeof ZDownloadResult>;

/**
 * sync.lookup: one attendee by the SHA-256 of a ticket code, as download and pull carry it. The
 * door asks while its list is still downloading, so a ticket not on the device yet is never
 * answered `unknown` from an incomplete list (docs/api.md#sync).
 */
export const ZLookupInput = z.object({ eventId: ZPositiveId, codeHash: ZCodeHash });
export type LookupInput = z.infer<typeof ZLookupInput>;
/** `attendee` is null for a code the server does not know, or of an event the caller does not follow. */
export const ZLookupResult = z.object({ attendee: ZAttendeeTuple.nullable() });
export type LookupResult = z.infer<typeof ZLookupResult>;

// ---- door devices ----------------------------------------------------------------------

/** Most categories one check-in list may name. */
export const MAX_LIST_CATEGORIES = 200;

export const ZCreateDeviceInput = z.object({
  name: z.string().trim().min(1).max(190),
  eventIds: z.array(ZPositiveId).min(1).max(50),
  /** The check-in list: ticket categories (of the device's events) it admits; null or absent = every ticket. */
  categoryIds: z.array(ZPositiveId).min(1, 'must name at least one category, or be null for every ticket').max(MAX_LIST_CATEGORIES).nullable().optional(),
});
export type CreateDeviceInput = z.infer<typeof ZCreateDeviceInput>;
export const ZUpdateDeviceInput = ZCreateDeviceInput.partial().extend({
  /** The device may register walk-ins at the door (docs/api.md#sync). */
  walkIns: z.boolean().optional(),
});
export type UpdateDeviceInput = z.infer<typeof ZUpdateDeviceInput>;

export const ZPairDeviceInput = z.object({ code: z.string().trim().min(1).max(32) });

export const ZDeviceDto = z.object({
  id: z.number().int(),
  name: z.string(),
  eventIds: z.array(z.number().int()),
  createdUtc: z.string(),
  pairedUtc: z.string().nullable(),
  pairingExpiresUtc: z.string().nullable(),
  lastSeenUtc: z.string().nullable(),
  /** Scans the device said it still holds unsynced, and when it said so. */
  pendingCount: z.number().int().nullable(),
  pendingReportedUtc: z.string().nullable(),
  revokedUtc: z.string().nullable(),
  /** The administrator lets this device register walk-ins (the door shows the button only then). */
  walkIns: z.boolean(),
  /** The check-in list: the ticket categories this device admits; null = every ticket of its events. */
  categoryIds: z.array(z.number().int()).nullable(),
});
export type DeviceDto = z.infer<typeof ZDeviceDto>;

export const ZDevicePairing = z.object({
  deviceId: z.number().int(),
  pairingCode: z.string(),
  pairingExpiresUtc: z.string(),
  /** Text for the QR code: the door page URL carrying the code. */
  pairingUrl: z.string(),
});
export type DevicePairing = z.infer<typeof ZDevicePairing>;
