import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { syncService } from '../../server/modules/sync/sync.service';
import { PRUNE_CHANGES_JOB } from '../../server/modules/sync/sync.jobs';
import { queryRows } from '../../server/db/client';
import { ATTENDEE_TUPLE_COLUMNS, type AttendeeTuple, type PullResult } from '../../shared/checkin';
import { useTestServer } from '../helpers/test-server';
import { createAttendee, createEvent, pairedDoor, scan, trpcClient, trpcErrorCode } from '../helpers/checkin';
import { bookingBody, createHost, createType, disableIpThrottle, fetchNonce, futureStart, submitBooking } from '../helpers/booking';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

type Door = ReturnType<typeof trpcClient>;
const door = (eventIds: number[], name?: string) => pairedDoor(srv.url, admin.api, eventIds, name);

/** Downloads an event page by page as a device would; answers the attendees and the cursor of the first page. */
async function downloadAll(client: Door, eventId: number, limit = 3): Promise<{ cursor: string; attendees: AttendeeTuple[]; pages: number }> {
  let afterId = 0;
  let cursor: string | null = null;
  const attendees: AttendeeTuple[] = [];
  let pages = 0;
  for (;;) {
    const page = await client.sync.download.query({ eventId, afterId, limit });
    pages++;
    cursor ??= page.cursor;
    attendees.push(...page.attendees);
    afterId = page.nextAfterId;
    if (!page.hasMore) break;
  }
  return { cursor: cursor!, attendees, pages };
}

const live = (r: PullResult) => {
  if (r.reset) throw new Error('unexpected reset');
  return r;
};
const named = (t: AttendeeTuple) => Object.fromEntries(ATTENDEE_TUPLE_COLUMNS.map((c, i) => [c, t[i]]));

describe('sync.download (first download of an event)', () => {
  it('pages attendees by id as compact tuples, with code hash and check-in state; the cursor comes only with the first page', async () => {
    const event = await createEvent(db());
    const attendees = await Promise.all([1, 2, 3, 4, 5, 6, 7].map(() => createAttendee(db(), event.id)));
    const d = await door([event.id], 'Gate 1');
    await d.client.sync.push.mutate({ items: [scan(attendees[1]!, { scannedUtc: '2030-06-01 18:03:00' })] });

    const first = await d.client.sync.download.query({ eventId: event.id, limit: 3 });
    expect(first.cursor).toMatch(/^\d+:0$/);
    // the door shows "N of total" while the rest comes
    expect(first.total).toBe(7);
    expect(first.event).toMatchObject({ id: event.id, title: event.title });
    const second = await d.client.sync.download.query({ eventId: event.id, afterId: first.nextAfterId, limit: 3 });
    expect(second.cursor).toBeNull();
    expect(second.total).toBeUndefined();

    const all = await downloadAll(d.client, event.id);
    expect(all.pages).toBe(3);
    expect(all.attendees.map((t) => t[0])).toEqual(attendees.map((a) => a.id).sort((x, y) => x - y));
    const scanned = named(all.attendees.find((t) => t[0] === attendees[1]!.id)!);
    expect(scanned).toMatchObject({
      eventId: event.id,
      status: 'going',
      quantity: 1,
      codeHash: attendees[1]!.codeHash,
      checkinCount: 1,
      lastCheckinUtc: '2030-06-01 18:03:00',
      lastCheckinDevice: 'Gate 1',
    });
    expect(JSON.stringify(all.attendees)).not.toContain(attendees[1]!.ticketCode);
  });

  it('is refused for an event the device does not follow', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const d = await door([mine.id]);
    expect(await trpcErrorCode(d.client.sync.download.query({ eventId: other.id }))).toBe('svc_forbidden');
  });

  it('is gzipped on the wire', async () => {
    const event = await createEvent(db());
    await Promise.all(Array.from({ length: 30 }, () => createAttendee(db(), event.id)));
    const device = await door([event.id]);
    const input = encodeURIComponent(JSON.stringify({ json: { eventId: event.id } }));
    const res = await fetch(`${srv.url}/trpc/sync.download?input=${input}`, {
      headers: { authorization: `Bearer ${device.token}`, 'accept-encoding': 'gzip' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-encoding')).toBe('gzip');
  });
});

describe('sync.lookup (a door whose list is still downloading asks for one code)', () => {
  it('answers the attendee with its check-in state as download carries it; null for an unknown code or another event’s ticket; stores nothing', async () => {
    const [event, other] = [await createEvent(db()), await createEvent(db())];
    const [a, b] = [await createAttendee(db(), event.id), await createAttendee(db(), event.id, { status: 'cancelled' })];
    const stranger = await createAttendee(db(), other.id);
    const d = await door([event.id], 'Gate 4');
    await d.client.sync.push.mutate({ items: [scan(a, { scannedUtc: '2030-06-01 18:04:00' })] });

    const found = await d.client.sync.lookup.query({ eventId: event.id, codeHash: a.codeHash.toUpperCase() });
    const downloaded = (await downloadAll(d.client, event.id)).attendees.find((t) => t[0] === a.id);
    expect(found.attendee).toEqual(downloaded);
    expect(named(found.attendee!)).toMatchObject({ id: a.id, checkinCount: 1, lastCheckinUtc: '2030-06-01 18:04:00', lastCheckinDevice: 'Gate 4' });
    expect(named((await d.client.sync.lookup.query({ eventId: event.id, codeHash: b.codeHash })).attendee!)).toMatchObject({ id: b.id, status: 'cancelled' });
    expect((await d.client.sync.lookup.query({ eventId: event.id, codeHash: 'ab'.repeat(32) })).attendee).toBeNull();
    // a ticket of an event the door does not follow: no name or state leaks, as unknown as on the door's own list
    expect((await d.client.sync.lookup.query({ eventId: event.id, codeHash: stranger.codeHash })).attendee).toBeNull();
    const rows = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_checkins where event_id = ${event.id}`);
    expect(Number(rows[0]!.n)).toBe(1);
  });

  it('is refused for an event the device does not follow, and a malformed hash is 400 naming the field', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const a = await createAttendee(db(), other.id);
    const d = await door([mine.id]);
    expect(await trpcErrorCode(d.client.sync.lookup.query({ eventId: other.id, codeHash: a.codeHash }))).toBe('svc_forbidden');
    const bad = d.client.sync.lookup.query({ eventId: mine.id, codeHash: 'not-a-hash' });
    expect(await trpcErrorCode(bad)).toBe('svc_invalid_param');
    await expect(d.client.sync.lookup.query({ eventId: mine.id, codeHash: 'not-a-hash' })).rejects.toThrow(/codeHash/);
  });
});

describe('sync.pull', () => {
  it('answers what changed since the download cursor: new attendees, status changes, check-ins from other doors, then nothing', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id]);
    const other = await door([event.id], 'Gate 2');
    const { cursor } = await downloadAll(d.client, event.id);

    const b = await createAttendee(db(), event.id);
    await admin.api.patch(`/attendees/${a.id}`, { status: 'cancelled' });
    await other.client.sync.push.mutate({ items: [scan(b, { scannedUtc: '2030-06-01 18:30:00' })] });

    const pulled = live(await d.client.sync.pull.query({ cursor, eventIds: [event.id] }));
    expect(pulled.hasMore).toBe(false);
    const byId = new Map(pulled.attendees.map((t) => [t[0], named(t)]));
    expect(byId.get(a.id)).toMatchObject({ status: 'cancelled' });
    expect(byId.get(b.id)).toMatchObject({ checkinCount: 1, lastCheckinUtc: '2030-06-01 18:30:00', lastCheckinDevice: 'Gate 2' });
    expect(pulled.tombstones).toEqual({ events: [], attendees: [] });

    const quiet = live(await d.client.sync.pull.query({ cursor: pulled.cursor, eventIds: [event.id] }));
    expect(quiet.attendees).toEqual([]);
    expect(quiet.events).toEqual([]);
  });

  it('answers tombstones for deleted attendees and deleted events', async () => {
    const event = await createEvent(db());
    const empty = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const start = live(await trpcClient(srv.url, { cookie: admin.cookie }).sync.pull.query({ cursor: '0:0', eventIds: [event.id, empty.id] }));
    expect((await admin.api.delete(`/attendees/${a.id}`)).status).toBe(204);
    expect((await admin.api.delete(`/events/${empty.id}`)).status).toBe(204);
    const pulled = live(await trpcClient(srv.url, { cookie: admin.cookie }).sync.pull.query({ cursor: start.cursor, eventIds: [event.id, empty.id] }));
    expect(pulled.tombstones).toEqual({ events: [empty.id], attendees: [a.id] });
    expect(pulled.attendees).toEqual([]);
  });

  it('pages with hasMore; following the cursors returns every change once', async () => {
    const event = await createEvent(db());
    const d = await door([event.id]);
    const { cursor } = await downloadAll(d.client, event.id);
    const created = await Promise.all(Array.from({ length: 7 }, () => createAttendee(db(), event.id)));
    const seen: number[] = [];
    let at = cursor;
    for (let i = 0; i < 10; i++) {
      const page = live(await d.client.sync.pull.query({ cursor: at, eventIds: [event.id], limit: 3 }));
      seen.push(...page.attendees.map((t) => t[0]));
      at = page.cursor;
      if (!page.hasMore) break;
    }
    expect(seen.sort((x, y) => x - y)).toEqual(created.map((c) => c.id).sort((x, y) => x - y));
  });

  it('only answers the events the caller follows and may see', async () => {
    const [mine, other] = [await createEvent(db()), await createEvent(db())];
    const d = await door([mine.id]);
    expect(await trpcErrorCode(d.client.sync.pull.query({ cursor: '0:0', eventIds: [other.id] }))).toBe('svc_forbidden');
    const { cursor } = await downloadAll(d.client, mine.id);
    await createAttendee(db(), other.id);
    const pulled = live(await d.client.sync.pull.query({ cursor, eventIds: [mine.id] }));
    expect(pulled.attendees).toEqual([]);
  });

  it('a cursor past the change log’s ranges is 400 svc_invalid_param, not a failed query (500); the largest valid one is answered', async () => {
    const event = await createEvent(db());
    const d = await door([event.id]);
    for (const cursor of ['99999999999999999999:0', '18446744073709551616:0', '1:9223372036854775808', '1:99999999999999999999']) {
      expect(await trpcErrorCode(d.client.sync.pull.query({ cursor, eventIds: [event.id] }))).toBe('svc_invalid_param');
    }
    expect(live(await d.client.sync.pull.query({ cursor: '18446744073709551615:9007199254740991', eventIds: [event.id] })).attendees).toEqual([]);
  });

  it('a cursor older than the retained history answers reset; a fresh download cursor works again', async () => {
    const event = await createEvent(db());
    await createAttendee(db(), event.id);
    const d = await door([event.id]);
    const old = await downloadAll(d.client, event.id);
    await createAttendee(db(), event.id);
    // Retention: prune everything older than 30 days, seen from 31 days ahead.
    const deleted = await syncService(srv.server.ctx).pruneChanges(30, Date.now() + 31 * 86_400_000);
    expect(deleted).toBeGreaterThan(0);
    expect(await d.client.sync.pull.query({ cursor: old.cursor, eventIds: [event.id] })).toEqual({ reset: true });
    const fresh = await downloadAll(d.client, event.id);
    expect(fresh.attendees).toHaveLength(2);
    expect(live(await d.client.sync.pull.query({ cursor: fresh.cursor, eventIds: [event.id] })).reset).toBe(false);
  });

  it('an idle device’s cursor moves forward, so pruning other events’ history does not reset it', async () => {
    const [quietEvent, busyEvent] = [await createEvent(db()), await createEvent(db())];
    const d = await door([quietEvent.id]);
    const { cursor } = await downloadAll(d.client, quietEvent.id);
    await createAttendee(db(), busyEvent.id);
    const later = live(await d.client.sync.pull.query({ cursor, eventIds: [quietEvent.id] }));
    expect(BigInt(later.cursor.split(':')[0]!)).toBeGreaterThan(BigInt(cursor.split(':')[0]!));
    await syncService(srv.server.ctx).pruneChanges(30, Date.now() + 31 * 86_400_000);
    expect(live(await d.client.sync.pull.query({ cursor: later.cursor, eventIds: [quietEvent.id] })).reset).toBe(false);
  });

  it('a pushed batch is logged as one change row per event, and pull answers every attendee it checked in, with the new counts', async () => {
    const [first, second] = [await createEvent(db()), await createEvent(db())];
    const guests = await Promise.all(Array.from({ length: 6 }, (_, i) => createAttendee(db(), i < 4 ? first.id : second.id)));
    const d = await door([first.id, second.id]);
    const other = await door([first.id, second.id], 'Gate 2');
    const { cursor } = await downloadAll(d.client, first.id);
    const logged = sql`select count(*)::int as n from svc_changes where entity = 'checkins' and event_id in (${first.id}, ${second.id})`;
    const before = (await queryRows<{ n: number }>(db(), logged))[0]!.n;
    const pushed = await other.client.sync.push.mutate({ items: guests.map((g) => scan(g, { scannedUtc: '2030-06-01 18:40:00' })) });
    expect(pushed.results.every((r) => r.status === 'inserted')).toBe(true);
    expect((await queryRows<{ n: number }>(db(), logged))[0]!.n - before).toBe(2);

    const pulled = live(await d.client.sync.pull.query({ cursor, eventIds: [first.id, second.id] }));
    expect(pulled.attendees.map((t) => t[0]).sort((x, y) => x - y)).toEqual(guests.map((g) => g.id).sort((x, y) => x - y));
    for (const t of pulled.attendees) expect(named(t)).toMatchObject({ checkinCount: 1, lastCheckinUtc: '2030-06-01 18:40:00', lastCheckinDevice: 'Gate 2' });
  });

  it('pages of pushed batches stay near the limit in attendees, a batch bigger than the limit still moves the cursor, and no attendee is lost', async () => {
    const event = await createEvent(db());
    const guests = await Promise.all(Array.from({ length: 9 }, () => createAttendee(db(), event.id)));
    const d = await door([event.id]);
    const { cursor } = await downloadAll(d.client, event.id);
    for (const batch of [guests.slice(0, 4), guests.slice(4, 5), guests.slice(5, 6), guests.slice(6, 9)]) {
      await d.client.sync.push.mutate({ items: batch.map((g) => scan(g)) });
    }
    const pages: number[][] = [];
    let at = cursor;
    for (let i = 0; i < 10; i++) {
      const page = live(await d.client.sync.pull.query({ cursor: at, eventIds: [event.id], limit: 2 }));
      pages.push(page.attendees.map((t) => t[0]));
      at = page.cursor;
      if (!page.hasMore) break;
    }
    // the 4-scan batch alone (over the limit, but a page always takes one), then 1 + 1, then 3
    expect(pages.map((p) => p.length)).toEqual([4, 2, 3]);
    expect(pages.flat().sort((x, y) => x - y)).toEqual(guests.map((g) => g.id).sort((x, y) => x - y));
  });

  it('an annulled check-in reaches pull as a change of its attendee', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id]);
    const [stored] = (await d.client.sync.push.mutate({ items: [scan(a)] })).results;
    const { cursor } = await downloadAll(d.client, event.id);
    expect(named((await downloadAll(d.client, event.id)).attendees[0]!)).toMatchObject({ checkinCount: 1 });
    expect((await admin.api.post(`/checkins/${(stored as { checkinId: number }).checkinId}/annul`, {})).status).toBe(200);
    const pulled = live(await d.client.sync.pull.query({ cursor, eventIds: [event.id] }));
    expect(pulled.attendees.map(named)).toEqual([expect.objectContaining({ id: a.id, checkinCount: 0 })]);
  });

  it('every write path is logged by the triggers (a raw SQL update included)', async () => {
    const event = await createEvent(db());
    const a = await createAttendee(db(), event.id);
    const d = await door([event.id]);
    const { cursor } = await downloadAll(d.client, event.id);
    await db().execute(sql`update svc_attendees set display_name = 'Renamed by SQL' where id = ${a.id}`);
    const pulled = live(await d.client.sync.pull.query({ cursor, eventIds: [event.id] }));
    expect(named(pulled.attendees[0]!)).toMatchObject({ id: a.id, displayName: 'Renamed by SQL' });
  });
});

describe('retention job', () => {
  it('runs hourly from the job table: one queued run per hour across instances, each run queueing the next', async () => {
    const pruneJobs = sql`select state from svc_jobs where type = ${PRUNE_CHANGES_JOB}`;
    // start-up queued this hour's run; scheduling again (another instance starting) adds none
    await srv.server.ctx.jobs.scheduleRecurring();
    expect(await queryRows(db(), pruneJobs)).toEqual([{ state: 'queued' }]);
    await srv.server.ctx.jobs.runDue();
    // the run is done and has queued the next hour's, not due yet
    expect(await queryRows(db(), sql`${pruneJobs} order by id`)).toEqual([{ state: 'done' }, { state: 'queued' }]);
    expect(await srv.server.ctx.jobs.runDue()).toBe(0);
  });
});

describe('sync.pull: booking types and slots for offline booking pages', () => {
  it('answers every published booking type when asked (never drafts), and nothing when not asked', async () => {
    const host = await createHost(admin.api);
    const published = await createType(admin.api, { title: 'Offline consult', hosts: [host] });
    const draft = await createType(admin.api, { title: 'Hidden draft', status: 'draft', hosts: [host] });
    const event = await createEvent(db());
    const d = await door([event.id]);
    const { cursor } = await downloadAll(d.client, event.id);

    const plain = live(await d.client.sync.pull.query({ cursor, eventIds: [event.id] }));
    expect(plain.bookingTypes).toBeUndefined();
    expect(plain.slots).toBeUndefined();

    const asked = live(await d.client.sync.pull.query({ cursor, eventIds: [event.id], bookingTypes: true }));
    const ids = asked.bookingTypes!.map((t) => t.id);
    expect(ids).toContain(published.id);
    expect(ids).not.toContain(draft.id);
    expect(asked.bookingTypes!.find((t) => t.id === published.id)).toMatchObject({ title: 'Offline consult', currency: 'USD', durationMinutes: 60 });
  });

  it('answers a slot snapshot with its time for each requested published type, none for a draft, and a booked slot is gone', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host] });
    const draft = await createType(admin.api, { status: 'draft', hosts: [host] });
    const event = await createEvent(db());
    const d = await door([event.id]);
    const { cursor } = await downloadAll(d.client, event.id);

    const first = live(
      await d.client.sync.pull.query({ cursor, eventIds: [event.id], slotTypeIds: [type.id, draft.id], slotDays: 3, slotTz: 'Europe/Berlin' }),
    );
    expect(first.slots!.map((s) => s.bookingTypeId)).toEqual([type.id]);
    const snapshot = first.slots![0]!;
    expect(snapshot.asOfUtc).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(snapshot.slots.length).toBeGreaterThan(0);
    expect(snapshot.slots.every((s) => s.start.endsWith('+01:00') || s.start.endsWith('+02:00'))).toBe(true);
    const taken = futureStart(1, 10);
    expect(snapshot.slots.map((s) => s.start_utc)).toContain(taken);

    disableIpThrottle(srv.server.ctx.hooks);
    const booked = await submitBooking(srv.url, bookingBody(type.id, taken), await fetchNonce(srv.url));
    expect(booked.status).toBe(201);
    const second = live(await d.client.sync.pull.query({ cursor, eventIds: [event.id], slotTypeIds: [type.id], slotDays: 3 }));
    expect(second.slots![0]!.slots.map((s) => s.start_utc)).not.toContain(taken);
  });
});
