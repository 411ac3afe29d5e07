import { describe, expect, it } from 'vitest';
import { attendeeExportUrl } from '../../client/admin/links';

describe('admin links', () => {
  it('export links point at the export route with the event and the format', () => {
    expect(attendeeExportUrl(12, 'csv')).toBe('/svc/v1/attendees/export?eventId=12&format=csv');
    expect(attendeeExportUrl(7, 'json')).toBe('/svc/v1/attendees/export?eventId=7&format=json');
  });
});
