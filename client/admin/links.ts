/**
 * The one REST address the admin app builds: the attendee export (docs/api.md#rest `/attendees/export`),
 * a streamed download that is not a tRPC procedure, so the page links to it.
 */
export const API_PREFIX = '/svc/v1';

export type ExportFormat = 'csv' | 'json' | 'xlsx';

/** The export route as a plain link: the browser downloads it with the session cookie. */
export function attendeeExportUrl(eventId: number, format: ExportFormat): string {
  const query = new URLSearchParams({ eventId: String(eventId), format });
  return `${API_PREFIX}/attendees/export?${query.toString()}`;
}
