/**
 * The check-in rules without zod, so the door PWA's chunk carries the verdict rule and not the
 * schema library: the device runs this same `checkinVerdict` offline, the server online.
 * `shared/checkin.ts` re-exports everything here next to the schemas.
 */

/** docs/api.md#sync scan verdicts. `ok`/`again` admit and create a check-in row; the rest are refusals. */
export const VERDICTS = ['ok', 'again', 'cancelled', 'waitlist', 'wrong_event', 'unknown', 'wrong_category'] as const;
export type Verdict = (typeof VERDICTS)[number];

export type AdmitVerdict = Extract<Verdict, 'ok' | 'again'>;
export type RefusalVerdict = Exclude<Verdict, AdmitVerdict>;

export function isAdmitted(verdict: Verdict): verdict is AdmitVerdict {
  return verdict === 'ok' || verdict === 'again';
}

/** docs/api.md#errors check-in sources: camera scan, typed code, name search, the REST route, a walk-in registered at the door. */
export const CHECKIN_SOURCES = ['scan', 'manual', 'search', 'rest', 'walk_in'] as const;
export type CheckinSource = (typeof CHECKIN_SOURCES)[number];

/**
 * Why an accepted offline scan disagrees with the server (stored in `conflict`):
 * - `cancelled_before_scan`: cancelled on the server, last changed before the scan time;
 * - `cancelled`: cancelled on the server, possibly after the scan (the row changed later);
 * - `waitlist`: on the waitlist on the server;
 * - `deleted`: the attendee row no longer exists (proven by the change log's tombstone);
 * - `again_elsewhere`: the door admitted a first entry while another door had already admitted
 *   the same ticket earlier (two doors apart, offline); the later of the two first entries is flagged;
 * - `over_capacity`: a walk-in registered at the door when the event was already full (stored
 *   anyway: the person is inside).
 */
export const CONFLICTS = ['cancelled_before_scan', 'cancelled', 'waitlist', 'deleted', 'again_elsewhere', 'over_capacity'] as const;
export type Conflict = (typeof CONFLICTS)[number];

/** What the verdict rule needs to know about an attendee. */
export interface VerdictAttendee {
  eventId: number;
  /** going, waitlist, cancelled; '' on an old row reads as going (docs/api.md#errors). */
  status: string;
  /** Check-ins not annulled. */
  checkinCount: number;
  /** The ticket category; null (or absent) = the event's implicit single category. */
  categoryId?: number | null;
}

/**
 * A door's check-in list (docs/decisions/029-check-in-lists.md): the ticket categories it admits,
 * and the events those categories belong to. The list limits only those events: an event none of
 * whose categories is on it is admitted whole, as on a door without a list.
 */
export interface CheckinList {
  categoryIds: readonly number[];
  /** The events of `categoryIds`. */
  eventIds: readonly number[];
}

/** Whether a door with `list` (null: no list) admits a ticket of `categoryId` at `eventId`. */
export function listAdmits(list: CheckinList | null | undefined, eventId: number, categoryId: number | null | undefined): boolean {
  if (!list || !list.eventIds.includes(eventId)) return true;
  return categoryId !== null && categoryId !== undefined && list.categoryIds.includes(categoryId);
}

/** Whether a status admits: `going`, or the old empty status (docs/api.md#errors). */
export function statusAdmits(status: string): boolean {
  return status === 'going' || status === '';
}

/**
 * The "checked in" count's rule, the server's (`checkin.repository.ts` counts) and the door's alike:
 * an attendee whose status admits, with a check-in not annulled. A forced offline scan of someone
 * cancelled before it is kept for review but does not make her checked in.
 */
export function countsAsCheckedIn(attendee: Pick<VerdictAttendee, 'status' | 'checkinCount'>): boolean {
  return statusAdmits(attendee.status) && attendee.checkinCount > 0;
}

/**
 * The door's verdict for a scanned attendee at `eventId`. Only `going` and the old empty
 * status admit; a status the contract does not name yet is refused like `cancelled`
 * (a door must never let in someone whose state it does not understand). A door with a
 * check-in list refuses a valid ticket of a category not on it (`wrong_category`): the
 * ticket itself is fine, so the status refusals say more and come first.
 */
export function checkinVerdict(attendee: VerdictAttendee | null | undefined, eventId: number, list?: CheckinList | null): Verdict {
  if (!attendee) return 'unknown';
  if (attendee.eventId !== eventId) return 'wrong_event';
  if (attendee.status === 'waitlist') return 'waitlist';
  if (!statusAdmits(attendee.status)) return 'cancelled';
  if (!listAdmits(list, eventId, attendee.categoryId)) return 'wrong_category';
  return attendee.checkinCount > 0 ? 'again' : 'ok';
}

/** Largest push batch (issue 5). */
export const MAX_PUSH_BATCH = 1000;
