import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import type { StoredAttachment } from '../../server/mail/outbox.sql';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking, uniqueEmail } from '../helpers/booking';
import { apiClient, loginAs, type Session } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';

// A host's own space (docs/api.md#host-space) and meeting links (docs/decisions/044-meeting-links.md), on both databases.
const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

let userSeq = 0;
async function signedInUser(role: 'host' | 'staff', displayName: string): Promise<{ id: number; session: Session }> {
  userSeq += 1;
  const email = `space-${role}${userSeq}-${process.pid}@example.test`;
  const created = await admin.api.post('/users', { email, displayName, role, password: 'long enough password' });
  expect(created.status).toBe(201);
  return { id: created.body.id as number, session: await loginAs(srv.url, email, 'long enough password') };
}

async function book(typeId: number, startUtc: string, customerName = 'Vera Visitor') {
  const off = disableIpThrottle(srv.server.ctx.hooks);
  try {
    const email = uniqueEmail('space');
    const res = await submitBooking(srv.url, bookingBody(typeId, startUtc, { customerName, customerEmail: email }));
    expect(res.status).toBe(201);
    return { id: res.body.bookingId as number, email, created: res.body as Record<string, unknown> };
  } finally {
    off();
  }
}

interface OutboxRow {
  subject: string;
  text: string;
  attachments: StoredAttachment[];
}
const mailsTo = (email: string) => queryRows<OutboxRow>(db(), sql`select subject, text, attachments from svc_outbox where to_address = ${email} order by id`);
const icsOf = (mail: OutboxRow) => Buffer.from(mail.attachments[0]!.content, 'base64').toString('utf8').replace(/\r\n /g, '');

async function putPhoto(session: Session, userId: number, bytes: Uint8Array, type = 'image/jpeg') {
  const res = await fetch(`${srv.url}/svc/v1/hosts/${userId}/photo`, {
    method: 'PUT',
    headers: { cookie: session.cookie, origin: new URL(srv.url).origin, 'content-type': type },
    body: new Blob([new Uint8Array(bytes)]),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe("a host's own space", () => {
  it("a host lists their own bookings, upcoming soonest first then past; another host's and staff are refused, an administrator may look", async () => {
    const ada = await signedInUser('host', 'Ada Host');
    const bob = await signedInUser('host', 'Bob Host');
    const staff = await signedInUser('staff', 'Sam Staff');
    const adaType = await createType(admin.api, { title: 'Tax advice', hosts: [ada.id] });
    const bobType = await createType(admin.api, { title: 'Piano', hosts: [bob.id] });
    const later = await book(adaType.id, futureStart(6, 9), 'Later Lena');
    const sooner = await book(adaType.id, futureStart(2, 9), 'Sooner Sam');
    await book(bobType.id, futureStart(3, 9), 'Other Otto');

    const mine = await ada.session.api.get(`/hosts/${ada.id}/bookings`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('x-total-count')).toBe('2');
    expect(mine.body.map((b: { bookingId: number }) => b.bookingId)).toEqual([sooner.id, later.id]);
    expect((await ada.session.api.get(`/hosts/${ada.id}/bookings?q=lena`)).body.map((b: { bookingId: number }) => b.bookingId)).toEqual([later.id]);
    expect((await ada.session.api.get(`/hosts/${ada.id}/bookings?status=cancelled`)).body).toEqual([]);

    expect((await ada.session.api.get(`/hosts/${bob.id}/bookings`)).status).toBe(403);
    expect((await staff.session.api.get(`/hosts/${ada.id}/bookings`)).status).toBe(403);
    expect((await apiClient(srv.url).get(`/hosts/${ada.id}/bookings`)).status).toBe(401);
    expect((await admin.api.get(`/hosts/${ada.id}/bookings`)).body).toHaveLength(2);
    expect((await admin.api.get('/hosts/99999999/bookings')).status).toBe(404);
    // the admin-wide list stays administrators' own
    expect((await ada.session.api.get('/bookings')).status).toBe(403);
  });

  it('a host cancels their own booking and the visitor is mailed; they cannot cancel or move another host’s, and staff none', async () => {
    const cy = await signedInUser('host', 'Cy Host');
    const di = await signedInUser('host', 'Di Host');
    const staff = await signedInUser('staff', 'Stu Staff');
    const cyType = await createType(admin.api, { title: 'Fitting', hosts: [cy.id] });
    const diType = await createType(admin.api, { title: 'Lesson', hosts: [di.id] });
    const own = await book(cyType.id, futureStart(3, 10));
    const theirs = await book(diType.id, futureStart(3, 10));

    const refused = await cy.session.api.patch(`/bookings/${theirs.id}`, { status: 'cancelled' });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('svc_forbidden');
    expect((await cy.session.api.post(`/bookings/${theirs.id}/move`, { startUtc: futureStart(4, 10) })).status).toBe(403);
    expect((await staff.session.api.patch(`/bookings/${own.id}`, { status: 'cancelled' })).status).toBe(403);
    // a host who may cancel some bookings still learns nothing from an unknown id but 404
    expect((await cy.session.api.patch('/bookings/99999999', { status: 'cancelled' })).status).toBe(404);
    expect((await di.session.api.get(`/hosts/${di.id}/bookings`)).body[0].status).toBe('confirmed');

    const cancelled = await cy.session.api.patch(`/bookings/${own.id}`, { status: 'cancelled' });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('cancelled');
    const mails = await mailsTo(own.email);
    expect(mails.map((m) => m.subject)).toEqual(['Booking confirmed: Fitting', 'Booking cancelled: Fitting']);
    expect(icsOf(mails[1]!)).toContain('METHOD:CANCEL');
  });

  it('a host moves their own booking to another listed start; the visitor gets the moved mail', async () => {
    const eve = await signedInUser('host', 'Eve Host');
    const type = await createType(admin.api, { title: 'Checkup', hosts: [eve.id] });
    const booking = await book(type.id, futureStart(3, 9));
    const target = futureStart(5, 14);
    const moved = await eve.session.api.post(`/bookings/${booking.id}/move`, { startUtc: target });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ bookingId: booking.id, startUtc: target, rescheduledFrom: futureStart(3, 9) });
    const subjects = (await mailsTo(booking.email)).map((m) => m.subject);
    expect(subjects).toEqual(['Booking confirmed: Checkup', 'Booking moved: Checkup']);
    const bad = await eve.session.api.post(`/bookings/${booking.id}/move`, { startUtc: 'tomorrow' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('svc_invalid_param');
  });

  it('a host edits their name, bio and meeting link; bad input is refused naming the field and stores nothing', async () => {
    const fay = await signedInUser('host', 'Fay Host');
    const other = await signedInUser('host', 'Gus Host');
    expect((await fay.session.api.get(`/hosts/${fay.id}/profile`)).body).toMatchObject({
      userId: fay.id,
      displayName: 'Fay Host',
      bio: '',
      meetingUrl: '',
      photoUrl: null,
    });
    const saved = await fay.session.api.patch(`/hosts/${fay.id}/profile`, {
      displayName: 'Fay Fields',
      bio: 'Tax adviser since 2004.',
      meetingUrl: 'https://meet.example.test/fay',
    });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ displayName: 'Fay Fields', bio: 'Tax adviser since 2004.', meetingUrl: 'https://meet.example.test/fay' });

    for (const [patch, field] of [
      [{ bio: 'x'.repeat(501) }, 'bio'],
      [{ meetingUrl: 'http://meet.example.test/fay' }, 'meetingUrl'],
      [{ meetingUrl: 'javascript:alert(1)' }, 'meetingUrl'],
      [{ displayName: '' }, 'displayName'],
    ] as const) {
      const res = await fay.session.api.patch(`/hosts/${fay.id}/profile`, patch);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(Object.keys(res.body.data.params)).toContain(field);
    }
    expect((await fay.session.api.get(`/hosts/${fay.id}/profile`)).body).toMatchObject({
      displayName: 'Fay Fields',
      bio: 'Tax adviser since 2004.',
      meetingUrl: 'https://meet.example.test/fay',
    });
    expect((await other.session.api.patch(`/hosts/${fay.id}/profile`, { bio: 'hijacked' })).status).toBe(403);
    expect((await admin.api.patch(`/hosts/${fay.id}/profile`, { bio: 'Edited by the office.' })).body.bio).toBe('Edited by the office.');
  });

  it('a JPEG with EXIF is served re-encoded small without it, with an ETag and a long cache; a text file named .jpg is refused and stores nothing', async () => {
    const gil = await signedInUser('host', 'Gil Host');
    const jpeg = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withExifMerge({ IFD0: { Make: 'SecretCam', Model: 'Spy 3000', Copyright: 'Home address 12 Elm St' } })
      .toBuffer();
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    expect(jpeg.includes(Buffer.from('SecretCam'))).toBe(true);

    const text = Buffer.from('this is not an image, just text pretending\n');
    const refused = await putPhoto(gil.session, gil.id, text);
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('svc_invalid_param');
    expect(refused.body.data.params).toHaveProperty('photo');
    expect((await gil.session.api.get(`/hosts/${gil.id}/profile`)).body.photoUrl).toBeNull();
    expect((await fetch(`${srv.url}/svc/v1/hosts/${gil.id}/photo`)).status).toBe(404);

    const stored = await putPhoto(gil.session, gil.id, jpeg);
    expect(stored.status).toBe(200);
    expect(stored.body.photoUrl).toMatch(new RegExp(`^/svc/v1/hosts/${gil.id}/photo\\?v=[0-9a-f]+$`));
    const served = await fetch(`${srv.url}${stored.body.photoUrl}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('cache-control')).toContain('max-age=31536000');
    const etag = served.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('jpeg');
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(256);
    expect(bytes.includes(Buffer.from('SecretCam'))).toBe(false);
    expect(bytes.length).toBeLessThan(jpeg.length);
    expect((await fetch(`${srv.url}${stored.body.photoUrl}`, { headers: { 'if-none-match': etag } })).status).toBe(304);

    // another host may not change it; a refused upload keeps the photo there was
    const other = await signedInUser('host', 'Hal Host');
    expect((await putPhoto(other.session, gil.id, jpeg)).status).toBe(403);
    expect((await putPhoto(gil.session, gil.id, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), text]))).status).toBe(400);
    expect((await gil.session.api.get(`/hosts/${gil.id}/profile`)).body.photoUrl).toBe(stored.body.photoUrl);
  });

  it('the public booking type introduces its hosts with name, bio and photo address, never their email', async () => {
    const ivy = await signedInUser('host', 'Ivy Host');
    await ivy.session.api.patch(`/hosts/${ivy.id}/profile`, { bio: 'Speaks four languages.' });
    const type = await createType(admin.api, { title: 'Intro call', hosts: [ivy.id] });
    const seen = await apiClient(srv.url).get(`/booking-types/${type.id}`);
    expect(seen.status).toBe(200);
    expect(seen.body.hosts).toEqual([ivy.id]);
    expect(seen.body.hostProfiles).toEqual([{ userId: ivy.id, name: 'Ivy Host', bio: 'Speaks four languages.', photoUrl: null }]);
    expect(JSON.stringify(seen.body)).not.toContain('@example.test');
  });

  it('administrators list the hosts of booking types; hosts may not', async () => {
    const jo = await signedInUser('host', 'Jo Host');
    const type = await createType(admin.api, { title: 'Review', hosts: [jo.id] });
    await book(type.id, futureStart(2, 11));
    const list = await admin.api.get('/hosts');
    expect(list.status).toBe(200);
    expect(list.body.find((h: { userId: number }) => h.userId === jo.id)).toMatchObject({
      displayName: 'Jo Host',
      bookingTypeIds: [type.id],
      upcomingBookings: 1,
    });
    expect((await jo.session.api.get('/hosts')).status).toBe(403);
  });
});

describe('meeting links', () => {
  it("a virtual type's pattern gives each booking its own link, on the confirmation, in the mail and in the invite", async () => {
    const kim = await signedInUser('host', 'Kim Host');
    await admin.api.patch('/settings', { sellerName: 'Acme Clinic' });
    const type = await createType(admin.api, {
      title: 'Video call',
      hosts: [kim.id],
      locationMode: 'virtual',
      meetingLinkPattern: 'https://meet.jit.si/{org}-{token}-{id}',
    });
    expect(type.meetingLinkPattern).toBe('https://meet.jit.si/{org}-{token}-{id}');
    const first = await book(type.id, futureStart(2, 9));
    const second = await book(type.id, futureStart(2, 11));
    const link = first.created.meetingUrl as string;
    expect(link).toMatch(new RegExp(`^https://meet\\.jit\\.si/acme-clinic-[A-Za-z0-9_-]{22}-${first.id}$`));
    expect(second.created.meetingUrl).not.toBe(link);
    const [token] = await queryRows<{ cancel_token: string }>(db(), sql`select cancel_token from svc_bookings where booking_id = ${first.id}`);
    expect(link).not.toContain(token!.cancel_token);

    const [mail] = await mailsTo(first.email);
    expect(mail!.text).toContain(`Join online: ${link}`);
    const ics = icsOf(mail!);
    expect(ics).toContain(`LOCATION:${link}`);
    expect(ics).toContain(`DESCRIPTION:Join online: ${link}`);
    expect((await apiClient(srv.url).get(`/bookings/${token!.cancel_token}`)).body.meetingUrl).toBe(link);
    // the host's private feed carries it too
    const feedUrl = (await kim.session.api.post(`/hosts/${kim.id}/feed`, {})).body.url as string;
    const feed = (await (await fetch(`${srv.url}${new URL(feedUrl).pathname}`)).text()).replace(/\r\n /g, '');
    expect(feed).toContain(`LOCATION:${link}`);
  });

  it("without a pattern a virtual booking takes the host's own meeting link; an in-person one has none", async () => {
    const lou = await signedInUser('host', 'Lou Host');
    await lou.session.api.patch(`/hosts/${lou.id}/profile`, { meetingUrl: 'https://video.example.test/lou' });
    const virtual = await createType(admin.api, { title: 'Online', hosts: [lou.id], locationMode: 'virtual' });
    const inPerson = await createType(admin.api, { title: 'Office', hosts: [lou.id], locationMode: 'in_person', locationValue: 'Room 1' });
    expect((await book(virtual.id, futureStart(3, 9))).created.meetingUrl).toBe('https://video.example.test/lou');
    expect((await book(inPerson.id, futureStart(3, 12))).created).not.toHaveProperty('meetingUrl');
  });

  it('a pattern that is not https or names an unknown placeholder is refused as svc_invalid_param and stores nothing', async () => {
    for (const pattern of ['http://meet.jit.si/{token}', 'https://meet.jit.si/{secret}', 'javascript:alert({id})', 'https://meet.jit.si/{token']) {
      const res = await admin.api.post('/booking-types', { title: 'Bad link', durationMinutes: 30, locationMode: 'virtual', meetingLinkPattern: pattern });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(res.body.data.params).toHaveProperty('meetingLinkPattern');
    }
    const [count] = await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_booking_types where title = 'Bad link'`);
    expect(count!.n).toBe(0);
  });
});
