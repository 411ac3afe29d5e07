import { describe, expect, it } from 'vitest';
import { AppError } from '../../shared/errors';
import {
  applyContractFilter,
  applyRsvpCustomFields,
  DEFAULT_LOCATION_LABELS,
  encodeCustomFields,
  Hooks,
  normalizeCurrency,
  type AssignmentStrategy,
  type AttendeeRow,
  type RedactedBookingRow,
  type Slot,
} from '../../server/hooks';

/** A filter callback that answers what a careless JavaScript plugin might. */
function hooksAnswering(name: string, answer: unknown): Hooks {
  const hooks = new Hooks();
  hooks.addFilter(name, () => answer);
  return hooks;
}

const slot = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  start_utc: '2026-11-21 09:00:00',
  end_utc: '2026-11-21 09:30:00',
  start: '2026-11-21T10:00:00+01:00',
  label: '10:00',
  hosts: [4],
  capacity_left: 1,
  ...overrides,
});

describe('svc_rsvp_custom_fields', () => {
  it('starts from no answers, so without callbacks nothing is stored', async () => {
    const answers = await applyRsvpCustomFields(new Hooks(), { shirt: 'L' }, 1);
    if (answers instanceof AppError) throw answers;
    expect(answers).toEqual({});
    expect(encodeCustomFields(answers)).toBeNull();
  });

  it('passes the raw answers and event id to callbacks registered with 3 args', async () => {
    const hooks = new Hooks();
    hooks.addFilter('svc_rsvp_custom_fields', (_fields, raw, eventId) => ({ ...raw, eventId }), 10, 3);
    await expect(applyRsvpCustomFields(hooks, { shirt: 'L' }, 9)).resolves.toEqual({ shirt: 'L', eventId: 9 });
  });

  it('hands back a returned AppError as is, so the sign-up is rejected with it', async () => {
    const rejection = new AppError('my_plugin_bad_answer', 'Tell us more', { status: 400 });
    const result = await applyRsvpCustomFields(hooksAnswering('svc_rsvp_custom_fields', rejection), {}, 1);
    expect(result).toBe(rejection);
  });

  it.each([
    ['a string', 'shirt=L'],
    ['a number', 5],
    ['null', null],
    ['undefined', undefined],
    ['a plain Error', new Error('not the contract error object')],
    ['a Map', new Map([['shirt', 'L']])],
  ])('turns %s into no answers at all', async (_label, answer) => {
    const result = await applyRsvpCustomFields(hooksAnswering('svc_rsvp_custom_fields', answer), {}, 1);
    expect(result).toEqual({});
  });

  it('keeps scalars and arrays of strings and drops every other answer', async () => {
    const answer = {
      shirt: 'L',
      age: 31,
      vegan: false,
      days: ['sat', 'sun'],
      none: [],
      nested: { a: 1 },
      missing: null,
      mixed: ['a', 2],
      notANumber: Number.NaN,
      forever: Number.POSITIVE_INFINITY,
      callback: () => 1,
    };
    const result = await applyRsvpCustomFields(hooksAnswering('svc_rsvp_custom_fields', answer), {}, 1);
    expect(result).toEqual({ shirt: 'L', age: 31, vegan: false, days: ['sat', 'sun'], none: [] });
  });

  it('cannot be used to reach the object prototype through a __proto__ answer', async () => {
    const answer = JSON.parse('{"__proto__": "polluted", "shirt": "L"}') as unknown;
    const result = await applyRsvpCustomFields(hooksAnswering('svc_rsvp_custom_fields', answer), {}, 1);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.keys(result)).toEqual(['__proto__', 'shirt']);
  });

  it('reads a returned list as answers keyed by position', async () => {
    const result = await applyRsvpCustomFields(hooksAnswering('svc_rsvp_custom_fields', ['a', { b: 1 }]), {}, 1);
    expect(result).toEqual({ 0: 'a' });
  });

  it('stores answers as JSON and an empty answer set as NULL', () => {
    expect(encodeCustomFields({ shirt: 'L', days: ['sat'] })).toBe('{"shirt":"L","days":["sat"]}');
    expect(encodeCustomFields({})).toBeNull();
  });
});

describe('svc_rest_attendee_response', () => {
  const row: AttendeeRow = {
    id: 1,
    event_id: 2,
    email: 'a@example.com',
    display_name: 'Ada',
    quantity: 1,
    status: 'going',
    custom_fields: null,
    cancel_token: 'x'.repeat(64),
    created_utc: '2026-11-21 09:00:00',
    updated_utc: '2026-11-21 09:00:00',
  };
  const serialized = { id: 1, eventId: 2, displayName: 'Ada' };

  it('keeps the keys a callback adds', async () => {
    const hooks = new Hooks();
    hooks.addFilter('svc_rest_attendee_response', (payload, raw) => ({ ...payload, checkinCount: raw.id * 3 }), 10, 2);
    await expect(applyContractFilter(hooks, 'svc_rest_attendee_response', serialized, row)).resolves.toEqual({
      ...serialized,
      checkinCount: 3,
    });
  });

  it.each([
    ['a string', 'oops'],
    ['null', null],
    ['a list', [1, 2]],
  ])('keeps the unfiltered payload when a callback returns %s', async (_label, answer) => {
    const hooks = hooksAnswering('svc_rest_attendee_response', answer);
    await expect(applyContractFilter(hooks, 'svc_rest_attendee_response', serialized, row)).resolves.toBe(serialized);
  });
});

describe('svc_booking_slots', () => {
  const apply = (answer: unknown) => applyContractFilter(hooksAnswering('svc_booking_slots', answer), 'svc_booking_slots', [], 1, '', '');

  it('keeps well-formed slots, sorted by UTC start', async () => {
    const later = slot({ start_utc: '2026-11-21 11:00:00' });
    const earlier = slot({ start_utc: '2026-11-21 08:00:00' });
    await expect(apply([later, earlier])).resolves.toEqual([earlier, later]);
  });

  it('re-indexes an object map of slots into a list of its values', async () => {
    const a = slot({ start_utc: '2026-11-21 09:00:00' });
    const b = slot({ start_utc: '2026-11-21 10:00:00' });
    const result = await apply({ 3: a, 7: b });
    expect(Array.isArray(result)).toBe(true);
    expect(result).toEqual([a, b]);
  });

  it.each([
    ['a string', 'none'],
    ['null', null],
    ['a number', 3],
  ])('turns %s into an empty list', async (_label, answer) => {
    await expect(apply(answer)).resolves.toEqual([]);
  });

  it.each([
    ['an ISO start', { start_utc: '2026-11-21T09:00:00Z' }],
    ['a start without seconds', { start_utc: '2026-11-21 09:00' }],
    ['an impossible date', { start_utc: '2026-02-30 09:00:00' }],
    ['a numeric start', { start_utc: 1_763_715_600 }],
    ['a host given as text', { hosts: ['4'] }],
    ['a host id of 0', { hosts: [0] }],
    ['a fractional host id', { hosts: [4.5] }],
    ['hosts that are not a list', { hosts: 4 }],
    ['negative capacity', { capacity_left: -1 }],
    ['fractional capacity', { capacity_left: 0.5 }],
    ['capacity given as text', { capacity_left: '1' }],
  ])('drops a slot with %s', async (_label, overrides) => {
    const good = slot();
    await expect(apply([good, slot(overrides)])).resolves.toEqual([good]);
  });

  it('drops entries that are not slot objects', async () => {
    await expect(apply([null, 'slot', 5, [slot()]])).resolves.toEqual([]);
  });

  it('keeps a shape-valid slot with no capacity left or no hosts, for the booking service to refuse', async () => {
    const full = slot({ capacity_left: 0 });
    const hostless = slot({ start_utc: '2026-11-21 10:00:00', hosts: [] });
    await expect(apply([full, hostless])).resolves.toEqual([full, hostless]);
  });

  it('keeps a slot whose display fields are missing, with those fields empty, and drops unknown keys', async () => {
    const added = { start_utc: '2026-11-21 09:00:00', hosts: [4], capacity_left: 2, extra: 'secret' };
    const expected: Slot = { start_utc: '2026-11-21 09:00:00', end_utc: '', start: '', label: '', hosts: [4], capacity_left: 2 };
    await expect(apply([added])).resolves.toEqual([expected]);
  });
});

describe('svc_booking_assignment_strategy', () => {
  const fixed: AssignmentStrategy = { pick: (candidates) => candidates[0] ?? 0 };

  it('returns an object with a pick method as is', async () => {
    const custom: AssignmentStrategy = { pick: async () => 12 };
    const hooks = hooksAnswering('svc_booking_assignment_strategy', custom);
    await expect(applyContractFilter(hooks, 'svc_booking_assignment_strategy', fixed, 'round_robin')).resolves.toBe(custom);
  });

  it.each([
    ['a string', 'round_robin'],
    ['null', null],
    ['an object without pick', { choose: () => 1 }],
    ['an object whose pick is not a function', { pick: 3 }],
  ])('answers %s with svc_internal, HTTP 500', async (_label, answer) => {
    const hooks = hooksAnswering('svc_booking_assignment_strategy', answer);
    const failure = await applyContractFilter(hooks, 'svc_booking_assignment_strategy', fixed, '').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({
      code: 'svc_internal',
      message: 'Assignment strategy filter returned a non-object',
      status: 500,
    });
  });
});

describe('svc_booking_awaiting_payment', () => {
  it.each([
    [true, true],
    [1, false],
    ['true', false],
    [{}, false],
    [false, false],
  ])('reads %j as %j: only the boolean true counts', async (answer, expected) => {
    const hooks = hooksAnswering('svc_booking_awaiting_payment', answer);
    const config = {
      id: 1,
      price_cents: 500,
      requires_approval: false,
      assignment: '' as const,
      duration_minutes: 30,
      slot_interval_minutes: 30,
      timezone: 'UTC',
      hosts: [4],
      weekly_windows: { mon: [], tue: [], wed: [], thu: [], fri: [], sat: [], sun: [] },
      days_off: [],
      min_notice_minutes: 0,
      max_advance_days: 30,
      buffer_before_minutes: 0,
      buffer_after_minutes: 0,
      capacity: 1,
      location_mode: 'in_person' as const,
      location_value: '',
    };
    await expect(applyContractFilter(hooks, 'svc_booking_awaiting_payment', false, 1, config)).resolves.toBe(expected);
  });
});

describe('svc_booking_payment_hold_hours', () => {
  it.each([
    [48, 48],
    [2.9, 2],
    [0, 1],
    [-5, 1],
    [0.5, 1],
    ['48', 24],
    [null, 24],
    [Number.NaN, 24],
    [Number.POSITIVE_INFINITY, 24],
  ])('turns %j into %j hours (whole, at least 1, 24 for non-numbers)', async (answer, expected) => {
    const hooks = hooksAnswering('svc_booking_payment_hold_hours', answer);
    await expect(applyContractFilter(hooks, 'svc_booking_payment_hold_hours', 24)).resolves.toBe(expected);
  });
});

describe('svc_slot_cache_ttl', () => {
  it.each([
    [600, 600],
    [0, 0],
    [-10, 0],
    [59.9, 59],
    ['600', 300],
    [undefined, 300],
    [Number.NaN, 300],
  ])('turns %j into %j seconds (whole, at least 0, 300 for non-numbers)', async (answer, expected) => {
    const hooks = hooksAnswering('svc_slot_cache_ttl', answer);
    await expect(applyContractFilter(hooks, 'svc_slot_cache_ttl', 300)).resolves.toBe(expected);
  });
});

describe('svc_currency', () => {
  it.each([
    ['eur', 'EUR'],
    ['  gbp ', 'GBP'],
    ['JPY', 'JPY'],
    ['EURO', 'USD'],
    ['E1R', 'USD'],
    ['', 'USD'],
    ['usı', 'USD'],
    [978, 'USD'],
    [null, 'USD'],
  ])('normalizes %j to %j', async (answer, expected) => {
    expect(normalizeCurrency(answer)).toBe(expected);
    const hooks = hooksAnswering('svc_currency', answer);
    await expect(applyContractFilter(hooks, 'svc_currency', 'USD')).resolves.toBe(expected);
  });
});

describe('client IP filters', () => {
  it.each(['svc_rsvp_client_ip', 'svc_booking_client_ip'] as const)('%s casts the answer to a trimmed string', async (name) => {
    await expect(applyContractFilter(hooksAnswering(name, ' 203.0.113.9 '), name, '10.0.0.1')).resolves.toBe('203.0.113.9');
    await expect(applyContractFilter(hooksAnswering(name, null), name, '10.0.0.1')).resolves.toBe('');
    await expect(applyContractFilter(hooksAnswering(name, undefined), name, '10.0.0.1')).resolves.toBe('');
    await expect(applyContractFilter(hooksAnswering(name, 42), name, '10.0.0.1')).resolves.toBe('42');
  });

  it('keeps an empty answer empty, which turns the per-IP throttle off', async () => {
    const hooks = hooksAnswering('svc_booking_client_ip', '');
    await expect(applyContractFilter(hooks, 'svc_booking_client_ip', '10.0.0.1')).resolves.toBe('');
  });
});

describe('svc_booking_payment_url', () => {
  const booking = {} as RedactedBookingRow;

  it.each([
    ['https://pay.example/checkout?id=5', 'https://pay.example/checkout?id=5'],
    [' http://pay.example/x ', 'http://pay.example/x'],
    ['https://pay.example', 'https://pay.example/'],
    ['https://pay.ex\nample/x', 'https://pay.example/x'],
  ])('keeps the absolute http(s) URL %j', async (answer, expected) => {
    const hooks = hooksAnswering('svc_booking_payment_url', answer);
    await expect(applyContractFilter(hooks, 'svc_booking_payment_url', '', 5, booking)).resolves.toBe(expected);
  });

  it.each([
    ['a relative path', '/pay/5'],
    ['a javascript URL', 'javascript:alert(1)'],
    ['an ftp URL', 'ftp://pay.example/x'],
    ['a non-string', { href: 'https://pay.example' }],
    ['nothing', undefined],
  ])('answers an empty string for %s', async (_label, answer) => {
    const hooks = hooksAnswering('svc_booking_payment_url', answer);
    await expect(applyContractFilter(hooks, 'svc_booking_payment_url', '', 5, booking)).resolves.toBe('');
  });
});

describe('svc_booking_location_labels', () => {
  it('offers the contract defaults, with no label for custom', () => {
    expect(DEFAULT_LOCATION_LABELS).toEqual({ in_person: 'In person', virtual: 'Online', phone: 'By phone' });
    expect(DEFAULT_LOCATION_LABELS).not.toHaveProperty('custom');
  });

  it('keeps string labels and drops entries that are not strings', async () => {
    const hooks = hooksAnswering('svc_booking_location_labels', { virtual: 'Video call', phone: 7, custom: 'Café' });
    await expect(applyContractFilter(hooks, 'svc_booking_location_labels', { ...DEFAULT_LOCATION_LABELS })).resolves.toEqual({
      virtual: 'Video call',
      custom: 'Café',
    });
  });

  it('keeps the incoming labels when a callback returns a non-object', async () => {
    const hooks = hooksAnswering('svc_booking_location_labels', 'In person');
    await expect(applyContractFilter(hooks, 'svc_booking_location_labels', { ...DEFAULT_LOCATION_LABELS })).resolves.toEqual(DEFAULT_LOCATION_LABELS);
  });
});

describe('svc_rsvp_form_fields', () => {
  it('keeps the HTML string a callback returns', async () => {
    const hooks = new Hooks();
    hooks.addFilter('svc_rsvp_form_fields', (html) => `${html}<input name="svc_cf_shirt">`);
    await expect(applyContractFilter(hooks, 'svc_rsvp_form_fields', '', 1)).resolves.toBe('<input name="svc_cf_shirt">');
  });

  it.each([
    ['null', null],
    ['a number', 5],
    ['an element-like object', { outerHTML: '<b>' }],
  ])('answers an empty string when a callback returns %s', async (_label, answer) => {
    const hooks = hooksAnswering('svc_rsvp_form_fields', answer);
    await expect(applyContractFilter(hooks, 'svc_rsvp_form_fields', '<p>', 1)).resolves.toBe('');
  });
});

describe('errors from callbacks', () => {
  it('lets a throwing callback reach the caller instead of coercing it away', async () => {
    const hooks = new Hooks();
    hooks.addFilter('svc_currency', () => {
      throw new Error('settings unreadable');
    });
    await expect(applyContractFilter(hooks, 'svc_currency', 'USD')).rejects.toThrow('settings unreadable');
  });
});
