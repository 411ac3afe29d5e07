/**
 * The REST addresses the admin app uses beside tRPC: the attendee export (docs/api.md#rest
 * `/attendees/export`), a streamed download that is not a tRPC procedure — linked to for the whole
 * event, posted to for a selection (attendees-bulk.ts).
 */
import type { ExportFormat } from '../../shared/attendees-bulk';

export const API_PREFIX = '/svc/v1';

/** The export route as a plain link: the browser downloads it with the session cookie. */
export function attendeeExportUrl(eventId: number, format: ExportFormat): string {
  const query = new URLSearchParams({ eventId: String(eventId), format });
  return `${API_PREFIX}/attendees/export?${query.toString()}`;
}
