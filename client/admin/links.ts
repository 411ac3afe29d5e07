/** URLs the admin app builds: list queries and export links (SPEC §4 `/attendees`, `/attendees/export`). */
import type { AttendeeSortKey, AttendeeStatus } from '../../shared/attendees';

export const API_PREFIX = '/svc/v1';

export type ExportFormat = 'csv' | 'json';

/** The export route as a plain link: the browser downloads it with the session cookie. */
export function attendeeExportUrl(eventId: number, format: ExportFormat): string {
  const query = new URLSearchParams({ eventId: String(eventId), format });
  return `${API_PREFIX}/attendees/export?${query.toString()}`;
}

export interface AttendeeListParams {
  eventId: number;
  status?: AttendeeStatus | '';
  search?: string;
  sort?: AttendeeSortKey;
  order?: 'asc' | 'desc';
  page: number;
  perPage: number;
}

/** `/attendees?…` (relative to the API base); empty filters are left out. */
export function attendeeListPath(p: AttendeeListParams): string {
  const query = new URLSearchParams({ eventId: String(p.eventId) });
  if (p.status) query.set('status', p.status);
  const search = p.search?.trim();
  if (search) query.set('search', search);
  if (p.sort && p.sort !== 'id') query.set('sort', p.sort);
  if (p.order === 'desc') query.set('order', 'desc');
  query.set('page', String(p.page));
  query.set('perPage', String(p.perPage));
  return `/attendees?${query.toString()}`;
}

/** Any `?key=value` query from an object, skipping undefined, null and ''. */
export function queryString(params: Record<string, string | number | boolean | null | undefined>): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '') continue;
    query.set(key, String(value));
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}
