/**
 * A rejected request stores nothing and logs at most a warning: bad input of every kind the
 * probe sent (NUL characters, broken JSON, wrong media type, malformed paths, unknown ids,
 * tRPC garbage) leaves no log entry above `warn` and no stack trace.
 */
import { describe, expect, it } from 'vitest';
import { capturedLogger } from '../helpers/logs';
import { createEvent, nonce } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const captured = capturedLogger('debug');
const lines = captured.lines;

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' }, logger: captured.logger });

/** pino levels: 40 warn, 50 error, 60 fatal. */
function entriesAboveWarn(from: number): Array<{ level: number; msg: string; err?: { stack?: string } }> {
  return lines
    .slice(from)
    .flatMap((l) => l.split('\n').filter(Boolean))
    .map((l) => JSON.parse(l) as { level: number; msg: string })
    .filter((e) => e.level > 40);
}

describe('rejected requests log at most a warning', () => {
  it('bad input on REST and tRPC answers 4xx and logs no error and no stack', async () => {
    const event = await createEvent(admin.api);
    const before = lines.length;
    const n = await nonce(srv);
    const requests: Array<[string, RequestInit]> = [
      ['/svc/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"a\\u0000@x.test","password":"x"}' }],
      ['/svc/v1/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":' }],
      ['/svc/v1/auth/login', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: '{"email":"a@x.test","password":"x"}' }],
      [
        `/svc/v1/events/${event.id}/signup`,
        { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zz', 'x-svc-nonce': n }, body: '--zz\r\nbroken' },
      ],
      ['/svc/v1/events/999999', { method: 'GET' }],
      ['/svc/v1/events/abc', { method: 'GET' }],
      ['/svc/v1/attendees/cancel/%zz', { method: 'GET' }],
      ['/%E0%A4%A', { method: 'GET' }],
      ['/trpc/events.list?input=%7B%22json%22%3A', { method: 'GET' }],
      ['/trpc/no.such.procedure', { method: 'GET' }],
      ['/svc/v1/bookings', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [path, init] of requests) {
      const res = await fetch(`${srv.url}${path}`, {
        ...init,
        headers: { ...(init.headers as Record<string, string>), cookie: admin.cookie, origin: srv.url },
      });
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      await res.body?.cancel();
    }
    const loud = entriesAboveWarn(before);
    expect(
      loud.map((e) => e.msg),
      'log entries above warn',
    ).toEqual([]);
    expect(lines.slice(before).join('\n')).not.toMatch(/"stack"/);
  });
});
