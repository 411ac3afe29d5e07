/** The held announcement of an attendee change (server/jobs/announcements.ts): what fires after commit, in the contract's order. */
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import type { AttendeeChanges, Hooks } from '../../hooks';
import { announce, holdAnnouncement } from '../../jobs/announcements';

/**
 * The held job behind an attendee's actions after an admin PATCH or a visitor cancel
 * (server/jobs/announcements.ts): a waitlisted attendee moved to going is mailed the ticket by a
 * listener, so the job is queued in the transaction that writes the change, and no crash or
 * failed mail insert loses it.
 */
export const ANNOUNCE_ATTENDEE_CHANGED_JOB = 'announce.attendee_changed';

/** What changed, as the held job's payload: enough to fire the contract's actions again. */
export type AttendeeChange =
  | { change: 'updated'; attendeeId: number; changes: AttendeeChanges; status?: string; oldStatus: string }
  | { change: 'cancelled'; attendeeId: number }
  /** Rows moved off the waitlist by a freed seat (docs/decisions/045-waitlist-promotion.md): only the status change fires, once per row. */
  | { change: 'promoted'; attendeeIds: number[] };

/** The contract's actions after a change, in its order; run by the writer after commit, or by a runner. */
export async function announceAttendeeChange(hooks: Hooks, c: AttendeeChange): Promise<void> {
  if (c.change === 'cancelled') return hooks.doAction('svc_rsvp_cancelled', c.attendeeId);
  if (c.change === 'promoted') {
    for (const id of c.attendeeIds) await hooks.doAction('svc_attendee_status_changed', id, 'going', 'waitlist');
    return;
  }
  await hooks.doAction('svc_attendee_updated', c.attendeeId, c.changes);
  if (c.status !== undefined) await hooks.doAction('svc_attendee_status_changed', c.attendeeId, c.status, c.oldStatus);
}

/** In the writing transaction: holds the change's actions (`announceChangeNow` fires them after commit). */
export function holdAttendeeChange(tx: Db, c: AttendeeChange): Promise<number> {
  return holdAnnouncement(tx, ANNOUNCE_ATTENDEE_CHANGED_JOB, c);
}

/** After commit, in the writer: the change's actions, and its held job dropped (or left to the runners if a listener threw). */
export function announceChangeNow(ctx: Pick<AppContext, 'db' | 'hooks' | 'logger'>, jobId: number, c: AttendeeChange): Promise<void> {
  return announce(ctx.db, ctx.logger, jobId, () => announceAttendeeChange(ctx.hooks, c));
}
