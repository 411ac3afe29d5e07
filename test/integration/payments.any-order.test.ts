/**
 * Payment events in any order (docs/decisions/024-payment-events-as-a-set.md): the outcome is a
 * function of the set of a payment's provider events, not of the order they arrive in. A refunded
 * or failed payment never confirms anything; money that lands for a released hold, or that is not
 * what was owed (amount or currency), is refunded once and flagged for the admin (`attention`).
 * Local provider here; the Stripe provider's cases are in payments.webhooks.test.ts.
 * Jobs are off: a test runs the queue itself (`idle()`).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { bookingRepository } from '../../server/modules/booking/booking.repository';
import { sweepPaymentHolds } from '../../server/modules/booking/booking.service';
import { utcMs } from '../../shared/time';
import { useTestServer } from '../helpers/test-server';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, recordActions, submitBooking } from '../helpers/booking';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';
import { newEventId, outboxTo, paymentIdOf, postWebhook, signedLocalEvent, type LocalEventType } from '../helpers/payments';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const idle = () => srv.server.ctx.jobs.idle();
let host: number;
let day = 20;
let calls: Array<[string, ...unknown[]]>;

beforeAll(async () => {
  disableIpThrottle(hooks());
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  host = await createHost(admin.api);
  calls = recordActions(hooks(), [
    'svc_booking_paid',
    'svc_booking_confirmed',
    'svc_booking_cancelled',
    'svc_booking_payment_abandoned',
    'svc_rsvp_submitted',
    'svc_rsvp_cancelled',
  ]);
});
beforeEach(() => {
  calls.length = 0;
});

const names = () => calls.map((c) => c[0]);

async function heldBooking(priceCents = 4500) {
  const type = await createType(admin.api, { hosts: [host], priceCents });
  const body = bookingBody(type.id, futureStart(day++, 10));
  const res = await submitBooking(srv.url, body);
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('pending_payment');
  calls.length = 0;
  return { bookingId: res.body.bookingId as number, paymentId: paymentIdOf(res.body.paymentUrl), email: body.customerEmail as string };
}

async function heldOrder(quantity = 2, priceCents = 1500) {
  const event = await createEvent(admin.api, { priceCents, capacity: 20 });
  const res = await signUp(srv, event.id, { quantity });
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('pending_payment');
  calls.length = 0;
  return { orderId: res.body.orderId as number, paymentId: paymentIdOf(res.body.paymentUrl), eventId: event.id as number };
}

interface PaymentRecord {
  status: string;
  attention: string | null;
}
async function paymentOf(paymentId: string): Promise<PaymentRecord> {
  const [row] = await queryRows<PaymentRecord>(db(), sql`select status, attention from svc_payments where id = ${paymentId}`);
  return row!;
}

const refundJobs = async (paymentId: string) =>
  (
    await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_jobs where type = 'payments.refund' and payload->>'paymentId' = ${paymentId}`)
  )[0]!.n;

async function send(paymentId: string, type: LocalEventType, amountCents: number, currency?: string) {
  const event = signedLocalEvent(srv, type, paymentId, amountCents, newEventId(), new Date(), currency);
  const res = await postWebhook(srv, 'local', event);
  expect(res.status).toBe(200);
  await idle();
}

describe('a refund that comes before its payment', () => {
  it('a booking: the later payment confirms nothing, svc_booking_paid never fires, no confirmation mail, one refund (the provider’s), flagged refunded_at_provider', async () => {
    const { bookingId, paymentId, email } = await heldBooking();
    await send(paymentId, 'payment.refunded', 4500);
    await send(paymentId, 'payment.succeeded', 4500);
    expect(await bookingRepository.findBooking(db(), bookingId)).toMatchObject({ status: 'abandoned', paymentStatus: 'refunded' });
    expect(names()).not.toContain('svc_booking_paid');
    expect(names()).not.toContain('svc_booking_confirmed');
    expect(await outboxTo(srv, email)).toEqual([]);
    expect(await paymentOf(paymentId)).toEqual({ status: 'refunded', attention: 'refunded_at_provider' });
    // the provider already gave the money back: svc asks for no refund of its own
    expect(await refundJobs(paymentId)).toBe(0);
    // the admin's list shows the flag
    const listed = await admin.api.get(`/bookings?q=${encodeURIComponent(email)}`);
    expect(listed.body).toEqual([expect.objectContaining({ bookingId, paymentStatus: 'refunded', paymentAttention: 'refunded_at_provider' })]);
  });

  it('a booking, the other way round (paid, then refunded): the same end — released, payment refunded and flagged; the holder told by a cancellation mail', async () => {
    const { bookingId, paymentId, email } = await heldBooking();
    await send(paymentId, 'payment.succeeded', 4500);
    expect(names()).toEqual(['svc_booking_paid', 'svc_booking_confirmed']);
    await send(paymentId, 'payment.refunded', 4500);
    expect(await bookingRepository.findBooking(db(), bookingId)).toMatchObject({ status: 'cancelled', paymentStatus: 'refunded' });
    expect(names()).toEqual(['svc_booking_paid', 'svc_booking_confirmed', 'svc_booking_cancelled']);
    expect(await paymentOf(paymentId)).toEqual({ status: 'refunded', attention: 'refunded_at_provider' });
    expect(await refundJobs(paymentId)).toBe(0);
    expect((await outboxTo(srv, email)).map((m) => m.subject.split(':')[0])).toEqual(['Booking confirmed', 'Booking cancelled']);
  });

  it('an order: the later payment issues no ticket, svc_rsvp_submitted never fires, the order ends refunded and flagged', async () => {
    const { orderId, paymentId, eventId } = await heldOrder(2);
    await send(paymentId, 'payment.refunded', 3000);
    await send(paymentId, 'payment.succeeded', 3000);
    expect(await attendeeRows(srv, eventId)).toEqual([]);
    expect(calls).toEqual([]);
    expect(await paymentOf(paymentId)).toEqual({ status: 'refunded', attention: 'refunded_at_provider' });
    const detail = await admin.api.get(`/orders/${orderId}`);
    expect(detail.body).toMatchObject({ status: 'refunded', paymentStatus: 'refunded', paymentAttention: 'refunded_at_provider', tickets: [] });
  });

  it('a hold released by the sweeper, with the refund already stored: the late payment is not refunded a second time', async () => {
    const { bookingId, paymentId } = await heldBooking();
    await send(paymentId, 'payment.refunded', 4500);
    const created = utcMs((await bookingRepository.findBooking(db(), bookingId))!.createdUtc);
    await sweepPaymentHolds(srv.server.ctx, created + 25 * 3_600_000);
    await send(paymentId, 'payment.succeeded', 4500);
    expect(await paymentOf(paymentId)).toEqual({ status: 'refunded', attention: 'refunded_at_provider' });
    expect(await refundJobs(paymentId)).toBe(0);
    expect(names()).not.toContain('svc_booking_paid');
  });
});

describe('what was paid against what is owed', () => {
  it.each([
    ['a smaller amount', 4400, undefined],
    ['a larger amount', 4600, undefined],
    ['another currency', 4500, 'EUR'],
  ])('%s confirms nothing: the hold released, the money refunded (a job), the payment flagged amount_mismatch', async (_what, amount, currency) => {
    const { bookingId, paymentId, email } = await heldBooking(4500);
    await send(paymentId, 'payment.succeeded', amount, currency);
    expect(await bookingRepository.findBooking(db(), bookingId)).toMatchObject({ status: 'abandoned', paymentStatus: 'refunded' });
    expect(names()).toEqual(['svc_booking_payment_abandoned']);
    expect(await outboxTo(srv, email)).toEqual([]);
    expect(await paymentOf(paymentId)).toEqual({ status: 'refunded', attention: 'amount_mismatch' });
    expect(await refundJobs(paymentId)).toBe(1);
  });

  it('the owed amount in the owed currency (named or not) confirms', async () => {
    for (const currency of ['USD', 'usd', undefined]) {
      const { bookingId, paymentId } = await heldBooking(4500);
      await send(paymentId, 'payment.succeeded', 4500, currency);
      expect(await bookingRepository.findBooking(db(), bookingId)).toMatchObject({ status: 'confirmed', paymentStatus: 'paid' });
      expect(await paymentOf(paymentId)).toEqual({ status: 'paid', attention: null });
    }
  });

  it('an order paid short issues no ticket and is refunded and flagged', async () => {
    const { orderId, paymentId, eventId } = await heldOrder(2);
    await send(paymentId, 'payment.succeeded', 1500);
    expect(await attendeeRows(srv, eventId)).toEqual([]);
    expect(await paymentOf(paymentId)).toEqual({ status: 'refunded', attention: 'amount_mismatch' });
    expect((await admin.api.get(`/orders/${orderId}`)).body).toMatchObject({ status: 'refunded', paymentAttention: 'amount_mismatch' });
  });
});

describe('a failure after the payment', () => {
  it('paid then failed, or failed then paid: the booking is not left confirmed, the money goes back once, flagged payment_failed', async () => {
    const first = await heldBooking();
    await send(first.paymentId, 'payment.succeeded', 4500);
    await send(first.paymentId, 'payment.failed', 4500);
    const second = await heldBooking();
    await send(second.paymentId, 'payment.failed', 4500);
    await send(second.paymentId, 'payment.succeeded', 4500);
    for (const { bookingId, paymentId } of [first, second]) {
      const row = (await bookingRepository.findBooking(db(), bookingId))!;
      expect(['abandoned', 'cancelled']).toContain(row.status);
      expect(row.paymentStatus).toBe('refunded');
      expect(await paymentOf(paymentId)).toEqual({ status: 'refunded', attention: 'payment_failed' });
      expect(await refundJobs(paymentId)).toBe(1);
    }
  });
});

describe('the local provider’s signature window', () => {
  it('a signature dated ten minutes ahead answers 400 svc_invalid_signature and stores nothing', async () => {
    const { bookingId, paymentId } = await heldBooking();
    const ahead = signedLocalEvent(srv, 'payment.succeeded', paymentId, 4500, newEventId(), new Date(Date.now() + 10 * 60_000));
    const res = await postWebhook(srv, 'local', ahead);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_signature');
    await idle();
    expect((await bookingRepository.findBooking(db(), bookingId))?.status).toBe('pending_payment');
    expect(names()).toEqual([]);
  });
});
