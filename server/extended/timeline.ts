/**
 * The attendee timeline (docs/api.md#timeline): every writer at priority 10 of its action, so a
 * callback at 11 finds the entry and one at 9 does not yet; svc_attendee_deleted at 10 wipes it.
 */
import { PRIORITY_TIMELINE, type Hooks } from '../hooks';
import { timelineWriter } from '../modules/timeline/timeline.service';
import type { PluginContext } from '../plugins/load';

export function registerTimeline(hooks: Hooks, ctx: PluginContext): void {
  const write = timelineWriter(ctx.db);
  hooks.addAction('svc_rsvp_submitted', (attendeeId) => write.submitted(attendeeId), PRIORITY_TIMELINE, 1);
  hooks.addAction('svc_attendee_status_changed', (attendeeId, next, previous) => write.statusChanged(attendeeId, next, previous), PRIORITY_TIMELINE, 3);
  hooks.addAction('svc_pro_attendee_checked_in', (checkinId, attendeeId) => write.checkedIn(checkinId, attendeeId), PRIORITY_TIMELINE, 2);
  hooks.addAction('svc_rsvp_cancelled', (attendeeId) => write.cancelled(attendeeId), PRIORITY_TIMELINE, 1);
  hooks.addAction('svc_order_paid', (orderId) => write.orderPaid(orderId), PRIORITY_TIMELINE, 1);
  hooks.addAction('svc_order_refunded', (orderId) => write.orderRefunded(orderId), PRIORITY_TIMELINE, 1);
  hooks.addAction('svc_attendee_deleted', (attendeeId) => write.wipe(attendeeId), PRIORITY_TIMELINE, 1);
}
