import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { bookingBody, createHost, createType, disableIpThrottle, fetchNonce, futureStart } from '../helpers/booking';

const { server: srv, admin } = useTestServer({ env: { SVC_JOBS: 'off' } });

beforeAll(async () => {
  disableIpThrottle(srv.server.ctx.hooks);
});

async function trpc(kind: 'query' | 'mutation', path: string, input: unknown, headers: Record<string, string> = {}) {
  const url = `${srv.url}/trpc/${path}`;
  const res =
    kind === 'query'
      ? await fetch(`${url}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`)
      : await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ json: input }) });
  return { status: res.status, body: (await res.json()) as any };
}

describe('booking over tRPC (same services and schemas as REST)', () => {
  it('booking.slots answers the same list as the REST route', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host] });
    const day = futureStart(3, 0).slice(0, 10);
    const viaTrpc = await trpc('query', 'booking.slots', { id: type.id, from: day, to: day });
    const viaRest = await (await fetch(`${srv.url}/svc/v1/booking-types/${type.id}/slots?from=${day}&to=${day}`)).json();
    expect(viaTrpc.body.result.data.json).toEqual(viaRest);
  });

  it('booking.create checks the X-Svc-Nonce header first (svc_invalid_nonce), as REST does, and books with a valid one', async () => {
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host] });
    const refused = await trpc('mutation', 'booking.create', bookingBody(type.id, 'soon'));
    expect(refused.status).toBe(403);
    expect(refused.body.error.json.data.svcCode).toBe('svc_invalid_nonce');
    const nonce = { 'x-svc-nonce': await fetchNonce(srv.url) };
    const ok = await trpc('mutation', 'booking.create', bookingBody(type.id, futureStart(3, 10)), nonce);
    expect(ok.status).toBe(200);
    expect(ok.body.result.data.json).toMatchObject({ status: 'confirmed', hostUserId: host });
    const bad = await trpc('mutation', 'booking.create', bookingBody(type.id, 'soon'), nonce);
    expect(bad.body.error.json.data.svcCode).toBe('svc_invalid_param');
  });

  it("a throttled booking.create says when to try again, as REST's Retry-After does", async () => {
    const nonce = { 'x-svc-nonce': await fetchNonce(srv.url) };
    const body = { ...bookingBody(1, 'soon'), customerEmail: 'throttled-trpc@example.test' };
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push((await trpc('mutation', 'booking.create', body, nonce)).body.error.json.data);
    expect(answers.map((d) => d.svcCode)).toEqual([...Array(5).fill('svc_invalid_param'), 'svc_rate_limited']);
    expect(answers[5].retryAfter).toBeGreaterThan(0);
    expect(answers[0].retryAfter).toBeNull();
  });

  it('the slots route does not consult svc_booking_client_ip', async () => {
    let calls = 0;
    const spy = (ip: string) => (calls++, ip);
    srv.server.ctx.hooks.addFilter('svc_booking_client_ip', spy, 50);
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host] });
    await fetch(`${srv.url}/svc/v1/booking-types/${type.id}/slots`);
    await trpc('query', 'booking.slots', { id: type.id });
    srv.server.ctx.hooks.removeFilter('svc_booking_client_ip', spy, 50);
    expect(calls).toBe(0);
  });
});
