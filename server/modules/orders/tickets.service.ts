/**
 * Tickets: what every path that issues one shares (the sign-up, a paid order, a shop order, a
 * walk-in): its secrets, the contract's `svc_rsvp_submitted` payload and its held announcement.
 * Part of the orders module so the sign-up calls it and nothing here calls the sign-up.
 */
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { announce, holdAnnouncement } from '../../jobs/announcements';
import { newCancelToken, randomToken, sha256Hex } from '../../security/crypto';
import { attendeesRepository, type AttendeeRecord } from '../attendees/attendees.repository';
import type { EventRow } from '../events/events.repository';

/** A ticket code of 18 random bytes: 144 bits (docs/api.md#errors asks for ≥ 128), 24 characters in the QR. */
const TICKET_CODE_BYTES = 18;

/** A new ticket's secrets: its own cancel token and ticket code (never returned by REST). */
export function newTicketSecrets(): { cancelToken: string; ticketCode: string; ticketCodeHash: string } {
  const ticketCode = randomToken(TICKET_CODE_BYTES);
  return { cancelToken: newCancelToken(), ticketCode, ticketCodeHash: sha256Hex(ticketCode) };
}

/** `svc_rsvp_submitted`'s data: exactly the contract's payload keys, from the row itself (read by id on paid paths). */
export function submittedPayload(row: AttendeeRecord) {
  return { event_id: row.eventId, email: row.email, display_name: row.displayName, quantity: row.quantity, cancel_token: row.cancelToken };
}

/** The held job behind svc_rsvp_submitted (server/jobs/announcements.ts): one per sign-up, or per paid order's tickets. */
export const ANNOUNCE_RSVP_SUBMITTED_JOB = 'announce.rsvp_submitted';

/**
 * A job's side of svc_rsvp_submitted: the writer died after its commit, so the action runs now,
 * once per row, each with its own data read by id.
 */
export async function announceSubmitted(ctx: Pick<AppContext, 'db' | 'hooks'>, attendeeIds: number[]): Promise<void> {
  for (const id of attendeeIds) {
    const row = await attendeesRepository(ctx.db).findById(id);
    if (row) await ctx.hooks.doAction('svc_rsvp_submitted', row.id, submittedPayload(row));
  }
}

/**
 * After commit, in the writer: `svc_rsvp_submitted` with exactly the contract's payload keys, and
 * its held job dropped (server/jobs/announcements.ts).
 */
export function announceSubmittedNow(ctx: Pick<AppContext, 'db' | 'hooks' | 'logger'>, jobId: number, row: AttendeeRecord): Promise<void> {
  return announce(ctx.db, ctx.logger, jobId, () => ctx.hooks.doAction('svc_rsvp_submitted', row.id, submittedPayload(row)));
}

/** The same for a sign-up that made several rows (one per ticket category): the action once per row, in id order. */
export function announceSubmittedRowsNow(ctx: Pick<AppContext, 'db' | 'hooks' | 'logger'>, jobId: number, rows: AttendeeRecord[]): Promise<void> {
  return announce(ctx.db, ctx.logger, jobId, async () => {
    for (const row of rows) await ctx.hooks.doAction('svc_rsvp_submitted', row.id, submittedPayload(row));
  });
}

/**
 * Seats an event holds, in the transaction that locked its row: going attendees and unpaid
 * orders (docs/api.md#payments). Zero when the event has no capacity (nothing to compare with).
 */
export async function seatsTakenLocked(tx: Db, event: EventRow): Promise<number> {
  if (event.capacity === null) return 0;
  return attendeesRepository(tx).seatsTaken(event.id);
}

export interface WalkInPerson {
  displayName: string;
  /** '' when the door was given none: no ticket is mailed. */
  email: string;
  quantity: number;
  deviceId: number;
  clientId: string;
}

/**
 * A walk-in registered at the door (docs/api.md#sync), inside the caller's transaction after it
 * locked the event row: the sign-up's seat count, row and held `svc_rsvp_submitted`, without the
 * visitor's checks (form timing, throttles, bot check — a paired device registered a person
 * standing inside). Never refused: over capacity it is stored `going` anyway and says so; no
 * waitlist and no payment at the door. The caller fires the announcement after commit
 * (`announceSubmittedNow`).
 */
export async function insertWalkIn(
  tx: Db,
  event: EventRow,
  person: WalkInPerson,
): Promise<{ row: AttendeeRecord; overCapacity: boolean; announcement: number }> {
  const overCapacity = event.capacity !== null && (await seatsTakenLocked(tx, event)) + person.quantity > event.capacity;
  const row = await attendeesRepository(tx).insert({
    eventId: event.id,
    email: person.email,
    displayName: person.displayName,
    quantity: person.quantity,
    status: 'going',
    customFields: null,
    ...newTicketSecrets(),
    deviceId: person.deviceId,
    clientId: person.clientId,
  });
  return { row, overCapacity, announcement: await holdAnnouncement(tx, ANNOUNCE_RSVP_SUBMITTED_JOB, { attendeeIds: [row.id] }) };
}
