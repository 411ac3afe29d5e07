/**
 * Seats a paid order gives back go to the waitlist of an event whose waitlist moves up by itself
 * (docs/decisions/045-waitlist-promotion.md): a refund of a paid order and the release of an
 * unpaid order's hold promote in the transaction that frees the seats, each promoted row
 * announced once with `svc_attendee_status_changed` (id, 'going', 'waitlist') after the
 * refund's own actions. Jobs are off: a test runs the queue itself (`idle()`).
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { paymentsService } from '../../server/modules/orders/payments.service';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { recordActions } from '../helpers/booking';
import { storedMails } from '../helpers/mail';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { paymentIdOf } from '../helpers/payments';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const idle = () => srv.server.ctx.jobs.idle();
let calls: Array<[string, ...unknown[]]>;

beforeAll(() => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  calls = recordActions(hooks(), ['svc_rsvp_cancelled', 'svc_attendee_status_changed', 'svc_attendee_updated']);
});
beforeEach(async () => {
  await resetThrottles(srv);
  calls.length = 0;
});

/** A full paid event in auto mode: one order holds its 3 seats; a party of 2 waits. */
async function fullEvent() {
  const event = await createEvent(admin.api, { priceCents: 2000, capacity: 3, waitlistPromotion: 'auto' });
  const placed = await signUp(srv, event.id, { email: uniqueEmail('buyer'), quantity: 3 });
  expect(placed.body.status).toBe('pending_payment');
  const email = uniqueEmail('waiting');
  const waiting = await signUp(srv, event.id, { email, quantity: 2 });
  expect(waiting.body.status).toBe('waitlist');
  return {
    eventId: event.id as number,
    orderId: placed.body.orderId as number,
    paymentId: paymentIdOf(placed.body.paymentUrl),
    waiting: waiting.body.id as number,
    email,
  };
}

const ticketMails = async (email: string) => (await storedMails(srv.server.ctx.db, email)).filter((m) => !/waitlist/i.test(m.subject));

describe('a paid order’s seats go to the waitlist', () => {
  it('a refund cancels the order’s tickets and moves the waiting party up, with its status change after the cancels and one ticket mail', async () => {
    const { eventId, orderId, paymentId, waiting, email } = await fullEvent();
    expect((await apiClient(srv.url).post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
    await idle();
    const tickets = (await attendeeRows(srv, eventId)).filter((r) => r.order_id === orderId);
    expect(tickets).toHaveLength(3);
    calls.length = 0;

    expect((await admin.api.post(`/orders/${orderId}/refund`)).status).toBe(200);

    expect(Object.fromEntries((await attendeeRows(srv, eventId)).map((r) => [r.id, r.status]))).toEqual({
      ...Object.fromEntries(tickets.map((t) => [t.id, 'cancelled'])),
      [waiting]: 'going',
    });
    expect(calls).toEqual([...tickets.map((t) => ['svc_rsvp_cancelled', t.id]), ['svc_attendee_status_changed', waiting, 'going', 'waitlist']]);
    expect(await ticketMails(email)).toHaveLength(1);
  });

  it('an unpaid order whose hold runs out gives its seats to the waiting party', async () => {
    const { eventId, waiting, email } = await fullEvent();
    const expired = await paymentsService(srv.server.ctx).sweep(Date.now() + 48 * 3_600_000);
    expect(expired).toHaveLength(1);
    expect((await attendeeRows(srv, eventId)).map((r) => [r.id, r.status])).toEqual([[waiting, 'going']]);
    expect(calls).toEqual([['svc_attendee_status_changed', waiting, 'going', 'waitlist']]);
    expect(await ticketMails(email)).toHaveLength(1);
  });
});
