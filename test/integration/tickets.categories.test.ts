/**
 * Ticket categories (docs/api.md#tickets, issue 29 items 1 and 2): the REST operations, their
 * validation and access, and the sign-up with `tickets: [{categoryId, quantity}]` — one attendee
 * row per category line, a waitlist per category, `svc_rsvp_submitted` once per row with the
 * contract's five keys. Free edition: no payment path.
 */
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiClient } from '../helpers/http';
import { useTestServer } from '../helpers/test-server';
import { recordActions } from '../helpers/booking';
import { attendeeRows, createEvent, resetThrottles, signUp } from '../helpers/registration';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_JOBS: 'off' } });
const visitor = () => apiClient(srv.url);
let calls: Array<[string, ...unknown[]]>;

beforeAll(() => {
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  calls = recordActions(hooks(), ['svc_rsvp_submitted']);
});
beforeEach(async () => {
  await resetThrottles(srv);
  calls.length = 0;
});

async function category(eventId: number, fields: Record<string, unknown>) {
  const res = await admin.api.post(`/events/${eventId}/ticket-categories`, fields);
  expect(res.status).toBe(201);
  return res.body as { id: number; name: string; soldCount: number };
}

describe('ticket category operations', () => {
  it('an administrator creates, lists, changes and deletes a category; the answer carries every field and soldCount', async () => {
    const event = await createEvent(admin.api);
    const created = await admin.api.post(`/events/${event.id}/ticket-categories`, {
      name: 'VIP',
      priceCents: 5000,
      quota: 10,
      taxRateBp: 1900,
      taxMode: 'added',
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      eventId: event.id,
      name: 'VIP',
      description: '',
      priceCents: 5000,
      quota: 10,
      saleStartsUtc: null,
      saleEndsUtc: null,
      minPerOrder: 1,
      maxPerOrder: null,
      hidden: false,
      position: 0,
      taxRateBp: 1900,
      taxMode: 'added',
      soldCount: 0,
      createdUtc: expect.any(String),
      updatedUtc: expect.any(String),
    });
    const patched = await admin.api.patch(`/ticket-categories/${created.body.id}`, { name: 'VIP lounge', position: 2 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: created.body.id, name: 'VIP lounge', position: 2, priceCents: 5000 });
    const listed = await admin.api.get(`/events/${event.id}/ticket-categories`);
    expect(listed.body.map((c: { name: string }) => c.name)).toEqual(['VIP lounge']);
    expect((await admin.api.delete(`/ticket-categories/${created.body.id}`)).status).toBe(204);
    expect((await admin.api.get(`/events/${event.id}/ticket-categories`)).body).toEqual([]);
  });

  it('invalid fields answer 400 svc_invalid_param naming each field, and nothing is stored', async () => {
    const event = await createEvent(admin.api);
    const bad = await admin.api.post(`/events/${event.id}/ticket-categories`, { name: '', priceCents: -1, taxMode: 'sometimes' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('svc_invalid_param');
    expect(Object.keys(bad.body.data.params)).toEqual(['name', 'priceCents', 'taxMode']);
    const window = await admin.api.post(`/events/${event.id}/ticket-categories`, {
      name: 'Early',
      saleStartsUtc: '2099-02-01 00:00:00',
      saleEndsUtc: '2099-01-01 00:00:00',
      minPerOrder: 3,
      maxPerOrder: 2,
    });
    expect(window.status).toBe(400);
    expect(window.body.data.params).toEqual({ saleEndsUtc: 'must be after saleStartsUtc', maxPerOrder: 'must not be below minPerOrder' });
    expect((await admin.api.get(`/events/${event.id}/ticket-categories`)).body).toEqual([]);
  });

  it('writes are for administrators: anonymous 401, staff 403; an unknown event or category is 404', async () => {
    const event = await createEvent(admin.api);
    const vip = await category(event.id, { name: 'VIP' });
    expect((await visitor().post(`/events/${event.id}/ticket-categories`, { name: 'X' })).status).toBe(401);
    const token = (await admin.api.post('/auth/tokens', { name: 'door', role: 'staff', eventIds: [event.id] })).body.token;
    const staff = apiClient(srv.url, { bearer: token });
    expect((await staff.post(`/events/${event.id}/ticket-categories`, { name: 'X' })).status).toBe(403);
    expect((await staff.patch(`/ticket-categories/${vip.id}`, { name: 'X' })).status).toBe(403);
    expect((await staff.delete(`/ticket-categories/${vip.id}`)).status).toBe(403);
    expect((await admin.api.post('/events/999999/ticket-categories', { name: 'X' })).status).toBe(404);
    expect((await admin.api.patch('/ticket-categories/999999', { name: 'X' })).status).toBe(404);
    expect((await admin.api.delete('/ticket-categories/999999')).status).toBe(404);
  });

  it('the public lists only the listed categories on sale of a published event; an administrator sees all', async () => {
    const event = await createEvent(admin.api);
    await category(event.id, { name: 'Standard', position: 1 });
    await category(event.id, { name: 'Press', hidden: true });
    await category(event.id, { name: 'Early bird', saleEndsUtc: '2000-01-01 00:00:00' });
    await category(event.id, { name: 'Late', saleStartsUtc: '2098-01-01 00:00:00' });
    const names = (body: Array<{ name: string }>) => body.map((c) => c.name);
    expect(names((await visitor().get(`/events/${event.id}/ticket-categories`)).body)).toEqual(['Standard']);
    expect(names((await admin.api.get(`/events/${event.id}/ticket-categories`)).body)).toEqual(['Press', 'Early bird', 'Late', 'Standard']);
    const draft = await createEvent(admin.api, { status: 'draft' });
    await category(draft.id, { name: 'Hidden draft' });
    expect((await visitor().get(`/events/${draft.id}/ticket-categories`)).status).toBe(404);
  });

  it('DELETE of a category with tickets is 409 svc_ticket_category_in_use and removes nothing', async () => {
    const event = await createEvent(admin.api);
    const vip = await category(event.id, { name: 'VIP' });
    expect((await signUp(srv, event.id, { tickets: [{ categoryId: vip.id, quantity: 1 }] })).status).toBe(201);
    const res = await admin.api.delete(`/ticket-categories/${vip.id}`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_ticket_category_in_use');
    expect((await admin.api.get(`/events/${event.id}/ticket-categories`)).body).toMatchObject([{ id: vip.id, soldCount: 1 }]);
  });
});

describe('a sign-up with tickets in several categories', () => {
  it('makes one going row per category line with its ticketCategoryId, and fires svc_rsvp_submitted once per row with the five keys', async () => {
    const event = await createEvent(admin.api, { capacity: 20 });
    const vip = await category(event.id, { name: 'VIP', quota: 5 });
    const standard = await category(event.id, { name: 'Standard' });
    const res = await signUp(srv, event.id, {
      email: 'mixed@example.test',
      display_name: 'Mixed Order',
      tickets: [
        { categoryId: vip.id, quantity: 2 },
        { categoryId: standard.id, quantity: 1 },
      ],
    });
    expect(res.status).toBe(201);
    const rows = await attendeeRows(srv, event.id);
    expect(rows.map((r) => [r.ticket_category_id, r.quantity, r.status])).toEqual([
      [vip.id, 2, 'going'],
      [standard.id, 1, 'going'],
    ]);
    expect(res.body).toEqual({
      id: rows[0].id,
      status: 'going',
      ticketCode: rows[0].ticket_code,
      calendarUid: expect.any(String),
      ticketPdfToken: expect.any(String),
      walletAvailable: false,
      tickets: rows.map((r) => ({
        id: r.id,
        status: 'going',
        ticketCode: r.ticket_code,
        calendarUid: expect.any(String),
        ticketPdfToken: expect.any(String),
        walletAvailable: false,
        ticketCategoryId: r.ticket_category_id,
      })),
    });
    expect(calls).toEqual(
      rows.map((r) => [
        'svc_rsvp_submitted',
        r.id,
        { event_id: event.id, email: 'mixed@example.test', display_name: 'Mixed Order', quantity: r.quantity, cancel_token: r.cancel_token },
      ]),
    );
    for (const call of calls) expect(Object.keys(call[2] as object).sort()).toEqual(['cancel_token', 'display_name', 'email', 'event_id', 'quantity']);
  });

  it('a sold-out category waitlists its line while the other category still sells', async () => {
    const event = await createEvent(admin.api, { capacity: 50, waitlist: true });
    const vip = await category(event.id, { name: 'VIP', quota: 2 });
    const standard = await category(event.id, { name: 'Standard', quota: 10 });
    expect((await signUp(srv, event.id, { tickets: [{ categoryId: vip.id, quantity: 2 }] })).body.status).toBe('going');
    const res = await signUp(srv, event.id, {
      tickets: [
        { categoryId: vip.id, quantity: 1 },
        { categoryId: standard.id, quantity: 3 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.tickets.map((t: { ticketCategoryId: number; status: string }) => [t.ticketCategoryId, t.status])).toEqual([
      [vip.id, 'waitlist'],
      [standard.id, 'going'],
    ]);
    // the first going row answers; a waitlisted row gets no code to show at the door
    expect(res.body).toMatchObject({ id: res.body.tickets[1].id, status: 'going' });
    expect(res.body.tickets[0]).not.toHaveProperty('ticketCode');
    const listed = (await admin.api.get(`/events/${event.id}/ticket-categories`)).body;
    expect(listed.map((c: { id: number; soldCount: number }) => [c.id, c.soldCount])).toEqual([
      [vip.id, 2],
      [standard.id, 3],
    ]);
  });

  it('a sign-up whose tickets all join the waitlist refuses a wrong code and stores nothing; a good code takes no use', async () => {
    const event = await createEvent(admin.api, { capacity: 50, waitlist: true });
    const vip = await category(event.id, { name: 'VIP', quota: 1 });
    expect(
      (await admin.api.post(`/events/${event.id}/vouchers`, { code: 'VIPTEN', kind: 'percent', value: 1000, categoryIds: [vip.id], maxUses: 1 })).status,
    ).toBe(201);
    expect((await signUp(srv, event.id, { tickets: [{ categoryId: vip.id, quantity: 1 }] })).body.status).toBe('going');
    const before = await attendeeRows(srv, event.id);

    const unknown = await signUp(srv, event.id, { tickets: [{ categoryId: vip.id, quantity: 1 }], voucher: 'NOSUCH' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ code: 'svc_voucher_unknown', data: { params: { voucher: expect.any(String) } } });
    expect(await attendeeRows(srv, event.id)).toEqual(before);

    const waitlisted = await signUp(srv, event.id, { tickets: [{ categoryId: vip.id, quantity: 1 }], voucher: 'viptEN' });
    expect(waitlisted.status).toBe(201);
    expect(waitlisted.body.status).toBe('waitlist');
    // the waitlisted ticket took no use: the code still discounts one going ticket
    const listed = (await admin.api.get(`/events/${event.id}/vouchers`)).body as Array<{ code: string; usedCount: number }>;
    expect(listed.find((v) => v.code === 'VIPTEN')?.usedCount).toBe(0);
  });

  it('without a waitlist, a line over its quota refuses the whole sign-up with svc_event_full and stores nothing', async () => {
    const event = await createEvent(admin.api, { capacity: 50, waitlist: false });
    const vip = await category(event.id, { name: 'VIP', quota: 1 });
    const standard = await category(event.id, { name: 'Standard' });
    const res = await signUp(srv, event.id, {
      tickets: [
        { categoryId: standard.id, quantity: 1 },
        { categoryId: vip.id, quantity: 2 },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('svc_event_full');
    expect(await attendeeRows(srv, event.id)).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('bad ticket lines answer 400 naming tickets: another event’s category, not on sale, over the per-order limits, on an event without categories', async () => {
    const event = await createEvent(admin.api, { maxPerSignup: 4 });
    const other = await createEvent(admin.api);
    const mine = await category(event.id, { name: 'Mine', minPerOrder: 2, maxPerOrder: 3 });
    const hidden = await category(event.id, { name: 'Press', hidden: true });
    const theirs = await category(other.id, { name: 'Theirs' });
    const plain = await createEvent(admin.api);
    const cases: Array<[number, unknown]> = [
      [event.id, [{ categoryId: theirs.id, quantity: 1 }]],
      [event.id, [{ categoryId: hidden.id, quantity: 2 }]],
      [event.id, [{ categoryId: mine.id, quantity: 1 }]],
      [event.id, [{ categoryId: mine.id, quantity: 4 }]],
      [event.id, [{ categoryId: mine.id, quantity: 0 }]],
      [event.id, 'not json'],
      [plain.id, [{ categoryId: mine.id, quantity: 1 }]],
    ];
    for (const [eventId, tickets] of cases) {
      const res = await signUp(srv, eventId, { tickets });
      expect(res.status, JSON.stringify(tickets)).toBe(400);
      expect(res.body.code).toBe('svc_invalid_param');
      expect(Object.keys(res.body.data.params).some((k) => k.startsWith('tickets'))).toBe(true);
    }
    expect(await attendeeRows(srv, event.id)).toEqual([]);
    expect(await attendeeRows(srv, plain.id)).toEqual([]);
  });

  it('the contract’s form post still works: ticket_category_id with quantity, or the only category on sale without it', async () => {
    const event = await createEvent(admin.api);
    const only = await category(event.id, { name: 'Standard' });
    await category(event.id, { name: 'Press', hidden: true });
    expect((await signUp(srv, event.id, { quantity: '2' }, { form: true })).status).toBe(201);
    expect((await signUp(srv, event.id, { quantity: '1', ticket_category_id: String(only.id) }, { form: true })).status).toBe(201);
    expect((await attendeeRows(srv, event.id)).map((r) => [r.ticket_category_id, r.quantity])).toEqual([
      [only.id, 2],
      [only.id, 1],
    ]);
    await category(event.id, { name: 'VIP' });
    const ambiguous = await signUp(srv, event.id, { quantity: '1' }, { form: true });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.data.params).toEqual({ tickets: 'choose a ticket category' });
  });
});

describe('attendee serialization and exports name the category', () => {
  it('the list carries ticketCategoryId and ticketCategory {id, name}; an event without categories keeps exactly the contract keys', async () => {
    const event = await createEvent(admin.api);
    const vip = await category(event.id, { name: 'VIP' });
    await signUp(srv, event.id, { tickets: [{ categoryId: vip.id, quantity: 1 }] });
    const [item] = (await admin.api.get(`/attendees?eventId=${event.id}`)).body;
    expect(item).toMatchObject({ ticketCategoryId: vip.id, ticketCategory: { id: vip.id, name: 'VIP' } });
    const plain = await createEvent(admin.api);
    await signUp(srv, plain.id);
    const [bare] = (await admin.api.get(`/attendees?eventId=${plain.id}`)).body;
    expect(Object.keys(bare).sort()).toEqual(['createdUtc', 'customFields', 'displayName', 'email', 'eventId', 'id', 'quantity', 'status', 'updatedUtc']);
  });

  it('a CSV export of an event with categories has a ticketCategory column of names and a voucherCode column; one without keeps its columns', async () => {
    const event = await createEvent(admin.api);
    const vip = await category(event.id, { name: 'VIP, upstairs' });
    await signUp(srv, event.id, { tickets: [{ categoryId: vip.id, quantity: 1 }] });
    const csv = (await admin.api.get(`/attendees/export?eventId=${event.id}&format=csv`)).body.replace(/^\uFEFF/, '').split('\r\n');
    expect(csv[0]).toBe('id,eventId,email,displayName,status,quantity,customFields,createdUtc,updatedUtc,ticketCategory,voucherCode');
    // signed up without a code: the code's cell is empty
    expect(csv[1]!.endsWith(',"VIP, upstairs",')).toBe(true);
    const plain = await createEvent(admin.api);
    await signUp(srv, plain.id);
    const plainCsv = (await admin.api.get(`/attendees/export?eventId=${plain.id}&format=csv`)).body.replace(/^\uFEFF/, '').split('\r\n');
    expect(plainCsv[0]).toBe('id,eventId,email,displayName,status,quantity,customFields,createdUtc,updatedUtc');
    const json = (await admin.api.get(`/attendees/export?eventId=${event.id}&format=json`)).body;
    expect(json[0]).toMatchObject({ ticketCategory: { id: vip.id, name: 'VIP, upstairs' } });
  });
});
