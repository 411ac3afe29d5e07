/**
 * Read-only questions the door screens ask of the door database beyond a scan's verdict:
 * whether the people a name search found are already in (the cached list plus this device's
 * own scans the list does not carry yet), and how many items need a person's attention.
 * Plain Dexie reads, so a live query re-runs when a scan, an undo or a pull changes them.
 */
import { isAdmitted } from '../../../shared/checkin-rules';
import type { AttendeeRecord, DoorDb, LocalCheckin } from './door-db';
import { localDelta, searchAttendees } from './scans';

export interface FoundAttendee {
  attendee: AttendeeRecord;
  /** Whether a check-in of theirs stands (they are in). */
  isIn: boolean;
  /** When they last came in (UTC `Y-m-d H:i:s`) when known; null when not in or not known. */
  inSinceUtc: string | null;
}

/** A local scan that still admits someone (the rule of scans.ts `lookupScan`). */
function stands(c: LocalCheckin): boolean {
  if (!isAdmitted(c.verdict)) return false;
  if (c.state === 'undone' || c.state === 'rejected' || c.state === 'refused') return false;
  return c.undo === null || c.undo === 'rejected';
}

/** Whether each attendee is in, and since when: the same count `lookupScan` gives a scan. */
export async function presenceOf(db: DoorDb, attendees: AttendeeRecord[]): Promise<FoundAttendee[]> {
  if (attendees.length === 0) return [];
  const local = await db.checkins
    .where('attendeeId')
    .anyOf(attendees.map((a) => a.id))
    .toArray();
  return attendees.map((attendee) => {
    const mine = local.filter((c) => c.attendeeId === attendee.id);
    const count = attendee.checkinCount + mine.reduce((n, c) => n + localDelta(c), 0);
    if (count <= 0) return { attendee, isIn: false, inSinceUtc: null };
    let since = attendee.lastCheckinUtc;
    for (const c of mine) if (stands(c) && (since === null || c.scannedUtc > since)) since = c.scannedUtc;
    return { attendee, isIn: true, inSinceUtc: since };
  });
}

/** Name search with each person's presence (2+ characters; otherwise nothing). */
export async function searchWithPresence(db: DoorDb, eventId: number | null, query: string): Promise<FoundAttendee[]> {
  if (eventId === null || query.trim().length < 2) return [];
  const started = globalThis.performance?.now();
  const found = await presenceOf(db, await searchAttendees(db, eventId, query));
  globalThis.performance?.measure?.('svc-door-search', { start: started });
  return found;
}
