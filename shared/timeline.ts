/** An attendee's history, as the admin reads it (docs/api.md#timeline). */
import { z } from 'zod';

export const TIMELINE_KINDS = ['submitted', 'status_changed', 'checked_in', 'cancelled', 'paid', 'refunded'] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/**
 * One entry. `data` by kind: submitted `{status, quantity}`; status_changed `{new, old}`;
 * checked_in `{checkinId, device, source}` (device: the door device's name, null without one);
 * cancelled `{}`; paid and refunded `{orderId}`.
 */
export const ZTimelineEntryDto = z.object({
  id: z.number().int(),
  attendeeId: z.number().int(),
  atUtc: z.string(),
  kind: z.enum(TIMELINE_KINDS),
  data: z.record(z.string(), z.unknown()),
});
export type TimelineEntryDto = z.infer<typeof ZTimelineEntryDto>;
