/**
 * PostgreSQL only: what needs real concurrent connections — two pushes of one batch racing,
 * and a transaction that commits after a later one (the cursor must not skip it).
 */
import { randomUUID } from 'node:crypto';
import postgres from 'postgres';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, queryRows, type Database } from '../../server/db/client';
import type { AppContext } from '../../server/context';
import { syncService } from '../../server/modules/sync/sync.service';
import type { Principal } from '../../server/auth/principal';
import { randomToken, sha256Hex } from '../../server/security/crypto';
import type { PullResult } from '../../shared/checkin';
import { useTestServer } from '../helpers/test-server';
import { createAttendee, createEvent, pairDevice, scan, trpcClient } from '../helpers/checkin';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
let second: Database;
const fired: number[] = [];

beforeAll(async () => {
  if (srv.server.ctx.database.kind !== 'postgres') throw new Error('this file needs PostgreSQL (TEST_DATABASE_URL)');
  // A second, independent connection pool on the same database.
  second = await openDatabase({ url: srv.server.ctx.env.DATABASE_URL! });
  srv.server.ctx.hooks.addAction('svc_pro_attendee_checked_in', (checkinId: number) => void fired.push(checkinId));
});
afterAll(() => second?.close());

const live = (r: PullResult) => {
  if (r.reset) throw new Error('unexpected reset');
  return r;
};

describe('concurrent pushes of the same batch', () => {
  it('from two connections store every scan exactly once; each scan is inserted by one push and duplicate in the other, with the same id', async () => {
    const event = await createEvent(db());
    const attendees = await Promise.all(Array.from({ length: 50 }, () => createAttendee(db(), event.id)));
    const device = await pairDevice(srv.url, admin.api, [event.id]);
    const principal: Principal = { via: 'token', role: 'staff', userId: null, eventIds: [event.id], deviceId: device.id };
    const items = Array.from({ length: 500 }, (_, i) => scan(attendees[i % attendees.length]!));
    const ctxA = srv.server.ctx;
    const ctxB: AppContext = { ...srv.server.ctx, db: second.db };

    for (let round = 0; round < 3; round++) {
      const batch = items.map((i) => ({ ...i, clientId: randomUUID() }));
      fired.length = 0;
      const [a, b] = await Promise.all([syncService(ctxA).push({ items: batch }, principal), syncService(ctxB).push({ items: batch }, principal)]);
      for (let i = 0; i < batch.length; i++) {
        const ra = a.results[i]!;
        const rb = b.results[i]!;
        expect([ra.status, rb.status].sort()).toEqual(['duplicate', 'inserted']);
        expect((ra as { checkinId: number }).checkinId).toBe((rb as { checkinId: number }).checkinId);
      }
      const [{ n }] = await queryRows<{ n: number }>(
        db(),
        sql`select count(*)::int as n from svc_checkins where client_id in (select value::uuid from jsonb_array_elements_text(${JSON.stringify(batch.map((i) => i.clientId))}::jsonb))`,
      );
      expect(n).toBe(batch.length);
      expect(fired).toHaveLength(batch.length);
      expect(new Set(fired).size).toBe(batch.length);
    }
  });

  it('over HTTP: three identical pushes at once leave one row per scan', async () => {
    const event = await createEvent(db());
    const attendees = await Promise.all(Array.from({ length: 20 }, () => createAttendee(db(), event.id)));
    const device = await pairDevice(srv.url, admin.api, [event.id]);
    const items = attendees.map((a) => scan(a));
    const clients = [1, 2, 3].map(() => trpcClient(srv.url, { bearer: device.token }));
    const answers = await Promise.all(clients.map((c) => c.sync.push.mutate({ items })));
    const [{ n }] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_checkins where event_id = ${event.id}`);
    expect(n).toBe(items.length);
    for (let i = 0; i < items.length; i++) {
      const statuses = answers.map((a) => a.results[i]!.status);
      expect(statuses.filter((s) => s === 'inserted')).toHaveLength(1);
      expect(new Set(answers.map((a) => (a.results[i] as { checkinId: number }).checkinId)).size).toBe(1);
    }
  });
});

describe('the pull cursor and out-of-order commits', () => {
  it('withholds a change committed by a later transaction while an earlier one is open, then returns both: nothing skipped', async () => {
    const event = await createEvent(db());
    const device = await pairDevice(srv.url, admin.api, [event.id]);
    const door = trpcClient(srv.url, { bearer: device.token });
    const start = (await door.sync.download.query({ eventId: event.id })).cursor!;

    const url = srv.server.ctx.env.DATABASE_URL!;
    const connA = postgres(url, { max: 1, onnotice: () => {} });
    const connB = postgres(url, { max: 1, onnotice: () => {} });
    const insertAttendee = (name: string) => {
      const code = randomToken(18);
      return `insert into svc_attendees (event_id, email, display_name, quantity, status, cancel_token, ticket_code, ticket_code_hash)
              values (${event.id}, '${name}@example.test', '${name}', 1, 'going', '${randomToken(48)}', '${code}', '${sha256Hex(code)}') returning id`;
    };
    try {
      // A begins first and writes first (smaller txid, smaller change id) but commits last.
      const reservedA = await connA.reserve();
      await reservedA.unsafe('begin');
      const [rowA] = await reservedA.unsafe(insertAttendee('Transaction A'));
      const [rowB] = await connB.begin((tx) => tx.unsafe(insertAttendee('Transaction B')));
      const idA = Number(rowA!.id);
      const idB = Number(rowB!.id);

      const whileOpen = live(await door.sync.pull.query({ cursor: start, eventIds: [event.id] }));
      const seenWhileOpen = whileOpen.attendees.map((t) => t[0]);
      // A naive serial cursor would hand out B now and move past A's change for good.
      expect(seenWhileOpen).not.toContain(idA);
      expect(seenWhileOpen).not.toContain(idB);

      await reservedA.unsafe('commit');
      reservedA.release();

      const afterCommit = live(await door.sync.pull.query({ cursor: whileOpen.cursor, eventIds: [event.id] }));
      expect(afterCommit.attendees.map((t) => t[0]).sort((x, y) => x - y)).toEqual([idA, idB].sort((x, y) => x - y));
      const nothingLeft = live(await door.sync.pull.query({ cursor: afterCommit.cursor, eventIds: [event.id] }));
      expect(nothingLeft.attendees).toEqual([]);
    } finally {
      await connA.end({ timeout: 1 });
      await connB.end({ timeout: 1 });
    }
  });
});
