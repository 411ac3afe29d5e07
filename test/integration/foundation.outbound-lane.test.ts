/**
 * One receiver that never answers delays nothing else (docs/decisions/023-outbound-lane.md): the
 * server polls its queue as in production (SVC_JOBS=on) and one webhook endpoint answers nothing
 * for as long as the test runs; a visitor's confirmation mail, a payment and another endpoint's
 * 5-second retry still happen while that endpoint's attempt is open. A real receiver on
 * 127.0.0.1 and a real SMTP server.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { utcMs } from '../../shared/time';
import { configureWebhookDelivery } from '../../server/modules/webhooks/webhooks.service';
import { apiClient } from '../helpers/http';
import { paymentIdOf, paymentStatus } from '../helpers/payments';
import { createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { startSmtpServer } from '../helpers/smtp';
import { useTestServer } from '../helpers/test-server';
import { createEndpoint, deliveriesOf, startReceiver, type CreatedEndpoint, type Receiver } from '../helpers/webhooks';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
});

const {
  server: srv,
  admin,
  db,
  hooks,
} = useTestServer({
  env: () => ({ SVC_EDITION: 'extended', SVC_JOBS: 'on', SVC_WEBHOOKS_ALLOW_PRIVATE: '1', SMTP_URL: smtp.url }),
});

/** Longer than any test here: the hanging receiver's attempt stays open until the file ends. */
const HANG_MS = 10 * 60_000;
/** How long a test waits for what must happen while the hang goes on (far less than the hang). */
const WAIT = { timeout: 20_000, interval: 50 };

let receiver: Receiver;
const created: number[] = [];

beforeAll(async () => {
  receiver = await startReceiver();
  // every attempt may wait as long as the hang: only the lane keeps the rest moving
  configureWebhookDelivery(db(), { timeoutMs: HANG_MS });
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
});
// registered after the server's close, so it runs first: the open attempt ends and the runner stops at once
afterAll(async () => {
  await receiver?.close();
  await smtp?.close();
});
afterEach(async () => {
  await resetThrottles(srv);
  for (const id of created.splice(0)) await admin.api.delete(`/webhooks/${id}`);
});

async function endpoint(events: string[]): Promise<CreatedEndpoint> {
  const made = await createEndpoint(admin.api, receiver.url, events);
  created.push(made.id);
  return made;
}

/** An endpoint that never answers, with one attempt already waiting on it. */
async function hangingEndpointWithAnOpenAttempt(): Promise<CreatedEndpoint> {
  const hanging = await endpoint(['attendee.created']);
  receiver.always(hanging.path, { delayMs: HANG_MS });
  const event = await createEvent(admin.api, { capacity: 100 });
  expect((await signUp(srv, event.id, { email: uniqueEmail('first') })).status).toBe(201);
  await vi.waitFor(() => expect(receiver.received(hanging.path)).toHaveLength(1), WAIT);
  return hanging;
}

/** Still open: the receiver got the request and the delivery has recorded no attempt. */
async function expectStillOpen(hanging: CreatedEndpoint): Promise<void> {
  const [delivery] = await deliveriesOf(db(), hanging.id);
  expect(delivery).toMatchObject({ status: 'pending', attempts: 0 });
}

const mailsTo = (email: string) => smtp.received.filter((m) => m.to.includes(email));

describe('one receiver that never answers delays nothing else', () => {
  it('a sign-up’s confirmation mail is sent while a webhook attempt waits on a receiver that never answers', async () => {
    const hanging = await hangingEndpointWithAnOpenAttempt();
    const event = await createEvent(admin.api, { capacity: 100 });
    const email = uniqueEmail('visitor');
    expect((await signUp(srv, event.id, { email })).status).toBe(201);
    await vi.waitFor(() => expect(mailsTo(email)).toHaveLength(1), WAIT);
    // its own delivery waits behind the open one (one attempt per receiver), the mail did not
    await expectStillOpen(hanging);
    expect(receiver.received(hanging.path)).toHaveLength(1);
  });

  it('a payment is confirmed while a webhook attempt waits on a receiver that never answers', async () => {
    const hanging = await hangingEndpointWithAnOpenAttempt();
    const event = await createEvent(admin.api, { priceCents: 1500, capacity: 10 });
    const email = uniqueEmail('buyer');
    const placed = await signUp(srv, event.id, { email });
    expect(placed.status).toBe(201);
    const paymentId = paymentIdOf(placed.body.paymentUrl);
    // the local provider's pay button: its event is delivered and processed by jobs
    expect((await apiClient(srv.url).post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
    await vi.waitFor(async () => expect(await paymentStatus(srv, paymentId)).toBe('paid'), WAIT);
    await expectStillOpen(hanging);
  });

  it('another endpoint’s retry fires at its scheduled second while a receiver never answers', async () => {
    const hanging = await hangingEndpointWithAnOpenAttempt();
    const failing = await endpoint(['attendee.created']);
    receiver.always(failing.path, { status: 500, body: 'down' });
    // one more event for the hanging endpoint too: its second delivery waits behind its first
    const event = await createEvent(admin.api, { capacity: 100 });
    expect((await signUp(srv, event.id, { email: uniqueEmail('retry') })).status).toBe(201);
    await vi.waitFor(() => expect(receiver.received(failing.path)).toHaveLength(1), WAIT);
    await vi.waitFor(async () => expect((await deliveriesOf(db(), failing.id))[0]).toMatchObject({ attempts: 1, status: 'pending' }), WAIT);
    const scheduled = utcMs((await deliveriesOf(db(), failing.id))[0]!.next_attempt_utc!);
    await vi.waitFor(() => expect(receiver.received(failing.path)).toHaveLength(2), WAIT);
    // not before its second; and while the other receiver's attempt is still open, so not behind it
    expect(receiver.received(failing.path)[1]!.atMs).toBeGreaterThanOrEqual(scheduled);
    await expectStillOpen(hanging);
    expect(receiver.received(hanging.path)).toHaveLength(1);
  });
});
