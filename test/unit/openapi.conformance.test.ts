import { describe, expect, it } from 'vitest';
import { checkAnswer } from '../helpers/openapi-check';

const json = (extra: Record<string, string> = {}) => new Headers({ 'content-type': 'application/json; charset=utf-8', ...extra });

describe('the OpenAPI conformance check every test server runs', () => {
  it('accepts a list answer shaped as documented, with X-Total-Count', () => {
    expect(checkAnswer('GET', '/bookings', 200, json({ 'X-Total-Count': '0' }), '[]')).toBeNull();
  });

  it('flags a list answer without its X-Total-Count header', () => {
    expect(checkAnswer('GET', '/bookings', 200, json(), '[]')).toMatch(/X-Total-Count missing/);
  });

  it('flags a body that does not match the documented schema', () => {
    expect(checkAnswer('GET', '/booking-types/7', 200, json(), '{"id":"seven"}')).toMatch(/must/);
  });

  it('flags an error answer that is not the error body', () => {
    expect(checkAnswer('GET', '/booking-types/7', 404, json(), '{"error":"nope"}')).toMatch(/must have required property/);
    expect(checkAnswer('GET', '/booking-types/7', 404, json(), '{"code":"svc_not_found","message":"Not found.","data":{"status":404}}')).toBeNull();
  });

  it('flags an undocumented media type and a body on a documented 204', () => {
    expect(checkAnswer('GET', '/booking-types/7', 200, new Headers({ 'content-type': 'text/html' }), '<p>')).toMatch(/media type 'text\/html' not documented/);
    expect(checkAnswer('DELETE', '/booking-types/7', 204, new Headers(), 'x')).toMatch(/documented without a body/);
  });

  it('matches literal paths before templated ones (/bookings/admin is not /bookings/{token})', () => {
    const created =
      '{"bookingId":1,"status":"confirmed","startUtc":"2026-01-01 10:00:00","endUtc":"2026-01-01 10:30:00","hostUserId":2,"calendarUid":"booking-1-0123456789ab@svc.local"}';
    expect(checkAnswer('POST', '/bookings/admin', 201, json(), created)).toBeNull();
  });
});
