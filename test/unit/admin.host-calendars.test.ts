/** The calendars page's words for the server's refusals and addresses (docs/api.md#host-calendars). */
import { beforeAll, describe, expect, it } from 'vitest';
import { calendarFieldErrors, shownAddress } from '../../client/admin/host-calendars-data';
import { useBundle, useLocale } from '../../client/i18n/i18n';
import { ApiError } from '../../client/ui/errors';

const refused = (params: Record<string, unknown>) => new ApiError('svc_invalid_param', 'Invalid parameter(s)', 400, { params });

describe('host calendars page helpers', () => {
  beforeAll(async () => {
    await useLocale('en');
    await useBundle('admin');
  });

  it('says each refused field in the reader’s words, at that field: an unreadable address apart from a refused one', () => {
    expect(calendarFieldErrors(refused({ url: 'could not be read as a calendar: connection refused' }))).toEqual({
      url: 'This address could not be read as a calendar. Check it and try again.',
    });
    expect(calendarFieldErrors(refused({ url: 'must not be a private address' }))).toEqual({
      url: 'Enter a public https:// address without a user name or password in it.',
    });
    expect(Object.keys(calendarFieldErrors(refused({ password: 'the credentials were refused', username: 'is required with a password' })))).toEqual([
      'password',
      'username',
    ]);
    expect(calendarFieldErrors(refused({ 'writeBack.x': 'only a CalDAV calendar can take bookings' })).writeBack).toBe(
      'Only a CalDAV calendar can take your bookings.',
    );
  });

  it('names no field for any other refusal', () => {
    expect(calendarFieldErrors(new ApiError('svc_forbidden', 'No', 403))).toEqual({});
    expect(calendarFieldErrors(new Error('boom'))).toEqual({});
  });

  it('shows an address without the credentials in it', () => {
    expect(shownAddress('https://ann:secret@dav.example/ann/cal/')).toBe('https://dav.example/ann/cal/');
    expect(shownAddress('not a url')).toBe('not a url');
  });
});
