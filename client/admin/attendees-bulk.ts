/** The admin app's calls for attendees in bulk (docs/api.md#attendees-in-bulk). */
import type { AddAttendeeInput, BulkAction, BulkStarted, EventMessageResult, JobProgress } from '../../shared/attendees-bulk';
import type { AttendeeStatus } from '../../shared/attendees';
import { call, rpc } from '../ui/trpc';

export type BulkSelection = { ids: number[] } | { query: { search?: string; status?: AttendeeStatus } };

export const addAttendee = (eventId: number, attendee: AddAttendeeInput) => call(rpc().attendees.add.mutate({ id: eventId, attendee }));

export const startBulk = (eventId: number, action: BulkAction, selection: BulkSelection, message?: { subject: string; body: string }): Promise<BulkStarted> =>
  call(rpc().attendees.bulk.mutate({ eventId, action, ...selection, message }));

export const jobProgress = (id: number): Promise<JobProgress> => call(rpc().attendees.job.query({ id }));

export const messageEvent = (
  eventId: number,
  message: { to: 'going' | 'waitlist' | 'all'; subject: string; body: string; dryRun: boolean },
): Promise<EventMessageResult> => call(rpc().attendees.message.mutate({ id: eventId, message }));

/** How long the admin app offers Undo after a bulk cancel or move (docs/decisions/047-attendees-in-bulk.md). */
export const UNDO_MS = 60_000;
export const POLL_MS = 500;
