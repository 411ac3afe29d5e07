/** The attendee timeline's calls of the admin app (docs/api.md#timeline), typed from the server's operations. */
import type { TimelineEntryDto } from '../../shared/timeline';
import { call, rpc } from '../ui/trpc';

export type { TimelineEntryDto };

/** The newest entries first (one page of up to 500: a person's history is short). */
export async function getTimeline(attendeeId: number): Promise<{ items: TimelineEntryDto[]; total: number }> {
  return call(rpc().timeline.get.query({ id: attendeeId, page: 1, perPage: 500 }));
}
