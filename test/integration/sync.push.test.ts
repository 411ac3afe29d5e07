import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { useTestServer } from '../helpers/test-server';
import { loginAs } from '../helpers/http';
import { createAttendee, createEvent, pairedDoor, scan, trpcClient, trpcErrorCode } from '../helpers/checkin';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
const fired: Array<[number, number, number]> = [];
beforeAll(async () => {
  srv.server.ctx.hooks.addAction('svc_pro_attendee_checked_in', (c: number, a: number, e: number) => void fired.push([c, a, e]), 10, 3);
});

const door = (eventIds: number[], name?: string) => pairedDoor(srv.url, admin.api, eventIds, name);

const rowsOf = (eventId: number) =>
  queryRows<{ id: number; attendee_id: number; conflict: string | null; device_id: number | null; client_id: string; source: string }>(
    db(),
    sql`select id, attendee_id, conflict, device_id, client_id::text, source from svc_checkins where event_id = ${eventId} order by id`,
  );

describe('sync.push', () => {
  it('inserts one row per scan, answers inserted with the checkinId, fires the action once per row with (checkinId, attendeeId, eventId)', async () => {
    const event = await createEvent(db());
    const [a, b] = [await createAttendee(db(), event.id), await createAttendee(db(), event.id)];
    const d = await door([event.id]);
    const items = [scan(a), scan(b, { source: 'manual' }), scan(a, { verdictOnDevice: 'again' })];
    fired.length = 0;
    const { results } = await d.client.sync.push.mutate({ items });
    expect(results.map((r) => r.status)).toEqual(['inserted', 'inserted', 'inserted']);
    expect(results.map((r) => r.clientId)).toEqual(items.map((i) => i.clientId));
    const rows = await rowsOf(event.id);
    expect(rows.map((r) => [r.attendee_id, r.device_id, r.source, r.conflict])).toEqual([
      [a.id, d.id, 'scan', null],
      [b.id, d.id, 'manual', null],
      [a.id, d.id, 'scan', null],
    ]);
    expect(results.map((r) => (r as { checkinId: number }).checkinId)).toEqual(rows.map((r) => r.id));
    expect(fired).toEqual(rows.map((r) => [r.id, r.attendee_id, event.id]));
  });

  it('a resent batch (timeout, crash, retry) stores nothing twice and answers duplicate with the original checkinIds; no action fires', async () => {
    const event = await createEvent(db());
    const attendees = await Promise.all([1, 2, 3, 4].map(() => createAttendee(db(), event.id)));
    const d = await door([event.id]);
    const items = attendees.map((a) => scan(a));
    const first = await d.client.sync.push.mutate({ items });
    fired.length = 0;
    for (let retry = 0; retry < 3; retry++) {
      const again = await d.client.sync.push.mutate({ items });
      expect(again.results).toEqual(
        first.results.map((r) => ({ clientId: r.clientId, status: 'duplicate', checkinId: (r as { checkinId: number }).checkinId })),
      );
    }
    // A partial resend mixed with new scans: only the new ones are inserted.
    const extra = scan(attendees[0]!);
    const mixed = await d.client.sync.push.mutate({ items: [items[2]!, extra] });
    expect(mixed.results.map((r) => r.status)).toEqual(['duplicate', 'inserted']);
    expect(await rowsOf(event.id)).toHaveLength(5);
    expect(fired).toHaveLength(1);
  });

  it('a stored scan resent after its attendee was deleted still answers duplicate with its checkinId, and logs no refusal', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id]);
    const item = scan(a);
    const first = await d.client.sync.push.mutate({ items: [item] });
    expect(first.results[0]!.status).toBe('inserted');
    await db().execute(sql`delete from svc_attendees where id = ${a.id}`);
    const again = await d.client.sync.push.mutate({ items: [item] });
    expect(again.results).toEqual([{ clientId: item.clientId, status: 'duplicate', checkinId: (first.results[0] as { checkinId: number }).checkinId }]);
    expect(await queryRows(db(), sql`select 1 from svc_scan_log where client_id = ${item.clientId}::uuid`)).toEqual([]);
  });

  it('a clientId twice in one batch is stored once and answered twice', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id]);
    const item = scan(a);
    const { results } = await d.client.sync.push.mutate({ items: [item, item] });
    expect(results[0]).toEqual(results[1]);
    expect(await rowsOf(event.id)).toHaveLength(1);
  });

  it('the same clientId from two devices is two scans (unique per device)', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const [d1, d2] = [await door([event.id]), await door([event.id])];
    const item = scan(a);
    await d1.client.sync.push.mutate({ items: [item] });
    const second = await d2.client.sync.push.mutate({ items: [item] });
    expect(second.results[0]!.status).toBe('inserted');
  });

  describe('offline-admitted scans are stored even when the server disagrees, with conflict set', () => {
    it('cancelled before the scan → cancelled_before_scan; changed after the scan → cancelled', async () => {
      const event = await createEvent(db());
      const [early, late] = [await createAttendee(db(), event.id, { status: 'cancelled' }), await createAttendee(db(), event.id, { status: 'cancelled' })];
      await db().execute(sql`update svc_attendees set updated_utc = '2030-06-01 17:00:00' where id = ${early.id}`);
      await db().execute(sql`update svc_attendees set updated_utc = '2030-06-01 19:00:00' where id = ${late.id}`);
      const d = await door([event.id]);
      fired.length = 0;
      const { results } = await d.client.sync.push.mutate({
        items: [scan(early, { scannedUtc: '2030-06-01 18:00:00' }), scan(late, { scannedUtc: '2030-06-01 18:00:00' })],
      });
      expect(results.map((r) => [r.status, (r as { conflict?: string }).conflict])).toEqual([
        ['inserted', 'cancelled_before_scan'],
        ['inserted', 'cancelled'],
      ]);
      expect(fired).toHaveLength(2);
    });

    it('waitlist → conflict waitlist', async () => {
      const event = await createEvent(db());
      const w = await createAttendee(db(), event.id, { status: 'waitlist' });
      const d = await door([event.id]);
      const { results } = await d.client.sync.push.mutate({ items: [scan(w)] });
      expect(results[0]).toMatchObject({ status: 'inserted', conflict: 'waitlist' });
    });

    it('deleted on the server → stored for the deleted attendee id with conflict deleted (known by its tombstone)', async () => {
      const event = await createEvent(db());
      const gone = await createAttendee(db(), event.id);
      expect((await admin.api.delete(`/attendees/${gone.id}`)).status).toBe(204);
      const d = await door([event.id]);
      const { results } = await d.client.sync.push.mutate({ items: [scan(gone, { attendeeId: gone.id })] });
      expect(results[0]).toMatchObject({ status: 'inserted', conflict: 'deleted' });
      expect((await rowsOf(event.id))[0]).toMatchObject({ attendee_id: gone.id, conflict: 'deleted' });
      const counts = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
      // "checked in / going" counts one set of people: a deleted attendee is on neither side
      expect(counts.body).toMatchObject({ scans: 1, conflicts: 1, checkedIn: 0, attendeesGoing: 0 });
    });

    describe('two doors admitting one ticket while apart → again_elsewhere on the later first entry, whichever door syncs first', () => {
      const twoDoorsOneTicket = async () => {
        const event = await createEvent(db());
        const guest = await createAttendee(db(), event.id);
        const [north, south] = [await door([event.id], 'North door'), await door([event.id], 'South door')];
        // North admitted at 19:00, South at 19:03, both offline and both judging it a first entry
        return {
          event,
          guest,
          north,
          south,
          northScan: scan(guest, { scannedUtc: '2030-06-01 19:00:00' }),
          southScan: scan(guest, { scannedUtc: '2030-06-01 19:03:00' }),
        };
      };

      it('the earlier door syncs first: the later door’s scan is answered and stored again_elsewhere', async () => {
        const { event, north, south, northScan, southScan } = await twoDoorsOneTicket();
        expect((await north.client.sync.push.mutate({ items: [northScan] })).results[0]).toMatchObject({ status: 'inserted', conflict: null });
        expect((await south.client.sync.push.mutate({ items: [southScan] })).results[0]).toMatchObject({ status: 'inserted', conflict: 'again_elsewhere' });
        expect((await rowsOf(event.id)).map((r) => [r.device_id, r.conflict])).toEqual([
          [north.id, null],
          [south.id, 'again_elsewhere'],
        ]);
        const counts = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
        expect(counts.body).toMatchObject({ scans: 2, conflicts: 1, checkedIn: 1, attendeesGoing: 1 });
        const listed = await admin.api.get(`/checkins?eventId=${event.id}&conflicts=true`);
        expect(listed.body.map((c: { conflict: string }) => c.conflict)).toEqual(['again_elsewhere']);
        // both doors hear of it on their next pull: the attendee carries the conflict
        for (const d of [north, south]) {
          const pulled = await d.client.sync.pull.query({ cursor: '0:0', eventIds: [event.id] });
          expect('attendees' in pulled && pulled.attendees.map((t) => t[10])).toEqual(['again_elsewhere']);
        }
      });

      it('the later door syncs first: its stored scan is flagged when the earlier one arrives', async () => {
        const { event, north, south, northScan, southScan } = await twoDoorsOneTicket();
        expect((await south.client.sync.push.mutate({ items: [southScan] })).results[0]).toMatchObject({ status: 'inserted', conflict: null });
        expect((await north.client.sync.push.mutate({ items: [northScan] })).results[0]).toMatchObject({ status: 'inserted', conflict: null });
        expect((await rowsOf(event.id)).map((r) => [r.device_id, r.conflict])).toEqual([
          [south.id, 'again_elsewhere'],
          [north.id, null],
        ]);
      });

      it('a flag once raised stays when the entry that raised it is undone afterwards (docs/api.md#sync)', async () => {
        const { event, north, south, northScan, southScan } = await twoDoorsOneTicket();
        await south.client.sync.push.mutate({ items: [southScan] });
        await north.client.sync.push.mutate({ items: [northScan] });
        await db().execute(sql`update svc_checkins set annulled_utc = '2030-06-01 19:20:00' where event_id = ${event.id} and device_id = ${north.id}`);
        expect((await rowsOf(event.id)).map((r) => [r.device_id, r.conflict])).toEqual([
          [south.id, 'again_elsewhere'],
          [north.id, null],
        ]);
      });

      it('both doors in the same second (times keep whole seconds): the door that syncs second is flagged, whichever it is', async () => {
        const { event, guest, north, south } = await twoDoorsOneTicket();
        const at = '2030-06-01 19:00:00';
        expect((await south.client.sync.push.mutate({ items: [scan(guest, { scannedUtc: at })] })).results[0]).toMatchObject({
          status: 'inserted',
          conflict: null,
        });
        expect((await north.client.sync.push.mutate({ items: [scan(guest, { scannedUtc: at })] })).results[0]).toMatchObject({
          status: 'inserted',
          conflict: 'again_elsewhere',
        });
        expect((await rowsOf(event.id)).map((r) => [r.device_id, r.conflict])).toEqual([
          [south.id, null],
          [north.id, 'again_elsewhere'],
        ]);
      });

      it('both doors syncing at the same moment: the later first entry is still flagged, and both doors hear of it', async () => {
        const event = await createEvent(db());
        const guests = await Promise.all(Array.from({ length: 20 }, () => createAttendee(db(), event.id)));
        const [north, south] = [await door([event.id], 'North door'), await door([event.id], 'South door')];
        // the venue's network comes back: each guest's two offline entries arrive in concurrent pushes
        for (const guest of guests) {
          await Promise.all([
            north.client.sync.push.mutate({ items: [scan(guest, { scannedUtc: '2030-06-01 19:00:00' })] }),
            south.client.sync.push.mutate({ items: [scan(guest, { scannedUtc: '2030-06-01 19:03:00' })] }),
          ]);
        }
        const rows = await rowsOf(event.id);
        const flagged = guests.map((g) => rows.filter((r) => r.attendee_id === g.id && r.conflict === 'again_elsewhere').map((r) => r.device_id));
        expect(flagged).toEqual(guests.map(() => [south.id]));
        for (const d of [north, south]) {
          const pulled = await d.client.sync.pull.query({ cursor: '0:0', eventIds: [event.id] });
          expect('attendees' in pulled && pulled.attendees.every((t) => t[10] === 'again_elsewhere')).toBe(true);
        }
      });

      it('not a conflict: a re-scan the door judged again, a second scan on the same door, or an earlier check-in that was annulled', async () => {
        const { event, guest, north, south, northScan } = await twoDoorsOneTicket();
        await north.client.sync.push.mutate({ items: [northScan, scan(guest, { scannedUtc: '2030-06-01 19:05:00' })] });
        const again = await south.client.sync.push.mutate({ items: [scan(guest, { scannedUtc: '2030-06-01 19:10:00', verdictOnDevice: 'again' })] });
        expect(again.results[0]).toMatchObject({ status: 'inserted', conflict: null });
        await db().execute(sql`update svc_checkins set annulled_utc = '2030-06-01 19:11:00' where event_id = ${event.id} and device_id = ${north.id}`);
        const afterUndo = await south.client.sync.push.mutate({ items: [scan(guest, { scannedUtc: '2030-06-01 19:12:00' })] });
        expect(afterUndo.results[0]).toMatchObject({ status: 'inserted', conflict: null });
        expect((await rowsOf(event.id)).every((r) => r.conflict === null)).toBe(true);
      });
    });
  });

  it('an unknown code is answered rejected unknown, logged once as a failed scan (even when resent), no row, no action', async () => {
    const event = await createEvent(db());
    const d = await door([event.id]);
    const item = scan({ codeHash: 'ab'.repeat(32), eventId: event.id });
    fired.length = 0;
    for (let i = 0; i < 2; i++) {
      const { results } = await d.client.sync.push.mutate({ items: [item] });
      expect(results).toEqual([{ clientId: item.clientId, status: 'rejected', reason: 'unknown' }]);
    }
    const log = await queryRows<{ reason: string; device_id: number; code_hash: string }>(
      db(),
      sql`select reason, device_id, code_hash from svc_scan_log where event_id = ${event.id}`,
    );
    expect(log).toEqual([{ reason: 'unknown', device_id: d.id, code_hash: 'ab'.repeat(32) }]);
    expect(await rowsOf(event.id)).toHaveLength(0);
    expect(fired).toEqual([]);
  });

  it('scans the device itself refused are kept in the scan log, not as check-ins', async () => {
    const event = await createEvent(db());
    const c = await createAttendee(db(), event.id, { status: 'cancelled' });
    const d = await door([event.id]);
    const { results } = await d.client.sync.push.mutate({ items: [scan(c, { verdictOnDevice: 'cancelled' })] });
    expect(results[0]).toMatchObject({ status: 'rejected', reason: 'cancelled' });
    expect(await rowsOf(event.id)).toHaveLength(0);
    const counts = await admin.api.get(`/checkins/counts?eventId=${event.id}`);
    expect(counts.body.rejectedScans).toBe(1);
  });

  it('a scan for an event the device does not follow is rejected forbidden; a ticket of another event wrong_event', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const [a, b] = [await createAttendee(db(), other.id), await createAttendee(db(), other.id)];
    const d = await door([mine.id]);
    const { results } = await d.client.sync.push.mutate({ items: [scan(a), scan(b, { eventId: mine.id })] });
    expect(results.map((r) => (r as { reason: string }).reason)).toEqual(['forbidden', 'wrong_event']);
  });

  it('a staff session pushes without a device (device_id null) just as idempotently', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const staffEmail = `staff-${randomUUID()}@example.test`;
    expect((await admin.api.post('/users', { email: staffEmail, role: 'staff', password: 'long enough password', eventIds: [event.id] })).status).toBe(201);
    const staff = await loginAs(srv.url, staffEmail, 'long enough password');
    const client = trpcClient(srv.url, { cookie: staff.cookie });
    const items = [scan(a)];
    expect((await client.sync.push.mutate({ items })).results[0]!.status).toBe('inserted');
    expect((await client.sync.push.mutate({ items })).results[0]!.status).toBe('duplicate');
    const rows = await rowsOf(event.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.device_id).toBeNull();
  });

  it('refuses a batch over 1,000 scans with svc_invalid_param, storing nothing', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id]);
    const items = Array.from({ length: 1001 }, () => scan(a));
    expect(await trpcErrorCode(d.client.sync.push.mutate({ items }))).toBe('svc_invalid_param');
    expect(await rowsOf(event.id)).toHaveLength(0);
  });

  it('when the batch insert fails the scans are answered failed (kept in the device queue) and nothing fires', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id]);
    await db().execute(
      sql.raw(`create function svc_test_refuse_push() returns trigger language plpgsql as $$ begin
                 if new.event_id = ${event.id} then raise exception 'refused by test'; end if; return new; end $$`),
    );
    await db().execute(sql.raw('create trigger svc_test_refuse_push before insert on svc_checkins for each row execute function svc_test_refuse_push()'));
    const item = scan(a);
    try {
      fired.length = 0;
      const { results } = await d.client.sync.push.mutate({ items: [item] });
      expect(results).toEqual([{ clientId: item.clientId, status: 'failed' }]);
      expect(fired).toEqual([]);
    } finally {
      await db().execute(sql.raw('drop trigger svc_test_refuse_push on svc_checkins'));
      await db().execute(sql.raw('drop function svc_test_refuse_push()'));
    }
    // Sent again once the database accepts it: stored now.
    expect((await d.client.sync.push.mutate({ items: [item] })).results[0]!.status).toBe('inserted');
  });
});
