/**
 * Walk-ins at the door (docs/api.md#sync): a device the administrator allowed registers a person
 * offline and checks them in; sync.push creates the attendee by the sign-up's rules for someone
 * already inside, fires the contract's actions once each, mails the ticket only to an email, and
 * answers a re-push with the same result.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { eventsRepository } from '../../server/modules/events/events.repository';
import type { WalkInPushItem } from '../../shared/checkin';
import { toUtcString } from '../../shared/time';
import { createAttendee, createEvent, pairedDoor, scan, trpcErrorCode } from '../helpers/checkin';
import { storedMails } from '../helpers/mail';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
const submitted: Array<[number, object]> = [];
const checkedIn: Array<[number, number, number]> = [];
beforeAll(() => {
  const hooks = srv.server.ctx.hooks;
  hooks.addAction('svc_rsvp_submitted', (id, data) => void submitted.push([id, { ...data }]), 50, 2);
  hooks.addAction('svc_pro_attendee_checked_in', (c: number, a: number, e: number) => void checkedIn.push([c, a, e]), 50, 3);
});

async function door(eventIds: number[], walkIns: boolean) {
  const d = await pairedDoor(srv.url, admin.api, eventIds, 'Walk-in desk');
  if (walkIns) {
    const res = await admin.api.patch(`/devices/${d.id}`, { walkIns: true });
    expect(res.status).toBe(200);
    expect(res.body.walkIns).toBe(true);
  }
  return d;
}

function walkIn(eventId: number, overrides: Partial<WalkInPushItem> = {}): WalkInPushItem {
  return {
    kind: 'walk_in',
    clientId: randomUUID(),
    attendeeClientId: randomUUID(),
    eventId,
    scannedUtc: toUtcString(Date.now()),
    displayName: 'Wanda Walkin',
    email: '',
    quantity: 1,
    ...overrides,
  };
}

const attendeesOf = (eventId: number) =>
  queryRows<{
    id: number;
    email: string;
    display_name: string;
    quantity: number;
    status: string;
    device_id: number | null;
    client_id: string | null;
    ticket_code_hash: string;
    cancel_token: string;
  }>(
    db(),
    sql`select id, email, display_name, quantity, status, device_id, client_id::text, ticket_code_hash, cancel_token from svc_attendees where event_id = ${eventId} order by id`,
  );
const checkinsOf = (eventId: number) =>
  queryRows<{ id: number; attendee_id: number; device_id: number; client_id: string; source: string; conflict: string | null }>(
    db(),
    sql`select id, attendee_id, device_id, client_id::text, source, conflict from svc_checkins where event_id = ${eventId} order by id`,
  );

describe('walk-ins pushed by a door', () => {
  it('creates one attendee and one check-in, fires svc_rsvp_submitted and svc_pro_attendee_checked_in once each with the contract arguments, and answers the attendee id and code hash', async () => {
    const event = await createEvent(db());
    const d = await door([event.id], true);
    const item = walkIn(event.id, { displayName: '  Walter Door ', email: 'walter@example.test', quantity: 2 });
    submitted.length = 0;
    checkedIn.length = 0;
    const { results } = await d.client.sync.push.mutate({ items: [item] });

    const [attendee, ...others] = await attendeesOf(event.id);
    expect(others).toEqual([]);
    expect(attendee).toMatchObject({
      email: 'walter@example.test',
      display_name: 'Walter Door',
      quantity: 2,
      status: 'going',
      device_id: d.id,
      client_id: item.attendeeClientId,
    });
    const rows = await checkinsOf(event.id);
    expect(rows).toEqual([{ id: expect.any(Number), attendee_id: attendee!.id, device_id: d.id, client_id: item.clientId, source: 'walk_in', conflict: null }]);
    expect(results).toEqual([
      {
        clientId: item.clientId,
        status: 'inserted',
        checkinId: rows[0]!.id,
        conflict: null,
        walkIn: { attendeeId: attendee!.id, codeHash: attendee!.ticket_code_hash },
      },
    ]);
    expect(submitted).toEqual([
      [attendee!.id, { event_id: event.id, email: 'walter@example.test', display_name: 'Walter Door', quantity: 2, cancel_token: attendee!.cancel_token }],
    ]);
    expect(checkedIn).toEqual([[rows[0]!.id, attendee!.id, event.id]]);
  });

  it('mails the ticket when an email was given', async () => {
    const event = await createEvent(db(), 'Mailed walk-in night');
    const d = await door([event.id], true);
    await d.client.sync.push.mutate({ items: [walkIn(event.id, { email: 'mailme@example.test' })] });
    const mails = await storedMails(db(), 'mailme@example.test');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe('You are registered: Mailed walk-in night');
    const [attendee] = await attendeesOf(event.id);
    expect(mails[0]!.text).toContain(`Your ticket code: `);
    expect(attendee!.email).toBe('mailme@example.test');
  });

  it('without an email stores an empty email, mails nothing, and the admin list and the CSV export show the walk-in', async () => {
    const event = await createEvent(db());
    const d = await door([event.id], true);
    const outboxBefore = (await storedMails(db())).length;
    const { results } = await d.client.sync.push.mutate({ items: [walkIn(event.id, { displayName: 'No Mail Nora' })] });
    expect(results[0]!.status).toBe('inserted');
    const [attendee] = await attendeesOf(event.id);
    expect(attendee!.email).toBe('');
    expect((await storedMails(db())).length).toBe(outboxBefore);

    const list = await admin.api.get(`/attendees?eventId=${event.id}`);
    expect(list.status).toBe(200);
    expect(list.body.map((a: { displayName: string; email: string }) => [a.displayName, a.email])).toEqual([['No Mail Nora', '']]);
    const csv = await admin.api.get(`/attendees/export?eventId=${event.id}&format=csv`);
    expect(csv.status).toBe(200);
    expect((csv.body as string).split('\r\n')[1]).toMatch(new RegExp(`^${attendee!.id},${event.id},,No Mail Nora,going,1,`));
  });

  it('an event already full stores the walk-in anyway, going, with the check-in conflict over_capacity', async () => {
    const event = await createEvent(db());
    await eventsRepository(db()).update(event.id, { capacity: 2 });
    await createAttendee(db(), event.id);
    await createAttendee(db(), event.id);
    const d = await door([event.id], true);
    const { results } = await d.client.sync.push.mutate({ items: [walkIn(event.id)] });
    expect(results[0]).toMatchObject({ status: 'inserted', conflict: 'over_capacity' });
    const walked = (await attendeesOf(event.id)).at(-1)!;
    expect(walked.status).toBe('going');
    expect((await checkinsOf(event.id)).map((r) => r.conflict)).toEqual(['over_capacity']);
  });

  it('a walk-in that still fits has no conflict', async () => {
    const event = await createEvent(db());
    await eventsRepository(db()).update(event.id, { capacity: 3 });
    await createAttendee(db(), event.id);
    const d = await door([event.id], true);
    const { results } = await d.client.sync.push.mutate({ items: [walkIn(event.id, { quantity: 2 })] });
    expect(results[0]).toMatchObject({ status: 'inserted', conflict: null });
  });

  it('a re-push answers the same check-in and attendee, creates nothing, fires nothing and mails nothing', async () => {
    const event = await createEvent(db());
    const d = await door([event.id], true);
    const item = walkIn(event.id, { email: 'twice@example.test' });
    const first = (await d.client.sync.push.mutate({ items: [item] })).results[0]!;
    expect(first.status).toBe('inserted');
    submitted.length = 0;
    checkedIn.length = 0;
    for (let retry = 0; retry < 2; retry++) {
      const again = await d.client.sync.push.mutate({ items: [item, item] });
      const expected = {
        clientId: item.clientId,
        status: 'duplicate',
        checkinId: (first as { checkinId: number }).checkinId,
        walkIn: (first as { walkIn: unknown }).walkIn,
      };
      expect(again.results).toEqual([expected, expected]);
    }
    expect(await attendeesOf(event.id)).toHaveLength(1);
    expect(await checkinsOf(event.id)).toHaveLength(1);
    expect(submitted).toEqual([]);
    expect(checkedIn).toEqual([]);
    expect(await storedMails(db(), 'twice@example.test')).toHaveLength(1);
  });

  it('a device the administrator has not allowed gets walk_ins_not_allowed and nothing is stored or fired', async () => {
    const event = await createEvent(db());
    const d = await door([event.id], false);
    expect((await d.client.devices.me.query()).walkIns).toBe(false);
    submitted.length = 0;
    checkedIn.length = 0;
    const item = walkIn(event.id, { email: 'refused@example.test' });
    const { results } = await d.client.sync.push.mutate({ items: [item] });
    expect(results).toEqual([{ clientId: item.clientId, status: 'rejected', reason: 'walk_ins_not_allowed' }]);
    expect(await attendeesOf(event.id)).toEqual([]);
    expect(await checkinsOf(event.id)).toEqual([]);
    expect(await queryRows(db(), sql`select 1 from svc_scan_log where client_id = ${item.clientId}::uuid`)).toEqual([]);
    expect(await storedMails(db(), 'refused@example.test')).toEqual([]);
    expect([submitted, checkedIn]).toEqual([[], []]);
  });

  it('a staff session (no device) may not register walk-ins; a device may not for an event it does not follow', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const d = await door([mine.id], true);
    const item = walkIn(other.id);
    expect((await d.client.sync.push.mutate({ items: [item] })).results).toEqual([{ clientId: item.clientId, status: 'rejected', reason: 'forbidden' }]);
    expect(await attendeesOf(other.id)).toEqual([]);
  });

  it('the admin turns walk-ins on and off per device; the door reads it from devices.me', async () => {
    const event = await createEvent(db());
    const d = await door([event.id], true);
    expect((await d.client.devices.me.query()).walkIns).toBe(true);
    const off = await admin.api.patch(`/devices/${d.id}`, { walkIns: false });
    expect(off.body.walkIns).toBe(false);
    expect((await d.client.devices.me.query()).walkIns).toBe(false);
    const item = walkIn(event.id);
    expect((await d.client.sync.push.mutate({ items: [item] })).results[0]).toMatchObject({ status: 'rejected', reason: 'walk_ins_not_allowed' });
  });

  it('walk-ins and scans in one batch answer one result each, in the order sent', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id], true);
    const items = [scan(a), walkIn(event.id), scan(a, { verdictOnDevice: 'again' })];
    const { results } = await d.client.sync.push.mutate({ items });
    expect(results.map((r) => [r.clientId, r.status])).toEqual(items.map((i) => [i.clientId, 'inserted']));
    expect(await checkinsOf(event.id)).toHaveLength(3);
  });

  it.each([
    ['an empty name', { displayName: '   ' }],
    ['a bad email', { email: 'not-an-email' }],
    ['quantity 0', { quantity: 0 }],
    ['no attendee client id', { attendeeClientId: 'x' }],
  ])('%s is refused as svc_invalid_param and nothing is stored', async (_what, bad) => {
    const event = await createEvent(db());
    const d = await door([event.id], true);
    expect(await trpcErrorCode(d.client.sync.push.mutate({ items: [walkIn(event.id, bad as Partial<WalkInPushItem>)] }))).toBe('svc_invalid_param');
    expect(await attendeesOf(event.id)).toEqual([]);
  });
});
