/**
 * A free edition's ticket mail for a priced category (docs/api.md#tickets): nothing is charged
 * online, so each ticket row's mail names its category and says what to pay at the door for its
 * seats, less the code it redeemed — each row the code discounted holds its own redemption.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { useTestServer } from '../helpers/test-server';
import { addCategory } from '../helpers/categories';
import { createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { outboxTo } from '../helpers/payments';
import { queryRows } from '../../server/db/client';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });

beforeAll(() => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
});
beforeEach(async () => {
  await resetThrottles(srv);
});

/** The mail's lines from the ticket type down to the blank line before the ticket code. */
function pricePart(text: string): string[] {
  const lines = text.split('\n');
  const from = lines.findIndex((l) => l.startsWith('Ticket type:'));
  const to = lines.findIndex((l) => l.startsWith('Your ticket code:'));
  return lines.slice(from, to - 1);
}

describe('ticket mails without online payment', () => {
  it('each row names its category and says what its seats cost at the door, less the code, with net, tax and the seller', async () => {
    expect((await admin.api.patch('/settings', { sellerName: 'Hall & Co Ltd', sellerAddress: '1 Market Street', sellerTaxId: 'GB123' })).status).toBe(200);
    const event = await createEvent(admin.api, { capacity: 20, title: 'Winter gala' });
    const vip = await addCategory(admin.api, event.id, { name: 'VIP', priceCents: 4500, taxRateBp: 1900 });
    const standard = await addCategory(admin.api, event.id, { name: 'Standard', priceCents: 1800 });
    const companion = await addCategory(admin.api, event.id, { name: 'Companion', priceCents: 0 });
    const voucher = (await admin.api.post(`/events/${event.id}/vouchers`, { code: 'WINTER20', kind: 'percent', value: 2000, categoryIds: [vip, standard] }))
      .body;
    const email = uniqueEmail('gala');
    const res = await signUp(srv, event.id, {
      email,
      voucher: 'winter20',
      tickets: [
        { categoryId: vip, quantity: 2 },
        { categoryId: standard, quantity: 1 },
        { categoryId: companion, quantity: 1 },
      ],
    });
    expect(res.status).toBe(201);
    const mails = await outboxTo(srv, email);
    expect(mails).toHaveLength(3);
    expect(pricePart(mails[0]!.text)).toEqual([
      'Ticket type: VIP',
      '',
      '2 × VIP: US$90.00',
      'Code WINTER20: −US$18.00',
      'Net: US$60.50',
      'Tax 19%: US$11.50',
      'Pay at the door: US$72.00',
      'Seller: Hall & Co Ltd',
      '1 Market Street',
      'Tax ID: GB123',
    ]);
    expect(pricePart(mails[1]!.text)).toEqual(['Ticket type: Standard', '', '1 × Standard: US$18.00', 'Code WINTER20: −US$3.60', 'Pay at the door: US$14.40']);
    // a free category says nothing about paying
    expect(pricePart(mails[2]!.text)).toEqual(['Ticket type: Companion']);

    // one redemption per discounted row, its seats as uses: 3 in all
    const rows = await queryRows<{ attendee_id: number; quantity: number }>(
      srv.server.ctx.db,
      sql`select attendee_id, quantity from svc_voucher_redemptions where voucher_id = ${voucher.id} order by attendee_id`,
    );
    expect(rows.map((r) => Number(r.quantity))).toEqual([2, 1]);
    expect((await admin.api.get(`/vouchers/${voucher.id}`)).body.usedCount).toBe(3);
  });

  it('a waitlisted row of a priced category names its category but no price: nothing is due until it holds a seat', async () => {
    const event = await createEvent(admin.api, { capacity: 1, waitlist: true, title: 'Small room' });
    const seat = await addCategory(admin.api, event.id, { name: 'Seat', priceCents: 1800 });
    const email = uniqueEmail('small');
    const res = await signUp(srv, event.id, { email, tickets: [{ categoryId: seat, quantity: 2 }] });
    expect(res.body.tickets).toEqual([expect.objectContaining({ status: 'waitlist' })]);
    const text = (await outboxTo(srv, email))[0]!.text;
    expect(text).toContain('Ticket type: Seat');
    expect(text).not.toContain('Pay at the door');
  });
});
