/**
 * No confirmation lost on the paid paths (docs/api.md#payments): a paid booking's confirmation
 * mail and its `booking.paid` / `booking.confirmed` webhooks, a paid order's mail and `order.paid`,
 * and what a refund sends (a refunded booking's cancellation mail and `booking.cancelled`, a
 * refunded order's `order.refunded` and `attendee.cancelled` per row) survive
 * - a process that dies right after the payment commits: simulated by a listener ahead of every
 *   other one that never returns (the writer stops there and never drops its held job); a runner
 *   takes the held job once its lease has run out;
 * - a mail insert that fails once (a trigger on svc_outbox): the payment's transaction rolls back
 *   and its job runs again.
 * Each ends with exactly one mail and one delivery of each webhook.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { ANNOUNCE_LEASE_SECONDS } from '../../server/jobs/announcements';
import { paymentsService } from '../../server/modules/orders/payments.service';
import { useTestServer } from '../helpers/test-server';
import { useTestHooks } from '../helpers/hooks';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, recordActions, submitBooking } from '../helpers/booking';
import { createEvent, signUp } from '../helpers/registration';
import { newEventId, outboxTo, paymentIdOf, postWebhook, signedLocalEvent, type LocalEventType } from '../helpers/payments';
import { createEndpoint, startReceiver, type CreatedEndpoint, type Receiver } from '../helpers/webhooks';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off', SVC_WEBHOOKS_ALLOW_PRIVATE: '1' } });
const { cleanups } = useTestHooks(hooks);
const idle = (ahead = 0) => srv.server.ctx.jobs.idle(Date.now() + ahead * 1000);
let receiver: Receiver;
let endpoint: CreatedEndpoint;
let host: number;
let day = 20;
let calls: Array<[string, ...unknown[]]>;

beforeAll(async () => {
  disableIpThrottle(hooks());
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  host = await createHost(admin.api);
  receiver = await startReceiver();
  endpoint = await createEndpoint(admin.api, receiver.url, [
    'booking.paid',
    'booking.confirmed',
    'booking.cancelled',
    'order.paid',
    'order.refunded',
    'attendee.cancelled',
  ]);
  calls = recordActions(hooks(), ['svc_booking_paid', 'svc_booking_confirmed', 'svc_booking_cancelled', 'svc_rsvp_submitted', 'svc_rsvp_cancelled']);
});
afterAll(() => receiver?.close());
beforeEach(() => {
  calls.length = 0;
});

const names = () => calls.map((c) => c[0]);

/** Webhook deliveries written for one subject: `booking.paid:12`, `order.refunded:3`… */
async function deliveries(): Promise<string[]> {
  const rows = await queryRows<{ type: string; id: number }>(
    db(),
    sql`select type, coalesce(payload->'data'->>'id', payload->'data'->>'bookingId')::int as id from svc_webhook_deliveries where endpoint_id = ${endpoint.id} order by id`,
  );
  return rows.map((r) => `${r.type}:${r.id}`);
}

async function heldBooking() {
  const type = await createType(admin.api, { hosts: [host], priceCents: 4500 });
  const body = bookingBody(type.id, futureStart(day++, 10));
  const res = await submitBooking(srv.url, body);
  expect(res.status).toBe(201);
  calls.length = 0;
  return { bookingId: res.body.bookingId as number, paymentId: paymentIdOf(res.body.paymentUrl), email: body.customerEmail as string };
}

async function heldOrder(quantity = 2) {
  const event = await createEvent(admin.api, { priceCents: 1500, capacity: 20 });
  const res = await signUp(srv, event.id, { quantity });
  expect(res.status).toBe(201);
  calls.length = 0;
  const [order] = await queryRows<{ email: string }>(db(), sql`select email from svc_orders where id = ${res.body.orderId}`);
  return { orderId: res.body.orderId as number, paymentId: paymentIdOf(res.body.paymentUrl), email: order!.email };
}

/** Stores a provider event (the webhook answers 200) without processing it; answers its row id. */
async function store(paymentId: string, type: LocalEventType, amountCents: number): Promise<number> {
  const eventId = newEventId();
  expect((await postWebhook(srv, 'local', signedLocalEvent(srv, type, paymentId, amountCents, eventId))).status).toBe(200);
  const [row] = await queryRows<{ id: number }>(db(), sql`select id from svc_payment_events where event_id = ${eventId}`);
  return row!.id;
}

/**
 * The writer dies right after its commit: a listener ahead of all others on `action` never returns
 * (so the writer never fires the rest nor drops its held job). Answers once the event's
 * processing has committed and reached that point; the frozen listener is removed then.
 */
async function processAndDieAt(action: string, eventRowId: number): Promise<void> {
  let entered!: () => void;
  const reached = new Promise<void>((resolve) => (entered = resolve));
  const freeze = () => {
    entered();
    return new Promise<void>(() => {});
  };
  hooks().addAction(action as 'svc_booking_paid', freeze, 1, 1);
  void paymentsService(srv.server.ctx).processEvent(eventRowId);
  await reached;
  hooks().removeAction(action as 'svc_booking_paid', freeze, 1);
}

/** Another instance's runner, once the dead writer's lease has run out. */
const runnerAfterLease = () => idle(ANNOUNCE_LEASE_SECONDS + 1);

/** A mail insert to `email` fails once (the first one), whatever transaction it is in. */
async function mailInsertFailsOnce(email: string, subjectLike = '%'): Promise<void> {
  const seq = `svc_test_fail_${Math.random().toString(36).slice(2, 10)}`;
  await db().execute(sql.raw(`create sequence ${seq}`));
  await db().execute(
    sql.raw(`create or replace function ${seq}_fn() returns trigger language plpgsql as $$
      begin
        if new.to_address = '${email}' and new.subject like '${subjectLike}' and nextval('${seq}') = 1 then
          raise exception 'injected: the mail insert fails once';
        end if;
        return new;
      end $$`),
  );
  await db().execute(sql.raw(`create trigger ${seq}_trg before insert on svc_outbox for each row execute function ${seq}_fn()`));
  cleanups.push(() => db().execute(sql.raw(`drop trigger ${seq}_trg on svc_outbox`)));
}

/** How often the job of a stored event ran: 2 when the injected failure rolled its first run back. */
const runsOf = async (eventRowId: number) =>
  (
    await queryRows<{ attempts: number }>(
      db(),
      sql`select attempts from svc_jobs where type = 'payments.process_event' and (payload->>'eventRowId')::int = ${eventRowId}`,
    )
  )[0]?.attempts;

const subjects = async (email: string) => (await outboxTo(srv, email)).map((m) => m.subject.split(':')[0]);

describe('a paid booking', () => {
  it('killed after the payment commits: one confirmation mail, one booking.paid and one booking.confirmed webhook, svc_booking_paid once', async () => {
    const { bookingId, paymentId, email } = await heldBooking();
    await processAndDieAt('svc_booking_paid', await store(paymentId, 'payment.succeeded', 4500));
    // committed with the payment: the mail, and the held actions
    expect(await subjects(email)).toEqual(['Booking confirmed']);
    expect(await deliveries()).not.toContain(`booking.paid:${bookingId}`);
    await idle();
    expect(names()).toEqual([]); // the lease still holds: nobody takes over a live writer
    await runnerAfterLease();
    expect(names()).toEqual(['svc_booking_paid', 'svc_booking_confirmed']);
    expect(await subjects(email)).toEqual(['Booking confirmed']);
    expect((await deliveries()).filter((d) => d.endsWith(`:${bookingId}`))).toEqual([`booking.paid:${bookingId}`, `booking.confirmed:${bookingId}`]);
  });

  it('a confirmation mail insert that fails once: the payment is processed again, one mail, svc_booking_paid once', async () => {
    const { bookingId, paymentId, email } = await heldBooking();
    await mailInsertFailsOnce(email);
    const stored = await store(paymentId, 'payment.succeeded', 4500);
    await idle();
    await idle(3600);
    expect(await runsOf(stored)).toBe(2);
    expect(await subjects(email)).toEqual(['Booking confirmed']);
    expect(names()).toEqual(['svc_booking_paid', 'svc_booking_confirmed']);
    expect((await deliveries()).filter((d) => d.endsWith(`:${bookingId}`))).toEqual([`booking.paid:${bookingId}`, `booking.confirmed:${bookingId}`]);
  });
});

describe('a paid booking refunded at the provider', () => {
  async function paidBooking() {
    const held = await heldBooking();
    await store(held.paymentId, 'payment.succeeded', 4500);
    await idle();
    calls.length = 0;
    return held;
  }

  it('killed after the refund commits: one cancellation mail, one booking.cancelled webhook', async () => {
    const { bookingId, paymentId, email } = await paidBooking();
    await processAndDieAt('svc_booking_cancelled', await store(paymentId, 'payment.refunded', 4500));
    expect(await subjects(email)).toEqual(['Booking confirmed', 'Booking cancelled']);
    await runnerAfterLease();
    expect(names()).toEqual(['svc_booking_cancelled']);
    expect(await subjects(email)).toEqual(['Booking confirmed', 'Booking cancelled']);
    expect((await deliveries()).filter((d) => d === `booking.cancelled:${bookingId}`)).toHaveLength(1);
  });

  it('a cancellation mail insert that fails once: one cancellation mail, svc_booking_cancelled once', async () => {
    const { bookingId, paymentId, email } = await paidBooking();
    await mailInsertFailsOnce(email, 'Booking cancelled%');
    const stored = await store(paymentId, 'payment.refunded', 4500);
    await idle();
    await idle(3600);
    expect(await runsOf(stored)).toBe(2);
    expect(await subjects(email)).toEqual(['Booking confirmed', 'Booking cancelled']);
    expect(names()).toEqual(['svc_booking_cancelled']);
    expect((await deliveries()).filter((d) => d === `booking.cancelled:${bookingId}`)).toHaveLength(1);
  });
});

describe('a paid order', () => {
  it('killed after the payment commits: one mail with every ticket, svc_rsvp_submitted once per row, one order.paid webhook', async () => {
    const { orderId, paymentId, email } = await heldOrder(2);
    await processAndDieAt('svc_rsvp_submitted', await store(paymentId, 'payment.succeeded', 3000));
    expect(await subjects(email)).toEqual(['Your 2 tickets']);
    await runnerAfterLease();
    expect(names()).toEqual(['svc_rsvp_submitted', 'svc_rsvp_submitted']);
    expect(await subjects(email)).toEqual(['Your 2 tickets']);
    expect((await deliveries()).filter((d) => d === `order.paid:${orderId}`)).toHaveLength(1);
  });

  it('a ticket mail insert that fails once: one mail, svc_rsvp_submitted once per row, one order.paid webhook', async () => {
    const { orderId, paymentId, email } = await heldOrder(2);
    await mailInsertFailsOnce(email);
    const stored = await store(paymentId, 'payment.succeeded', 3000);
    await idle();
    await idle(3600);
    expect(await runsOf(stored)).toBe(2);
    expect(await subjects(email)).toEqual(['Your 2 tickets']);
    expect(names()).toEqual(['svc_rsvp_submitted', 'svc_rsvp_submitted']);
    expect((await deliveries()).filter((d) => d === `order.paid:${orderId}`)).toHaveLength(1);
  });

  it('refunded, killed after the refund commits: svc_rsvp_cancelled once per row, one order.refunded webhook', async () => {
    const { orderId, paymentId } = await heldOrder(2);
    await store(paymentId, 'payment.succeeded', 3000);
    await idle();
    calls.length = 0;
    await processAndDieAt('svc_rsvp_cancelled', await store(paymentId, 'payment.refunded', 3000));
    await runnerAfterLease();
    expect(names()).toEqual(['svc_rsvp_cancelled', 'svc_rsvp_cancelled']);
    expect(new Set(calls.map((c) => c[1])).size).toBe(2);
    expect((await deliveries()).filter((d) => d === `order.refunded:${orderId}`)).toHaveLength(1);
  });
});
