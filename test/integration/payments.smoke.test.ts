import { describe, expect, it } from 'vitest';
import { useTestServer } from '../helpers/test-server';
import { apiClient } from '../helpers/http';
import { bookingBody, createHost, createType, disableIpThrottle, futureStart, recordActions, submitBooking } from '../helpers/booking';
import { createEvent, signUp, attendeeRows } from '../helpers/registration';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });

describe('smoke', () => {
  it('paid booking: pending → pay → confirmed', async () => {
    disableIpThrottle(hooks());
    const calls = recordActions(hooks(), ['svc_booking_created', 'svc_booking_payment_pending', 'svc_booking_paid', 'svc_booking_confirmed']);
    const host = await createHost(admin.api);
    const type = await createType(admin.api, { hosts: [host], priceCents: 4500 });
    const res = await submitBooking(srv.url, bookingBody(type.id, futureStart(3, 10)));
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending_payment');
    const id = (res.body.paymentUrl as string).split('/pay/')[1]!;
    const api = apiClient(srv.url);
    const co = await api.get(`/payments/checkout/${id}`);
    expect(co.body).toMatchObject({ amountCents: 4500, status: 'open', kind: 'booking', settled: false });
    const pay = await api.post(`/payments/local/${id}/pay`, {});
    expect(pay.status).toBe(202);
    await srv.server.ctx.jobs.idle();
    const after = await api.get(`/payments/checkout/${id}`);
    expect(after.body).toMatchObject({ status: 'paid', settled: true });
    expect(calls.map((c) => c[0])).toEqual(['svc_booking_created', 'svc_booking_payment_pending', 'svc_booking_paid', 'svc_booking_confirmed']);
  });

  it('paid sign-up: order → pay → 3 rows', async () => {
    const event = await createEvent(admin.api, { priceCents: 1000, capacity: 10 });
    const res = await signUp(srv, event.id, { quantity: 3 });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending_payment');
    const id = (res.body.paymentUrl as string).split('/pay/')[1]!;
    const api = apiClient(srv.url);
    expect((await api.post(`/payments/local/${id}/pay`, {})).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    const rows = await attendeeRows(srv, event.id);
    const { queryRows } = await import('../../server/db/client');
    const { sql } = await import('drizzle-orm');
    console.log(await queryRows(srv.server.ctx.db, sql`select type, state, last_error, payload from svc_jobs where type like 'payments%'`));
    console.log(await queryRows(srv.server.ctx.db, sql`select * from svc_payment_events`));
    expect(rows).toHaveLength(3);
    const orders = await admin.api.get('/orders');
    expect(orders.body[0]).toMatchObject({ status: 'paid', quantity: 3 });
    const refund = await admin.api.post(`/orders/${orders.body[0].id}/refund`, {});
    expect(refund.status).toBe(200);
    expect(refund.body.tickets.every((t: { status: string }) => t.status === 'cancelled')).toBe(true);
    await srv.server.ctx.jobs.idle();
    expect((await api.get(`/payments/checkout/${id}`)).body.status).toBe('refunded');
  });
});
