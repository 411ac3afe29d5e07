import { describe, expect, it } from 'vitest';
import { attendeeExportUrl, attendeeListPath, queryString } from '../../client/admin/links';

describe('admin links', () => {
  it('export links point at the export route with the event and the format', () => {
    expect(attendeeExportUrl(12, 'csv')).toBe('/svc/v1/attendees/export?eventId=12&format=csv');
    expect(attendeeExportUrl(7, 'json')).toBe('/svc/v1/attendees/export?eventId=7&format=json');
  });

  it('the list path carries filters, sort and page, leaving defaults and empty filters out', () => {
    expect(attendeeListPath({ eventId: 3, page: 1, perPage: 250 })).toBe('/attendees?eventId=3&page=1&perPage=250');
    expect(attendeeListPath({ eventId: 3, status: 'waitlist', search: '  ada & bob ', sort: 'email', order: 'desc', page: 4, perPage: 500 })).toBe(
      '/attendees?eventId=3&status=waitlist&search=ada+%26+bob&sort=email&order=desc&page=4&perPage=500',
    );
    expect(attendeeListPath({ eventId: 3, status: '', search: '   ', sort: 'id', order: 'asc', page: 1, perPage: 10 })).toBe('/attendees?eventId=3&page=1&perPage=10');
  });

  it('queryString skips undefined, null and empty values', () => {
    expect(queryString({ a: 1, b: undefined, c: null, d: '', e: false, f: 'x y' })).toBe('?a=1&e=false&f=x+y');
    expect(queryString({})).toBe('');
  });
});
