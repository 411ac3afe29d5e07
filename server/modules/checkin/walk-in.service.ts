/**
 * Walk-ins at the door (docs/api.md#sync): a device the administrator allowed registers a person
 * on the spot, offline, and checks them in at once; sync.push delivers the pair. The attendee is
 * made by the sign-up's rules for someone already inside (`insertWalkIn`), the check-in by the
 * check-in module's insert and held actions, both in one transaction under the event's lock.
 * Idempotent on (device, clientId): a re-push answers the same result and creates nothing.
 */
import type { Conflict, PushItemResult, WalkInPushItem } from '../../../shared/checkin';
import type { Principal } from '../../auth/principal';
import type { AppContext } from '../../context';
import { attendeesRepository, type AttendeeRecord } from '../attendees/attendees.repository';
import { announceSubmittedNow, insertWalkIn } from '../orders/tickets.service';
import { devicesRepository } from '../devices/devices.repository';
import { eventsRepository } from '../events/events.repository';
import { fireCheckedIn } from './checkin.actions';
import { checkinRepository } from './checkin.repository';
import { canScan } from './checkin.service';

type Stored =
  | { kind: 'stored'; row: AttendeeRecord; checkinId: number; conflict: Conflict | null; announcement: number; actions: number }
  | { kind: 'seen' }
  | { kind: 'no_event' };

class WalkInInsertFailed extends Error {}

export function walkInService(ctx: AppContext) {
  const { db, logger } = ctx;
  const checkins = checkinRepository(db, logger);

  /** The answer for a walk-in stored before: its check-in, and its attendee while it exists. */
  async function seenBefore(deviceId: number, item: WalkInPushItem): Promise<PushItemResult | null> {
    const [seen] = await checkins.findByClientIds(deviceId, [item.clientId]);
    if (!seen) return null;
    const checkin = (await checkins.findById(seen.id))!;
    const attendee = await attendeesRepository(db).findById(checkin.attendeeId);
    return {
      clientId: item.clientId,
      status: 'duplicate',
      checkinId: seen.id,
      ...(attendee ? { walkIn: { attendeeId: attendee.id, codeHash: attendee.ticketCodeHash } } : {}),
    };
  }

  async function store(deviceId: number, item: WalkInPushItem): Promise<Stored> {
    return db.transaction(async (tx): Promise<Stored> => {
      // the event's lock orders walk-ins (and sign-ups) of one event: the seat count is exact, and
      // a concurrent push of the same walk-in waits here and then finds it stored
      const event = await eventsRepository(tx).lockById(item.eventId);
      if (!event) return { kind: 'no_event' };
      const txCheckins = checkinRepository(tx, logger);
      if ((await txCheckins.findByClientIds(deviceId, [item.clientId])).length > 0) return { kind: 'seen' };
      const { row, overCapacity, announcement } = await insertWalkIn(tx, event, {
        displayName: item.displayName,
        email: item.email,
        quantity: item.quantity,
        deviceId,
        clientId: item.attendeeClientId,
      });
      const conflict: Conflict | null = overCapacity ? 'over_capacity' : null;
      const checkinId = await txCheckins.insert({
        attendeeId: row.id,
        eventId: event.id,
        scannedUtc: item.scannedUtc,
        deviceId,
        userId: null,
        clientId: item.clientId,
        source: 'walk_in',
        conflict,
        firstEntry: true,
      });
      // 0: the insert failed; roll the attendee back with it (the door sends it again)
      if (checkinId === 0) throw new WalkInInsertFailed();
      const actions = await txCheckins.holdActions([[checkinId, row.id, event.id]]);
      return { kind: 'stored', row, checkinId, conflict, announcement, actions };
    });
  }

  return {
    /**
     * The walk-ins of one push, one result per item in the order given. A device without the
     * administrator's permission (or a staff session, which has no device) gets
     * `rejected: walk_ins_not_allowed` and nothing is stored; an event it does not follow,
     * `forbidden`. After each commit: svc_rsvp_submitted (its listener mails the ticket when
     * there is an email), then svc_pro_attendee_checked_in — once each.
     */
    async recordWalkIns(items: WalkInPushItem[], principal: Principal): Promise<PushItemResult[]> {
      if (items.length === 0) return [];
      const device = principal.deviceId === undefined ? null : await devicesRepository(db).findById(principal.deviceId);
      const results: PushItemResult[] = [];
      for (const item of items) {
        if (!device?.walkIns) {
          results.push({ clientId: item.clientId, status: 'rejected', reason: 'walk_ins_not_allowed' });
          continue;
        }
        if (!canScan(principal, item.eventId)) {
          results.push({ clientId: item.clientId, status: 'rejected', reason: 'forbidden' });
          continue;
        }
        const before = await seenBefore(device.id, item);
        if (before) {
          results.push(before);
          continue;
        }
        let stored: Stored;
        try {
          stored = await store(device.id, item);
        } catch (err) {
          if (!(err instanceof WalkInInsertFailed)) logger.error({ err, eventId: item.eventId }, 'walk-in could not be stored');
          results.push({ clientId: item.clientId, status: 'failed' });
          continue;
        }
        if (stored.kind === 'no_event') {
          results.push({ clientId: item.clientId, status: 'rejected', reason: 'unknown' });
          continue;
        }
        if (stored.kind === 'seen') {
          results.push((await seenBefore(device.id, item))!);
          continue;
        }
        const { row, checkinId, conflict } = stored;
        try {
          await announceSubmittedNow(ctx, stored.announcement, row);
        } catch (err) {
          // stored already: the door must get its answer, and the check-in action still fires
          logger.error({ err, attendeeId: row.id }, 'a svc_rsvp_submitted listener failed for a walk-in');
        }
        await fireCheckedIn(ctx, stored.actions, [[checkinId, row.id, row.eventId]]);
        results.push({ clientId: item.clientId, status: 'inserted', checkinId, conflict, walkIn: { attendeeId: row.id, codeHash: row.ticketCodeHash } });
      }
      return results;
    },
  };
}
