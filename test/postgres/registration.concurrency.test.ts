import { beforeAll, describe, expect, it } from 'vitest';
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
});
