import { beforeAll, describe, expect, it } from 'vitest';
import { createAttendee } from '../helpers/checkin';
import { useTestServer } from '../helpers/test-server';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';

// Real PostgreSQL (a pool of connections): a bulk move to going takes the event row lock a sign-up takes.
const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
const noIpThrottle = () => '';
beforeAll(() => {
  // 20 posts from one address: the per-IP throttle is not what this test is about.
  srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', noIpThrottle, 50);
});

describe('a bulk move to going under concurrent sign-ups', () => {
  it('50 waitlisted for 30 free seats: the move and the racing sign-ups fill exactly the 30, never beyond', async () => {
    const event = await createEvent(admin.api, { capacity: 40, waitlist: true });
    for (let i = 0; i < 10; i++) await createAttendee(db(), event.id);
    const waitlisted = new Set<number>();
    for (let i = 0; i < 50; i++) waitlisted.add((await createAttendee(db(), event.id, { status: 'waitlist' })).id);

    const started = await admin.api.post('/attendees/bulk', { eventId: event.id, action: 'going', query: { status: 'waitlist' } });
    expect(started.body.count).toBe(50);
    const [, ...signups] = await Promise.all([srv.server.ctx.jobs.runDue(), ...Array.from({ length: 20 }, () => signUp(srv, event.id))]);
    expect(signups.map((r) => r.status)).toEqual(Array(20).fill(201));

    const rows = await attendeeRows(srv, event.id);
    const going = rows.filter((r) => r.status === 'going');
    const moved = going.filter((r) => waitlisted.has(r.id)).length;
    const signedUpGoing = signups.filter((r) => r.body.status === 'going').length;
    expect(going.reduce((seats, r) => seats + r.quantity, 0)).toBe(40);
    expect(moved + signedUpGoing).toBe(30);
    const progress = (await admin.api.get(`/jobs/${started.body.jobId}`)).body;
    expect(progress).toMatchObject({ state: 'done', total: 50, done: moved, failed: 50 - moved });
  });
});
