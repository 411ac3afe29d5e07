/**
 * Custom-field definitions in the extended edition (docs/api.md#custom-fields): the fields
 * rendered through svc_rsvp_form_fields (escaped, appended in priority order), validated at
 * priority 10 of svc_rsvp_custom_fields (only its own values; refusals 400 naming svc_cf_<key>,
 * nothing stored), stored as JSON on sign-ups and paid orders, one labelled column each in the
 * exports; without the edition's plugin the definitions change nothing.
 */
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import { queryRows } from '../../server/db/client';
import { Hooks } from '../../server/hooks';
import type { AppContext } from '../../server/context';
import { signupService } from '../../server/modules/attendees/signup.service';
import { eventsService } from '../../server/modules/events/events.service';
import { apiClient } from '../helpers/http';
import { useTestHooks } from '../helpers/hooks';
import { paymentIdOf } from '../helpers/payments';
import { agedFormToken, attendeeRows, createEvent, resetThrottles, signUp, uniqueEmail } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

const { server: srv, admin, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });
const { filter } = useTestHooks(hooks);

beforeAll(() => {
  // many sign-ups from one address: the per-IP throttle is not what this file is about
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
});
beforeEach(() => resetThrottles(srv));

const FIELDS = [
  { key: 'diet', label: 'Diet', type: 'text', required: true, maxLength: 20 },
  { key: 'notes', label: 'Anything else?', type: 'textarea' },
  { key: 'manager', label: 'Manager email', type: 'email' },
  { key: 'age', label: 'Age', type: 'number' },
  { key: 'size', label: 'T-shirt size', type: 'select', options: ['S', 'M', 'L & XL'] },
  { key: 'photos', label: 'Photos are fine', type: 'checkbox' },
];
const GOOD = { svc_cf_diet: 'vegan', svc_cf_manager: 'boss@example.com', svc_cf_age: '42', svc_cf_size: 'L & XL', svc_cf_photos: 'yes' };
const STORED = { diet: 'vegan', manager: 'boss@example.com', age: 42, size: 'L & XL', photos: true };

const eventWithFields = (overrides: Record<string, unknown> = {}) => createEvent(admin.api, { fields: FIELDS, ...overrides });
const formHtml = async (eventId: number): Promise<string> => (await apiClient(srv.url).get(`/events/${eventId}/form`)).body.html;
const orderRows = (eventId: number) =>
  queryRows<{ id: number; custom_fields: string | null }>(srv.server.ctx.db, sql`select id, custom_fields from svc_orders where event_id = ${eventId}`);

describe('svc_rsvp_form_fields', () => {
  it('renders each field with its svc_cf_ name, required, maxlength and escaped options, in the order defined', async () => {
    const event = await eventWithFields();
    const html = await formHtml(event.id);
    expect(html.startsWith('<div class="svc-cf" data-svc-custom-fields="">')).toBe(true);
    const names = [...html.matchAll(/name="(svc_cf_[a-z_]+)"/g)].map((m) => m[1]);
    expect(names).toEqual(FIELDS.map((f) => `svc_cf_${f.key}`));
    expect(html).toContain('<input id="svc-cf-diet" name="svc_cf_diet" type="text" required maxlength="20">');
    expect(html).toContain('<label for="svc-cf-diet">Diet<span class="svc-cf-required"> (required)</span></label>');
    expect(html).toContain('<textarea id="svc-cf-notes" name="svc_cf_notes" rows="3"></textarea>');
    expect(html).toContain('type="email"');
    expect(html).toContain('<option value="L &amp; XL">L &amp; XL</option>');
    expect(html).toContain('<input id="svc-cf-photos" name="svc_cf_photos" type="checkbox" value="yes">');
  });

  it('escapes a <script> label and option; the public event carries the definitions as typed', async () => {
    const event = await createEvent(admin.api, {
      fields: [{ key: 'evil', label: '<script>alert(1)</script>"x"', type: 'select', options: ['Fish & "chips" <b>'] }],
    });
    const html = await formHtml(event.id);
    expect(html).not.toMatch(/<script|<b>/);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&quot;x&quot;');
    expect(html).toContain('<option value="Fish &amp; &quot;chips&quot; &lt;b&gt;">');
    const publicEvent = await apiClient(srv.url).get(`/events/${event.id}`);
    expect(publicEvent.body.fields[0].label).toBe('<script>alert(1)</script>"x"');
    expect(publicEvent.body).not.toHaveProperty('chatWebhookUrl');
  });

  it('appends to the incoming HTML: a callback at 9 comes before the fields, one at 11 after; no definitions, no HTML', async () => {
    filter('svc_rsvp_form_fields', (html: string) => `${html}<p>nine</p>`, 9, 2);
    filter('svc_rsvp_form_fields', (html: string) => `${html}<p>eleven</p>`, 11, 2);
    const event = await eventWithFields();
    const html = await formHtml(event.id);
    expect(html.indexOf('<p>nine</p>')).toBe(0);
    expect(html.indexOf('data-svc-custom-fields')).toBeGreaterThan(0);
    expect(html.endsWith('</div><p>eleven</p>')).toBe(true);
    const plain = await createEvent(admin.api);
    expect(await formHtml(plain.id)).toBe('<p>nine</p><p>eleven</p>');
  });
});

describe('svc_rsvp_custom_fields at priority 10', () => {
  it('stores the answers as JSON in their types; keys the event does not define are dropped', async () => {
    const event = await eventWithFields();
    const res = await signUp(srv, event.id, { ...GOOD, svc_cf_unknown: 'dropped' });
    expect(res.status).toBe(201);
    const [row] = await attendeeRows(srv, event.id);
    expect(JSON.parse(row.custom_fields)).toEqual(STORED);
    const listed = await admin.api.get(`/attendees?eventId=${event.id}`);
    expect(listed.body[0].customFields).toEqual(STORED);
  });

  it('an answer set that comes out empty is stored as NULL', async () => {
    const event = await createEvent(admin.api, { fields: [{ key: 'notes', label: 'Notes', type: 'text' }] });
    expect((await signUp(srv, event.id, { svc_cf_notes: '   ' })).status).toBe(201);
    expect((await attendeeRows(srv, event.id))[0].custom_fields).toBeNull();
  });

  it('returns only its own values: a callback at 9 sees the raw answers and its additions are dropped; one at 11 merges', async () => {
    const seenAt9: unknown[] = [];
    filter(
      'svc_rsvp_custom_fields',
      (fields: Record<string, unknown>, raw: Record<string, unknown>) => {
        seenAt9.push(raw);
        return { ...fields, from_nine: 'x' };
      },
      9,
      3,
    );
    filter('svc_rsvp_custom_fields', (fields: Record<string, unknown>, raw: Record<string, unknown>) => ({ ...fields, coupon: raw.coupon }), 11, 3);
    const event = await eventWithFields();
    expect((await signUp(srv, event.id, { ...GOOD, svc_cf_coupon: 'SPRING' })).status).toBe(201);
    expect(seenAt9).toEqual([{ diet: 'vegan', manager: 'boss@example.com', age: '42', size: 'L & XL', photos: 'yes', coupon: 'SPRING' }]);
    expect(JSON.parse((await attendeeRows(srv, event.id))[0].custom_fields)).toEqual({ ...STORED, coupon: 'SPRING' });
  });

  it('an event without definitions passes the answers on untouched', async () => {
    filter('svc_rsvp_custom_fields', (fields: Record<string, unknown>, raw: Record<string, unknown>) => ({ ...fields, ...raw }), 11, 3);
    const event = await createEvent(admin.api);
    expect((await signUp(srv, event.id, { svc_cf_anything: 'kept' })).status).toBe(201);
    expect(JSON.parse((await attendeeRows(srv, event.id))[0].custom_fields)).toEqual({ anything: 'kept' });
  });

  it('a refusal from a callback before it is passed on, not overwritten', async () => {
    filter('svc_rsvp_custom_fields', () => new AppError('svc_spam_suspected', 'No.', { status: 422 }), 9, 1);
    const event = await eventWithFields();
    const res = await signUp(srv, event.id, GOOD);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('svc_spam_suspected');
  });

  it.each([
    ['a missing required answer', { svc_cf_diet: '' }, 'svc_cf_diet', 'An answer is required.'],
    ['text over its maximum length', { svc_cf_diet: 'x'.repeat(21) }, 'svc_cf_diet', 'Use at most 20 characters.'],
    ['a textarea over the 2000 characters every answer is held to', { svc_cf_notes: `${'y'.repeat(2000)}z` }, 'svc_cf_notes', undefined],
    ['an email that is not one', { svc_cf_manager: 'boss at example' }, 'svc_cf_manager', 'Enter an email address, like name@example.com.'],
    ['a number that is not one', { svc_cf_age: 'forty' }, 'svc_cf_age', 'Enter a number, like 12 or 2.5.'],
    ['a choice outside the options', { svc_cf_size: 'XXL' }, 'svc_cf_size', 'Choose one of the listed options.'],
    ['a checkbox posted as something else', { svc_cf_photos: 'maybe' }, 'svc_cf_photos', 'Tick the box or leave it empty.'],
    ['two answers to a single field', { svc_cf_diet: ['a', 'b'] }, 'svc_cf_diet', 'Give one answer only.'],
  ])('%s → 400 svc_invalid_param naming the input, nothing stored', async (_what, bad, name, reason) => {
    const event = await eventWithFields();
    const res = await signUp(srv, event.id, { ...GOOD, ...bad });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('svc_invalid_param');
    expect(Object.keys(res.body.data.params)).toEqual([name]);
    if (reason) {
      expect(res.body.data.params[name]).toBe(reason);
      expect(res.body.message).toMatch(/^Please check your answer to “.+”\.$/);
    }
    expect(await attendeeRows(srv, event.id)).toHaveLength(0);
  });

  it('a required checkbox must be ticked; every bad answer is named at once', async () => {
    const event = await createEvent(admin.api, {
      fields: [
        { key: 'terms', label: 'I accept the terms', type: 'checkbox', required: true },
        { key: 'age', label: 'Age', type: 'number', required: true },
      ],
    });
    const res = await signUp(srv, event.id, {});
    expect(res.status).toBe(400);
    expect(res.body.data.params).toEqual({ svc_cf_terms: 'Tick this box to continue.', svc_cf_age: 'An answer is required.' });
    expect(res.body.message).toBe('Please check your answers to “I accept the terms”, “Age”.');
    expect((await signUp(srv, event.id, { svc_cf_terms: 'yes', svc_cf_age: '-1.5' })).status).toBe(201);
    expect(JSON.parse((await attendeeRows(srv, event.id))[0].custom_fields)).toEqual({ terms: true, age: -1.5 });
  });

  it('a form-encoded post is checked the same way', async () => {
    const event = await eventWithFields();
    const bad = await signUp(srv, event.id, { ...GOOD, svc_cf_size: 'XXL' }, { form: true });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['svc_cf_size']);
    expect((await signUp(srv, event.id, GOOD, { form: true })).status).toBe(201);
    expect(JSON.parse((await attendeeRows(srv, event.id))[0].custom_fields)).toEqual(STORED);
  });
});

describe('paid sign-ups', () => {
  it('a bad answer holds no order; a good one is kept on the order and carried onto its paid tickets', async () => {
    const event = await eventWithFields({ priceCents: 1500, capacity: 10 });
    const bad = await signUp(srv, event.id, { ...GOOD, svc_cf_age: 'old' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.data.params)).toEqual(['svc_cf_age']);
    expect(await orderRows(event.id)).toHaveLength(0);

    const res = await signUp(srv, event.id, { ...GOOD, quantity: 2 });
    expect(res.status).toBe(201);
    expect(res.body.status).toBe('pending_payment');
    const [order] = await orderRows(event.id);
    expect(JSON.parse(order!.custom_fields!)).toEqual(STORED);

    expect((await apiClient(srv.url).post(`/payments/local/${paymentIdOf(res.body.paymentUrl)}/pay`)).status).toBe(202);
    await srv.server.ctx.jobs.idle();
    const tickets = await attendeeRows(srv, event.id);
    expect(tickets).toHaveLength(2);
    for (const ticket of tickets) expect(JSON.parse(ticket.custom_fields)).toEqual(STORED);
  });
});

describe('exports', () => {
  it('CSV and XLSX carry one column per defined field, headed by its label, after the usual columns', async () => {
    const event = await createEvent(admin.api, {
      fields: [
        { key: 'diet', label: 'Diet', type: 'text' },
        { key: 'age', label: 'Age', type: 'number' },
        { key: 'email_again', label: 'email', type: 'email' },
        { key: 'photos', label: 'Photos are fine', type: 'checkbox' },
      ],
    });
    await signUp(srv, event.id, { email: 'first@example.test', svc_cf_diet: 'vegan', svc_cf_age: '42', svc_cf_photos: 'yes' });
    await signUp(srv, event.id, { email: 'second@example.test', svc_cf_email_again: 'x@example.com' });

    const csv = (await admin.api.get(`/attendees/export?eventId=${event.id}&format=csv`)).body as string;
    const [header, first, second] = csv.replace(/^\uFEFF/, '').split('\r\n');
    const headers = header!.split(',');
    expect(headers.slice(-4)).toEqual(['Diet', 'Age', 'email (email_again)', 'Photos are fine']);
    expect(headers.slice(0, 2)).toEqual(['id', 'eventId']);
    expect(headers).toContain('customFields');
    expect(first!.endsWith(',vegan,42,,true')).toBe(true);
    expect(second!.endsWith(',,,x@example.com,false')).toBe(true);

    const res = await fetch(`${srv.url}/svc/v1/attendees/export?eventId=${event.id}&format=xlsx`, { headers: { cookie: admin.cookie } });
    const workbook = new ExcelJS.Workbook();
    // exceljs's typings predate Buffer's generic parameter
    await workbook.xlsx.load(Buffer.from(await res.arrayBuffer()) as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    const sheet = workbook.getWorksheet('Attendees')!;
    const values = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(values(1)).toEqual(headers);
    expect(values(2).slice(-4)).toEqual(['vegan', 42, undefined, true]);
  });

  it('JSON keeps the answers in customFields, without extra columns', async () => {
    const event = await eventWithFields();
    await signUp(srv, event.id, GOOD);
    const json = await admin.api.get(`/attendees/export?eventId=${event.id}&format=json`);
    expect(json.body).toHaveLength(1);
    expect(json.body[0].customFields).toEqual(STORED);
    expect(json.body[0]).not.toHaveProperty('Diet');
  });
});

describe('without the extended edition', () => {
  /** The same database and services with the free edition's setting and no edition plugin on the hooks. */
  const freeCtx = (): AppContext => ({ ...srv.server.ctx, env: { ...srv.server.ctx.env, SVC_EDITION: 'free' }, hooks: new Hooks() });

  it('definitions change nothing: no HTML, no check, no fields in the event, no columns', async () => {
    const event = await eventWithFields();
    const ctx = freeCtx();
    expect((await signupService(ctx).form(event.id)).html).toBe('');
    expect(await eventsService(ctx).get(event.id, null)).not.toHaveProperty('fields');

    // a plugin that stores the raw answers: the required diet may be missing, the size anything
    ctx.hooks.addFilter('svc_rsvp_custom_fields', (fields, raw) => (fields instanceof AppError ? fields : { ...fields, ...raw }), 50, 3);
    const raw = { email: uniqueEmail(), display_name: 'Free', quantity: 1, svc_ts: agedFormToken(srv, event.id), svc_cf_size: 'XXL' };
    expect(await signupService(ctx).signup({ eventId: event.id, raw, ip: '', headers: {} })).toMatchObject({ status: 'going' });
    expect(JSON.parse((await attendeeRows(srv, event.id))[0].custom_fields)).toEqual({ size: 'XXL' });

    const { attendeesService } = await import('../../server/modules/attendees/attendees.service');
    const principal = { kind: 'user', userId: 1, role: 'administrator' } as never;
    const { stream } = await attendeesService(ctx).export({ eventId: event.id, format: 'csv' }, principal);
    const header = (await new Response(stream).text()).replace(/^\uFEFF/, '').split('\r\n')[0]!;
    expect(header.split(',')).not.toContain('Diet');
    expect(header.endsWith('customFields,createdUtc,updatedUtc')).toBe(true);
  });
});
