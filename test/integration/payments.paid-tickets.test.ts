/**
 * The payer's tickets (docs/api.md#payments): `GET /payments/checkout/{id}/tickets` is empty until
 * the order is paid, then lists each ticket with its code, ticket type, the PDF's key and calendar
 * UID, never a cancel token; a ticket cancelled since is listed without its code. The cancel
 * preview of a paid ticket says whether the money comes back: `none` for a ticket cancelled on its
 * own, `refunding` then `refunded` for a refunded order, null for a free ticket.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { addCategory } from '../helpers/categories';
import { apiClient } from '../helpers/http';
import { paymentIdOf } from '../helpers/payments';
import { attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const visitor = () => apiClient(srv.url);
const idle = () => srv.server.ctx.jobs.idle();

beforeAll(() => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
});
beforeEach(async () => {
  await resetThrottles(srv);
});

async function placeOrder(fields: Record<string, unknown>) {
  const event = await createEvent(admin.api, { title: 'Jazz night', priceCents: 1500, capacity: 40 });
  const res = await signUp(srv, event.id, { email: uniqueEmail('payer'), ...fields });
  expect(res.status).toBe(201);
  expect(res.body.status).toBe('pending_payment');
  return { event, orderId: res.body.orderId as number, paymentId: paymentIdOf(res.body.paymentUrl) };
}

async function pay(paymentId: string): Promise<void> {
  expect((await visitor().post(`/payments/local/${paymentId}/pay`)).status).toBe(202);
  await idle();
}

const ticketsOf = (paymentId: string) => visitor().get(`/payments/checkout/${paymentId}/tickets`);

describe('GET /payments/checkout/{id}/tickets', () => {
  it('is empty until paid, then lists every ticket with code, ticket type, PDF key and calendar UID, and no cancel token', async () => {
    const created = await createEvent(admin.api, {
      title: 'Jazz night',
      venue: 'Blue Room',
      startsUtc: '2099-06-01 18:00:00',
      endsUtc: '2099-06-01 21:00:00',
      capacity: 40,
    });
    const stalls = await addCategory(admin.api, created.id, { name: 'Stalls', priceCents: 1500 });
    const res = await signUp(srv, created.id, { email: uniqueEmail('payer'), tickets: [{ categoryId: stalls, quantity: 2 }] });
    expect(res.status).toBe(201);
    const id = paymentIdOf(res.body.paymentUrl);

    const before = await ticketsOf(id);
    expect(before.status).toBe(200);
    expect(before.body).toEqual({ event: null, tickets: [] });

    await pay(id);
    const after = await ticketsOf(id);
    expect(after.status).toBe(200);
    expect(after.headers.get('cache-control')).toBe('no-store');
    const rows = await attendeeRows(srv, created.id);
    expect(rows).toHaveLength(2);
    expect(after.body.event).toEqual({
      id: created.id,
      title: 'Jazz night',
      startsUtc: '2099-06-01 18:00:00',
      endsUtc: '2099-06-01 21:00:00',
      timezone: 'UTC',
      venue: 'Blue Room',
      description: '',
    });
    expect(after.body.tickets).toEqual(
      rows.map((row) => ({
        attendeeId: row.id,
        status: 'going',
        displayName: row.display_name,
        quantity: 1,
        ticketCategoryId: stalls,
        ticketType: 'Stalls',
        ticketCode: row.ticket_code,
        ticketPdfToken: expect.stringMatching(/^\d+\.[0-9a-f]{32}$/),
        walletAvailable: false,
        calendarUid: expect.stringMatching(new RegExp(`^attendee-${row.id}-`)),
      })),
    );
    const text = JSON.stringify(after.body);
    for (const row of rows) expect(text).not.toContain(row.cancel_token);

    // the listed key opens that ticket's PDF
    const pdf = await fetch(`${srv.url}/svc/v1/tickets/signed/${after.body.tickets[0].ticketPdfToken}/ticket.pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
  });

  it('a ticket cancelled since is listed as cancelled without its code; an unknown payment is 404', async () => {
    const { event, paymentId } = await placeOrder({ quantity: 2 });
    await pay(paymentId);
    const [first, second] = await attendeeRows(srv, event.id);
    expect((await visitor().post(`/attendees/cancel/${first.cancel_token}`, {})).status).toBe(200);
    const res = await ticketsOf(paymentId);
    expect(res.body.tickets).toHaveLength(2);
    expect(res.body.tickets[0]).toEqual({
      attendeeId: first.id,
      status: 'cancelled',
      displayName: first.display_name,
      quantity: 1,
      ticketCategoryId: null,
      ticketType: null,
      walletAvailable: false,
    });
    expect(res.body.tickets[1]).toMatchObject({ attendeeId: second.id, status: 'going', ticketCode: second.ticket_code });

    const unknown = await ticketsOf('A'.repeat(43));
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('svc_not_found');
  });
});

describe('the cancel preview of a paid ticket says whether the money comes back', () => {
  it('free ticket: null; paid ticket: none, also once the visitor cancelled it (no refund by svc)', async () => {
    const free = await createEvent(admin.api, { title: 'Free talk' });
    await signUp(srv, free.id, { email: uniqueEmail('free') });
    const [freeRow] = await attendeeRows(srv, free.id);
    expect((await visitor().get(`/attendees/cancel/${freeRow.cancel_token}`)).body.refund).toBeNull();

    const { event, paymentId } = await placeOrder({ quantity: 1 });
    await pay(paymentId);
    const [row] = await attendeeRows(srv, event.id);
    expect((await visitor().get(`/attendees/cancel/${row.cancel_token}`)).body.refund).toBe('none');
    expect((await visitor().post(`/attendees/cancel/${row.cancel_token}`, {})).status).toBe(200);
    expect((await visitor().get(`/attendees/cancel/${row.cancel_token}`)).body).toMatchObject({ status: 'cancelled', refund: 'none' });
  });

  it('a refunded order: refunding until the provider confirms, then refunded', async () => {
    const { event, orderId, paymentId } = await placeOrder({ quantity: 1 });
    await pay(paymentId);
    const [row] = await attendeeRows(srv, event.id);
    expect((await admin.api.post(`/orders/${orderId}/refund`)).status).toBe(200);
    expect((await visitor().get(`/attendees/cancel/${row.cancel_token}`)).body).toMatchObject({ status: 'cancelled', refund: 'refunding' });
    await idle();
    expect((await visitor().get(`/attendees/cancel/${row.cancel_token}`)).body.refund).toBe('refunded');
    // the refunded order has no tickets to show on the pay page
    expect((await ticketsOf(paymentId)).body).toEqual({ event: null, tickets: [] });
  });
});
