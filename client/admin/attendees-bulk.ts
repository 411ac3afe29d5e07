/** The admin app's calls for attendees in bulk (docs/api.md#attendees-in-bulk). */
import type { AddAttendeeInput, BulkAction, BulkStarted, EventMessageResult, ExportFormat, JobProgress } from '../../shared/attendees-bulk';
import type { AttendeeStatus } from '../../shared/attendees';
import { ApiError, NetworkError } from '../ui/errors';
import { call, rpc } from '../ui/trpc';
import { API_PREFIX } from './links';

export type BulkSelection = { ids: number[] } | { query: { search?: string; status?: AttendeeStatus } };

export const addAttendee = (eventId: number, attendee: AddAttendeeInput) => call(rpc().attendees.add.mutate({ id: eventId, attendee }));

export const startBulk = (eventId: number, action: BulkAction, selection: BulkSelection, message?: { subject: string; body: string }): Promise<BulkStarted> =>
  call(rpc().attendees.bulk.mutate({ eventId, action, ...selection, message }));

/**
 * Saves the selection as a file (POST /attendees/export): a list of ids does not fit a link, so
 * the page fetches the file and hands the browser a blob of it to save under the server's name.
 */
export async function downloadSelection(eventId: number, selection: BulkSelection, format: ExportFormat): Promise<void> {
  let res: Response;
  try {
    res = await fetch(`${API_PREFIX}/attendees/export`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ eventId, format, ...selection }),
    });
  } catch (err) {
    throw new NetworkError(err);
  }
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { code?: string; message?: string; data?: Record<string, unknown> } | null;
    throw new ApiError(body?.code ?? 'svc_internal', body?.message ?? res.statusText, res.status, body?.data);
  }
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `attendees.${format}`;
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // the browser has taken the file once the click's task is over
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

export const jobProgress = (id: number): Promise<JobProgress> => call(rpc().attendees.job.query({ id }));

export const messageEvent = (
  eventId: number,
  message: { to: 'going' | 'waitlist' | 'all'; subject: string; body: string; dryRun: boolean },
): Promise<EventMessageResult> => call(rpc().attendees.message.mutate({ id: eventId, message }));

/** How long the admin app offers Undo after a bulk cancel or move (docs/decisions/047-attendees-in-bulk.md). */
export const UNDO_MS = 60_000;
export const POLL_MS = 500;
