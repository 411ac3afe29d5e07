import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingBody, createType, disableIpThrottle, futureStart, submitBooking } from '../helpers/booking';
import { apiClient, loginAs } from '../helpers/http';
import { capturedLogger } from '../helpers/logs';
import { startRadicale, type Radicale } from '../helpers/radicale';
import { useTestServer } from '../helpers/test-server';

// External calendars block slots (docs/api.md#host-calendars): a real Radicale, a local ICS server.
const captured = capturedLogger('debug');
const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' }, logger: captured.logger });

let radicale: Radicale;
const responses: string[] = [];

beforeAll(async () => {
  radicale = await startRadicale();
  disableIpThrottle(hooks());
});
afterAll(() => radicale?.stop());

let userSeq = 0;
async function signedInUser(role: 'host' | 'staff') {
  userSeq += 1;
  const email = `cal-${role}${userSeq}-${process.pid}@example.test`;
  const created = await admin.api.post('/users', { email, displayName: `Cal ${role} ${userSeq}`, role, password: 'long enough password' });
  expect(created.status).toBe(201);
  return { id: created.body.id as number, session: await loginAs(srv.url, email, 'long enough password') };
}

/** Every answer is kept, to prove the password never appears in one. */
async function keep<T extends { body: unknown }>(res: Promise<T>): Promise<T> {
  const answer = await res;
  responses.push(JSON.stringify(answer.body));
  return answer;
}

const ics = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//svc test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const stamp = (utc: string) => utc.replace(/[-: ]/g, '').replace(/^(\d{8})(\d{6})$/, '$1T$2Z');
const at = (days: number, hour: number) => futureStart(days, hour);
const day = (days: number) => futureStart(days, 0).slice(0, 10);

async function slotStarts(typeId: number, fromDays: number, toDays: number): Promise<string[]> {
  const res = await apiClient(srv.url).get(`/booking-types/${typeId}/slots?from=${day(fromDays)}&to=${day(toDays)}`);
  expect(res.status).toBe(200);
  return (res.body.slots as Array<{ start_utc: string }>).map((s) => s.start_utc);
}

/** A weekly busy hour from `days` ahead, four weeks: week 2 excluded (EXDATE), week 3 moved four hours later. */
function weeklySeries(uid: string, days: number) {
  return ics(
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART:${stamp(at(days, 10))}`,
    `DTEND:${stamp(at(days, 11))}`,
    'RRULE:FREQ=WEEKLY;COUNT=4',
    `EXDATE:${stamp(at(days + 7, 10))}`,
    'SUMMARY:Team meeting',
    'END:VEVENT',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20260101T000000Z',
    `RECURRENCE-ID:${stamp(at(days + 14, 10))}`,
    `DTSTART:${stamp(at(days + 14, 14))}`,
    `DTEND:${stamp(at(days + 14, 15))}`,
    'SUMMARY:Team meeting (moved)',
    'END:VEVENT',
  );
}

/** A tiny ICS server: answers `body` with an ETag and 304 for a matching If-None-Match; counts requests. */
async function startIcsServer(body: () => string, contentType = 'text/calendar') {
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const etag = `"${Buffer.from(body()).length}-${body().length % 97}"`;
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, { etag }).end();
      return;
    }
    res.writeHead(200, { 'content-type': contentType, etag }).end(body());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/calendar.ics`,
    requests: () => requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('host calendars', () => {
  it('a CalDAV calendar with a weekly busy event removes those slots; the excluded week is offered and the moved instance blocks its new time', async () => {
    const host = await signedInUser('host');
    const type = await createType(admin.api, { hosts: [host.id] });
    const calendar = await radicale.makeCalendar('weekly');
    await radicale.putEvent(calendar, 'series-1', weeklySeries('series-1', 3));

    const before = await slotStarts(type.id, 3, 24);
    expect(before).toContain(at(3, 10));

    const made = await keep(
      host.session.api.post(`/hosts/${host.id}/calendars`, { kind: 'caldav', url: calendar, username: radicale.username, password: radicale.password }),
    );
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      userId: host.id,
      kind: 'caldav',
      url: calendar,
      username: radicale.username,
      hasPassword: true,
      status: 'ok',
      lastError: null,
      busyCount: 3,
    });
    expect(made.body).not.toHaveProperty('password');

    const after = await slotStarts(type.id, 3, 24);
    expect(after).not.toContain(at(3, 10));
    expect(after).toContain(at(3, 11));
    expect(after).toContain(at(10, 10)); // EXDATE: that week is free
    expect(after).toContain(at(17, 10)); // moved away from 10:00 …
    expect(after).not.toContain(at(17, 14)); // … to 14:00
    expect(after).not.toContain(at(24, 10));

    // the write path refuses a busy time too
    const refused = await submitBooking(srv.url, bookingBody(type.id, at(24, 10)));
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('svc_booking_slot_unavailable');

    const listed = await keep(host.session.api.get(`/hosts/${host.id}/calendars`));
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].id).toBe(made.body.id);
  });

  it("the buffers of the type are kept around a calendar's busy time", async () => {
    const host = await signedInUser('host');
    const type = await createType(admin.api, { hosts: [host.id], bufferAfterMinutes: 30 });
    const calendar = await radicale.makeCalendar('buffers');
    await radicale.putEvent(
      calendar,
      'single',
      ics('BEGIN:VEVENT', 'UID:single', 'DTSTAMP:20260101T000000Z', `DTSTART:${stamp(at(4, 12))}`, `DTEND:${stamp(at(4, 13))}`, 'END:VEVENT'),
    );
    expect(
      (await host.session.api.post(`/hosts/${host.id}/calendars`, { kind: 'caldav', url: calendar, username: radicale.username, password: radicale.password }))
        .status,
    ).toBe(201);
    const starts = await slotStarts(type.id, 4, 4);
    expect(starts).not.toContain(at(4, 11)); // its buffer after reaches into the busy hour
    expect(starts).not.toContain(at(4, 12));
    expect(starts).toContain(at(4, 13));
    expect(starts).toContain(at(4, 10));
  });

  it('a principal address finds its calendar; a refresh of an unchanged calendar costs one request; a change shows at once', async () => {
    const own = await startRadicale('ada', 'principal-pass-Q1');
    try {
      const calendar = await own.makeCalendar('main');
      await own.putEvent(
        calendar,
        'one',
        ics('BEGIN:VEVENT', 'UID:one', 'DTSTAMP:20260101T000000Z', `DTSTART:${stamp(at(5, 9))}`, `DTEND:${stamp(at(5, 10))}`, 'END:VEVENT'),
      );
      const host = await signedInUser('host');
      const type = await createType(admin.api, { hosts: [host.id] });
      const made = await keep(
        host.session.api.post(`/hosts/${host.id}/calendars`, { kind: 'caldav', url: `${own.url}/ada/`, username: 'ada', password: own.password }),
      );
      expect(made.status).toBe(201);
      expect(made.body.busyCount).toBe(1);
      expect(await slotStarts(type.id, 5, 5)).not.toContain(at(5, 9));

      await own.settled();
      const counted = own.requests().length;
      const refreshed = await keep(host.session.api.post(`/calendars/${made.body.id}/refresh`, {}));
      expect(refreshed.status).toBe(200);
      expect(refreshed.body).toMatchObject({ id: made.body.id, status: 'ok', busyCount: 1 });
      await own.settled();
      expect(own.requests().slice(counted)).toHaveLength(1);

      await own.putEvent(
        calendar,
        'two',
        ics('BEGIN:VEVENT', 'UID:two', 'DTSTAMP:20260101T000000Z', `DTSTART:${stamp(at(5, 15))}`, `DTEND:${stamp(at(5, 16))}`, 'END:VEVENT'),
      );
      expect((await host.session.api.post(`/calendars/${made.body.id}/refresh`, {})).body.busyCount).toBe(2);
      // the cached slot list is dropped: the host's epoch rose with the new busy set
      const starts = await slotStarts(type.id, 5, 5);
      expect(starts).not.toContain(at(5, 15));
      expect(starts).toContain(at(5, 12));
    } finally {
      await own.stop();
    }
  });

  it('an unreachable calendar shows as such with a safe message, and its last known busy time still blocks slots', async () => {
    const own = await startRadicale('bea', 'unreachable-pass-W2');
    const calendar = await own.makeCalendar('main');
    await own.putEvent(
      calendar,
      'gone',
      ics('BEGIN:VEVENT', 'UID:gone', 'DTSTAMP:20260101T000000Z', `DTSTART:${stamp(at(6, 9))}`, `DTEND:${stamp(at(6, 10))}`, 'END:VEVENT'),
    );
    const host = await signedInUser('host');
    const type = await createType(admin.api, { hosts: [host.id] });
    const made = await host.session.api.post(`/hosts/${host.id}/calendars`, { kind: 'caldav', url: calendar, username: 'bea', password: own.password });
    expect(made.status).toBe(201);
    await own.stop();

    const refreshed = await keep(host.session.api.post(`/calendars/${made.body.id}/refresh`, {}));
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.status).toBe('unreachable');
    expect(refreshed.body.lastError).toBe('connection refused');
    expect(refreshed.body.busyCount).toBe(1);
    expect(refreshed.body.lastSuccessUtc).toBe(made.body.lastSuccessUtc);
    // the administrator sees it too
    const seen = await keep(admin.api.get(`/hosts/${host.id}/calendars`));
    expect(seen.body[0]).toMatchObject({ status: 'unreachable', lastError: 'connection refused' });
    expect(await slotStarts(type.id, 6, 6)).not.toContain(at(6, 9));
    // a booking still waits on the calendar only briefly, and decides with the last known set
    const started = Date.now();
    expect((await submitBooking(srv.url, bookingBody(type.id, at(6, 9)))).status).toBe(409);
    expect((await submitBooking(srv.url, bookingBody(type.id, at(6, 12)))).status).toBe(201);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('an ICS address blocks its busy time; an unchanged file is answered 304 and keeps the set; a file change shows', async () => {
    let file = ics(
      'BEGIN:VEVENT',
      'UID:ics-1',
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${stamp(at(7, 9))}`,
      `DTEND:${stamp(at(7, 10))}`,
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:ics-free',
      'DTSTAMP:20260101T000000Z',
      `DTSTART:${stamp(at(7, 13))}`,
      `DTEND:${stamp(at(7, 14))}`,
      'TRANSP:TRANSPARENT',
      'END:VEVENT',
    );
    const server = await startIcsServer(() => file);
    try {
      const host = await signedInUser('host');
      const type = await createType(admin.api, { hosts: [host.id] });
      const made = await keep(admin.api.post(`/hosts/${host.id}/calendars`, { kind: 'ics', url: server.url }));
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ kind: 'ics', hasPassword: false, username: null, busyCount: 1, status: 'ok' });
      let starts = await slotStarts(type.id, 7, 7);
      expect(starts).not.toContain(at(7, 9));
      expect(starts).toContain(at(7, 13));

      const count = server.requests();
      expect((await admin.api.post(`/calendars/${made.body.id}/refresh`, {})).body).toMatchObject({ status: 'ok', busyCount: 1 });
      expect(server.requests()).toBe(count + 1);

      file = file.replace('TRANSP:TRANSPARENT', 'TRANSP:OPAQUE');
      expect((await admin.api.post(`/calendars/${made.body.id}/refresh`, {})).body.busyCount).toBe(2);
      starts = await slotStarts(type.id, 7, 7);
      expect(starts).not.toContain(at(7, 13));

      // disconnected: its busy time stops blocking at once
      expect((await admin.api.delete(`/calendars/${made.body.id}`)).status).toBe(204);
      expect(await slotStarts(type.id, 7, 7)).toContain(at(7, 9));
      expect((await admin.api.get(`/hosts/${host.id}/calendars`)).body).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('the background job reads every calendar not read for 5 minutes, each in its own outbound job', async () => {
    let file = ics();
    const server = await startIcsServer(() => file);
    try {
      const host = await signedInUser('host');
      const type = await createType(admin.api, { hosts: [host.id] });
      const made = await admin.api.post(`/hosts/${host.id}/calendars`, { kind: 'ics', url: server.url });
      expect(made.body.busyCount).toBe(0);
      file = ics('BEGIN:VEVENT', 'UID:job-1', 'DTSTAMP:20260101T000000Z', `DTSTART:${stamp(at(8, 9))}`, `DTEND:${stamp(at(8, 10))}`, 'END:VEVENT');
      expect(await slotStarts(type.id, 8, 8)).toContain(at(8, 9));

      // five minutes on (less 20 s): the calendar is due
      const later = Date.now() + 280_000;
      await srv.server.ctx.jobs.scheduleRecurring(later);
      await srv.server.ctx.jobs.runDue(later);
      const [after] = (await admin.api.get(`/hosts/${host.id}/calendars`)).body;
      expect(after).toMatchObject({ status: 'ok', busyCount: 1 });
      expect(await slotStarts(type.id, 8, 8)).not.toContain(at(8, 9));
    } finally {
      await server.close();
    }
  });

  it("making a booking reads the host's calendars again first: a busy time added since the last read is refused", async () => {
    let file = ics();
    const server = await startIcsServer(() => file);
    try {
      const host = await signedInUser('host');
      const type = await createType(admin.api, { hosts: [host.id] });
      const made = await admin.api.post(`/hosts/${host.id}/calendars`, { kind: 'ics', url: server.url });
      expect(made.status).toBe(201);
      expect(await slotStarts(type.id, 9, 9)).toContain(at(9, 9));
      file = ics('BEGIN:VEVENT', 'UID:late', 'DTSTAMP:20260101T000000Z', `DTSTART:${stamp(at(9, 9))}`, `DTEND:${stamp(at(9, 10))}`, 'END:VEVENT');
      // last read a minute ago: the write path does not skip it as just read
      await db().execute(sql`update svc_host_calendars set last_refreshed_utc = last_refreshed_utc - interval '1 minute' where id = ${made.body.id}`);
      const refused = await submitBooking(srv.url, bookingBody(type.id, at(9, 9)));
      expect(refused.status).toBe(409);
      expect((await admin.api.get(`/hosts/${host.id}/calendars`)).body[0].busyCount).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('a calendar that does not answer holds a booking back for about 2 seconds, then the booking is decided with the last known set', async () => {
    let hang = false;
    const pending: http.ServerResponse[] = [];
    const server = http.createServer((_req, res) => {
      if (hang) return void pending.push(res);
      res.writeHead(200, { 'content-type': 'text/calendar' }).end(ics());
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const host = await signedInUser('host');
      const type = await createType(admin.api, { hosts: [host.id] });
      const made = await admin.api.post(`/hosts/${host.id}/calendars`, {
        kind: 'ics',
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow.ics`,
      });
      expect(made.status).toBe(201);
      hang = true;
      await db().execute(sql`update svc_host_calendars set last_refreshed_utc = last_refreshed_utc - interval '1 minute' where id = ${made.body.id}`);
      const started = Date.now();
      expect((await submitBooking(srv.url, bookingBody(type.id, at(9, 12)))).status).toBe(201);
      const waited = Date.now() - started;
      expect(waited).toBeGreaterThanOrEqual(1_900);
      expect(waited).toBeLessThan(8_000);
      expect((await admin.api.get(`/hosts/${host.id}/calendars`)).body[0]).toMatchObject({ status: 'unreachable', lastError: 'no answer within 2 s' });
    } finally {
      for (const res of pending) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it("an all-day event blocks the host's whole day in the zone of the type they host when no zone is given", async () => {
    const date = day(11).replace(/-/g, '');
    const server = await startIcsServer(() => ics('BEGIN:VEVENT', 'UID:off', 'DTSTAMP:20260101T000000Z', `DTSTART;VALUE=DATE:${date}`, 'END:VEVENT'));
    try {
      const host = await signedInUser('host');
      const type = await createType(admin.api, { hosts: [host.id], timezone: 'Asia/Tokyo' });
      const made = await admin.api.post(`/hosts/${host.id}/calendars`, { kind: 'ics', url: server.url });
      expect(made.body).toMatchObject({ timezone: 'Asia/Tokyo', busyCount: 1 });
      // the Tokyo day runs from 15:00 UTC the day before to 15:00 UTC
      const starts = await slotStarts(type.id, 10, 11);
      expect(starts).toContain(at(10, 14));
      expect(starts).not.toContain(at(10, 15));
      expect(starts).not.toContain(at(11, 14));
      expect(starts).toContain(at(11, 15));
    } finally {
      await server.close();
    }
  });

  it('a host manages only their own calendars, an administrator anyone’s; staff and visitors are refused', async () => {
    const ada = await signedInUser('host');
    const bob = await signedInUser('host');
    const staff = await signedInUser('staff');
    const server = await startIcsServer(() => ics());
    try {
      const made = await ada.session.api.post(`/hosts/${ada.id}/calendars`, { kind: 'ics', url: server.url });
      expect(made.status).toBe(201);
      expect((await bob.session.api.get(`/hosts/${ada.id}/calendars`)).status).toBe(403);
      expect((await bob.session.api.post(`/hosts/${ada.id}/calendars`, { kind: 'ics', url: server.url })).status).toBe(403);
      expect((await bob.session.api.post(`/calendars/${made.body.id}/refresh`, {})).status).toBe(403);
      expect((await bob.session.api.delete(`/calendars/${made.body.id}`)).status).toBe(403);
      expect((await staff.session.api.get(`/hosts/${ada.id}/calendars`)).status).toBe(403);
      expect((await apiClient(srv.url).get(`/hosts/${ada.id}/calendars`)).status).toBe(401);
      expect((await admin.api.get(`/hosts/${ada.id}/calendars`)).body).toHaveLength(1);
      expect((await admin.api.post(`/calendars/${made.body.id}/refresh`, {})).status).toBe(200);
      expect((await admin.api.get('/hosts/999999/calendars')).status).toBe(404);
      expect((await admin.api.post('/calendars/999999/refresh', {})).status).toBe(404);
      expect((await admin.api.delete('/calendars/999999')).status).toBe(404);
      expect((await ada.session.api.delete(`/calendars/${made.body.id}`)).status).toBe(204);
    } finally {
      await server.close();
    }
  });

  it('bad input answers 400 naming the field and keeps nothing', async () => {
    const host = await signedInUser('host');
    const page = await startIcsServer(() => '<html><body>Not a calendar</body></html>', 'text/html');
    const closed = await startIcsServer(() => ics());
    const closedUrl = closed.url;
    await closed.close();
    const calendar = await radicale.makeCalendar('bad-input');
    try {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ kind: 'exchange', url: page.url }, 'kind'],
        [{ kind: 'ics' }, 'url'],
        [{ kind: 'ics', url: 'ftp://example.test/cal.ics' }, 'url'],
        [{ kind: 'ics', url: 'http://user:secret@example.test/cal.ics' }, 'url'],
        [{ kind: 'ics', url: page.url }, 'url'],
        [{ kind: 'ics', url: closedUrl }, 'url'],
        [{ kind: 'ics', url: page.url, writeBack: true }, 'writeBack'],
        [{ kind: 'ics', url: page.url, timezone: 'Mars/Olympus' }, 'timezone'],
        [{ kind: 'ics', url: page.url, password: 'lonely' }, 'username'],
        [{ kind: 'caldav', url: calendar, username: radicale.username, password: 'wrong-password' }, 'password'],
        [{ kind: 'ics', url: page.url, extra: 1 }, 'extra'],
      ];
      for (const [body, field] of cases) {
        const res = await keep(host.session.api.post(`/hosts/${host.id}/calendars`, body));
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.code).toBe('svc_invalid_param');
        expect(JSON.stringify(res.body.params ?? res.body), JSON.stringify(body)).toContain(field);
      }
      expect((await host.session.api.get(`/hosts/${host.id}/calendars`)).body).toEqual([]);
      expect((await host.session.api.post('/calendars/abc/refresh', {})).status).toBe(400);
    } finally {
      await page.close();
    }
  });

  it('a calendar password is sealed at rest and never appears in an answer or a log line', async () => {
    const rows = await queryRows<{ password_sealed: string | null }>(
      db(),
      sql`select password_sealed from svc_host_calendars where password_sealed is not null`,
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.password_sealed).toMatch(/^v1\./);
      expect(row.password_sealed).not.toContain(radicale.password);
    }
    for (const secret of [radicale.password, 'principal-pass-Q1', 'unreachable-pass-W2']) {
      expect(responses.join('\n')).not.toContain(secret);
      expect(captured.text()).not.toContain(secret);
      expect(captured.text()).not.toContain(Buffer.from(`${radicale.username}:${secret}`).toString('base64'));
    }
  });
});
