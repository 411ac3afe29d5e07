import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../server/db/client';
import { useTestServer } from '../helpers/test-server';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';

// Real PostgreSQL (a pool of connections): the event row lock must serialise seat decisions.
const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });
const noIpThrottle = () => '';
beforeAll(async () => {
  // 50 posts from one address: the per-IP throttle is not what this test is about.
  srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', noIpThrottle, 50);
});

describe('concurrent sign-ups never oversell', () => {
  it('50 parallel sign-ups for 10 seats give exactly 10 going and 40 waitlist', async () => {
    const event = await createEvent(admin.api, { capacity: 10, waitlist: true });
    const results = await Promise.all(Array.from({ length: 50 }, () => signUp(srv, event.id)));
    expect(results.map((r) => r.status)).toEqual(Array(50).fill(201));
    const rows = await attendeeRows(srv, event.id);
    expect(rows.filter((r) => r.status === 'going')).toHaveLength(10);
    expect(rows.filter((r) => r.status === 'waitlist')).toHaveLength(40);
    expect(results.filter((r) => r.body.status === 'going')).toHaveLength(10);
  });

  it('without a waitlist: exactly 10 stored, the other 40 answer 409 svc_event_full', async () => {
    const event = await createEvent(admin.api, { capacity: 10, waitlist: false });
    const results = await Promise.all(Array.from({ length: 50 }, () => signUp(srv, event.id)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(40);
    expect(refused.every((r) => r.body.code === 'svc_event_full')).toBe(true);
    expect(await attendeeRows(srv, event.id)).toHaveLength(10);
  });

  it('two tickets at a time: 30 parallel sign-ups of 2 for 10 seats hold exactly 10 seats', async () => {
    const event = await createEvent(admin.api, { capacity: 10, waitlist: true });
    await Promise.all(Array.from({ length: 30 }, () => signUp(srv, event.id, { quantity: 2 })));
    const going = (await attendeeRows(srv, event.id)).filter((r) => r.status === 'going');
    expect(going.reduce((sum, r) => sum + r.quantity, 0)).toBe(10);
  });

  it('a sign-up for an event already full without a waitlist is refused while another transaction holds the event row', async () => {
    const event = await createEvent(admin.api, { capacity: 1, waitlist: false });
    expect((await signUp(srv, event.id)).status).toBe(201);
    // If the refusal queued on the row lock, this would wait for the transaction that never ends before it.
    await srv.server.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select id from svc_events where id = ${event.id} for update`);
      const refused = await signUp(srv, event.id);
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('svc_event_full');
    });
    expect(await attendeeRows(srv, event.id)).toHaveLength(1);
  });

  it('a sign-up that fits waits for the event row and then sees the seat taken while it waited', async () => {
    const event = await createEvent(admin.api, { capacity: 1, waitlist: false });
    let pending: ReturnType<typeof signUp> | undefined;
    await srv.server.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select id from svc_events where id = ${event.id} for update`);
      pending = signUp(srv, event.id);
      // The other sign-up cannot be decided before this transaction takes the last seat and commits.
      await tx.execute(
        sql`insert into svc_attendees (event_id, email, display_name, quantity, status, cancel_token, ticket_code, ticket_code_hash)
            values (${event.id}, 'first@example.test', 'First', 1, 'going', repeat('a', 64), 'first-code', repeat('b', 64))`,
      );
      await waitForLockWaiter(tx);
    });
    const refused = await pending!;
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('svc_event_full');
    expect(await attendeeRows(srv, event.id)).toHaveLength(1);
  });
});

/** Returns once another session of this database waits on a lock (the sign-up queued on the event row). */
async function waitForLockWaiter(tx: Db): Promise<void> {
  for (;;) {
    const [row] = await queryRows<{ n: number }>(
      tx,
      sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
    );
    if (Number(row?.n) > 0) return;
  }
}
