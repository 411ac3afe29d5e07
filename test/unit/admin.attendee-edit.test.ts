import { beforeAll, describe, expect, it } from 'vitest';
import { useBundle, useLocale } from '../../client/i18n/i18n';
import { attendeeDraftErrors, attendeePatch, attendeeServerFieldErrors } from '../../client/admin/attendee-edit';
import { ApiError } from '../../client/ui/errors';

const ruby = { displayName: 'Ruby Kowalczyk-Henderson', email: 'ruby.kowalczyk-henderson@example-university.ac.uk', quantity: 1, status: 'going' };
const draftOf = (overrides: Partial<Record<'displayName' | 'email' | 'quantity' | 'status', string>> = {}) => ({
  displayName: ruby.displayName,
  email: ruby.email,
  quantity: '1',
  status: 'going',
  ...overrides,
});

describe('attendee edit form', () => {
  beforeAll(async () => {
    await useLocale('en');
    await useBundle('admin');
  });

  it('a complete draft has no problem', () => {
    expect(attendeeDraftErrors(draftOf())).toEqual({});
  });

  it('an empty name, an address without a domain and a quantity of 0 are each named in plain words', () => {
    expect(attendeeDraftErrors(draftOf({ displayName: '  ', email: 'ruby.kowalczyk-henderson@', quantity: '0' }))).toEqual({
      displayName: 'Enter the attendee’s name (up to 190 characters).',
      email: 'Enter an email address like name@example.org.',
      quantity: 'Enter a whole number of seats from 1 to 1,000.',
    });
  });

  it('a fractional or too large quantity is refused', () => {
    expect(attendeeDraftErrors(draftOf({ quantity: '1.5' })).quantity).toBeDefined();
    expect(attendeeDraftErrors(draftOf({ quantity: '1001' })).quantity).toBeDefined();
  });

  it('the patch holds only what changed, trimmed', () => {
    expect(attendeePatch(ruby, draftOf())).toEqual({});
    expect(attendeePatch(ruby, draftOf({ email: ' ruby.h@example.org ', quantity: '3', status: 'waitlist' }))).toEqual({
      email: 'ruby.h@example.org',
      quantity: 3,
      status: 'waitlist',
    });
  });

  it('the server’s refusal of a field reads as the form’s own words; any other error names no field', () => {
    const refused = new ApiError('svc_invalid_param', 'Invalid parameter(s): email', 400, { params: { email: 'must be a valid email address' } });
    expect(attendeeServerFieldErrors(refused)).toEqual({ email: 'Enter an email address like name@example.org.' });
    expect(attendeeServerFieldErrors(new ApiError('svc_event_full', 'This event is full.', 409))).toEqual({});
  });
});
