import { describe, expect, it } from 'vitest';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { apiClient, loginAs } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { inviteUid } from '../../server/modules/booking/booking.notifications';

// Private calendar feeds of bookings (docs/api.md#calendar-feeds), on both databases.
const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });

let userSeq = 0;
async function signedInUser(role: 'host' | 'staff', displayName: string) {
  userSeq += 1;
  const email = `feed-${role}${userSeq}-${process.pid}@example.test`;
  const created = await admin.api.post('/users', { email, displayName, role, password: 'long enough password' });
  expect(created.status).toBe(201);
  return { id: created.body.id as number, session: await loginAs(srv.url, email, 'long enough password') };
}

async function book(typeId: number, days: number, customerName: string) {
  const off = disableIpThrottle(srv.server.ctx.hooks);
  try {
    const res = await submitBooking(srv.url, bookingBody(typeId, futureStart(days, 9), { customerName }));
    expect(res.status).toBe(201);
    return { id: res.body.bookingId as number };
  } finally {
    off();
  }
}

/** The feed as a calendar app fetches it: no cookie, the address alone (on the test server's port). */
async function fetchFeed(url: string) {
  const res = await fetch(`${srv.url}${new URL(url).pathname}`);
  return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
}

/** The VEVENT blocks of a calendar, unfolded. */
const eventsOf = (ics: string) =>
  ics
    .replace(/\r\n /g, '')
    .split('BEGIN:VEVENT')
    .slice(1)
    .map((block) => block.split('END:VEVENT')[0]!);

describe('private calendar feeds', () => {
  it("a host's feed lists their own bookings under the invite's UID, and no one else's; it needs no cookie", async () => {
    const ada = await signedInUser('host', 'Ada Host');
    const bob = await signedInUser('host', 'Bob Host');
    const adaType = await createType(admin.api, { title: 'Tax advice', hosts: [ada.id], locationMode: 'in_person', locationValue: 'Room 4' });
    const bobType = await createType(admin.api, { title: 'Piano lesson', hosts: [bob.id] });
    const mine = await book(adaType.id, 3, 'Vera Visitor');
    await book(bobType.id, 3, 'Otto Other');

    expect((await ada.session.api.get(`/hosts/${ada.id}/feed`)).body).toEqual({ scope: 'host', url: null, webcalUrl: null, createdUtc: null });
    const made = await ada.session.api.post(`/hosts/${ada.id}/feed`, {});
    expect(made.status).toBe(201);
    expect(made.body.url).toMatch(/\/svc\/v1\/feeds\/[A-Za-z0-9_-]+\.ics$/);
    expect(made.body.webcalUrl).toBe(made.body.url.replace(/^https?:/, 'webcal:'));
    expect((await ada.session.api.get(`/hosts/${ada.id}/feed`)).body.url).toBe(made.body.url);

    const feed = await fetchFeed(made.body.url);
    expect(feed.status).toBe(200);
    expect(feed.type).toContain('text/calendar');
    expect(feed.text).toContain('X-WR-CALNAME:Bookings with Ada Host');
    const events = eventsOf(feed.text);
    expect(events).toHaveLength(1);
    expect(events[0]).toContain(`UID:${inviteUid(srv.server.ctx, mine.id)}`);
    expect(events[0]).toContain('SUMMARY:Tax advice: Vera Visitor');
    expect(events[0]).toContain('LOCATION:');
    expect(events[0]).toContain('Room 4');
    expect(events[0]).toContain('STATUS:CONFIRMED');
    expect(feed.text).not.toContain('Otto Other');

    // a cancelled booking leaves the feed
    expect((await admin.api.patch(`/bookings/${mine.id}`, { status: 'cancelled' })).status).toBe(200);
    expect(eventsOf((await fetchFeed(made.body.url)).text)).toHaveLength(0);
  });

  it("the administrator's feed lists every host's bookings; only administrators have one", async () => {
    const host = await signedInUser('host', 'Cleo Host');
    const type = await createType(admin.api, { title: 'Fitting', hosts: [host.id] });
    const booked = await book(type.id, 5, 'Wanda Walker');
    const made = await admin.api.post('/feeds/all', {});
    expect(made.status).toBe(201);
    const feed = await fetchFeed(made.body.url);
    expect(feed.text).toContain('X-WR-CALNAME:All bookings');
    expect(eventsOf(feed.text).some((e) => e.includes(`UID:${inviteUid(srv.server.ctx, booked.id)}`))).toBe(true);
    expect((await host.session.api.get('/feeds/all')).status).toBe(403);
    expect((await host.session.api.post('/feeds/all', {})).status).toBe(403);
  });

  it('a host may manage only their own feed, an administrator anyone’s; staff and anonymous callers are refused', async () => {
    const dan = await signedInUser('host', 'Dan Host');
    const eve = await signedInUser('host', 'Eve Host');
    const staff = await signedInUser('staff', 'Sam Staff');
    expect((await dan.session.api.get(`/hosts/${eve.id}/feed`)).status).toBe(403);
    expect((await dan.session.api.post(`/hosts/${eve.id}/feed`, {})).status).toBe(403);
    expect((await staff.session.api.get(`/hosts/${eve.id}/feed`)).status).toBe(403);
    expect((await apiClient(srv.url).get(`/hosts/${eve.id}/feed`)).status).toBe(401);
    const forEve = await admin.api.post(`/hosts/${eve.id}/feed`, {});
    expect(forEve.status).toBe(201);
    expect((await eve.session.api.get(`/hosts/${eve.id}/feed`)).body.url).toBe(forEve.body.url);
    const unknown = await admin.api.get('/hosts/99999999/feed');
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('svc_not_found');
  });

  it('a replaced address stops at once, a revoked one too, and a forged one is 404 like an unknown one', async () => {
    const fay = await signedInUser('host', 'Fay Host');
    const first = (await fay.session.api.post(`/hosts/${fay.id}/feed`, {})).body.url as string;
    const second = (await fay.session.api.post(`/hosts/${fay.id}/feed`, {})).body.url as string;
    expect(second).not.toBe(first);
    expect((await fetchFeed(first)).status).toBe(404);
    expect((await fetchFeed(second)).status).toBe(200);
    // the same row and nonce with another signature
    const forged = second.replace(/([0-9a-f])\.ics$/, (_, c: string) => `${c === '0' ? '1' : '0'}.ics`);
    const refused = await fetchFeed(forged);
    expect(refused.status).toBe(404);
    expect(JSON.parse(refused.text).code).toBe('svc_not_found');
    expect((await fetchFeed(`${srv.url}/svc/v1/feeds/1-nothing.ics`)).status).toBe(404);
    expect((await fay.session.api.delete(`/hosts/${fay.id}/feed`)).status).toBe(204);
    expect((await fetchFeed(second)).status).toBe(404);
    expect((await fay.session.api.get(`/hosts/${fay.id}/feed`)).body.url).toBeNull();
  });
});
