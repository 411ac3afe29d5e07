/**
 * The webhook dispatcher (docs/api.md#webhooks): the contract's actions become catalogue events,
 * all at PRIORITY_WEBHOOKS. Each listener costs one small query when no active endpoint receives
 * its event (a check-in at the door does not wait on more); otherwise it builds the payload once
 * — the attendee's REST serialization (so `svc_rest_attendee_response` applies and no cancel
 * token or ticket code is in it), the booking as the admin list shows it, the admin's order —
 * and writes one delivery per endpoint in one transaction. A failure is logged and the action
 * chain goes on: webhooks never break what fired them.
 */
import type { WebhookEventType } from '../../shared/webhooks';
import { PRIORITY_WEBHOOKS, type Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';
import { attendeesRepository } from '../modules/attendees/attendees.repository';
import { serializeAttendee } from '../modules/attendees/attendees.serialize';
import { bookingRepository } from '../modules/booking/booking.repository';
import { toBookingDto } from '../modules/booking/booking.service';
import { eventsRepository } from '../modules/events/events.repository';
import { toOrderDto } from '../modules/orders/orders.service';
import { paymentsRepository } from '../modules/orders/payments.repository';
import { webhooksRepository } from '../modules/webhooks/webhooks.repository';
import { dispatchWebhookEvent } from '../modules/webhooks/webhooks.service';

type Data = Record<string, unknown>;

export function registerWebhooks(hooks: Hooks, ctx: PluginContext): void {
  const { db } = ctx;

  async function fire(type: WebhookEventType, subject: Data, data: () => Promise<Data | null>): Promise<void> {
    try {
      await dispatchWebhookEvent(db, type, data);
    } catch (err) {
      ctx.logger.error({ err, type, ...subject }, 'webhook dispatch failed; the action goes on');
    }
  }

  async function attendee(id: number): Promise<Data | null> {
    const row = await attendeesRepository(db).findById(id);
    return row ? serializeAttendee({ hooks, db }, row) : null;
  }

  async function booking(id: number): Promise<Data | null> {
    const row = await bookingRepository.findBooking(db, id);
    return row ? toBookingDto(row) : null;
  }

  async function order(id: number): Promise<Data | null> {
    const row = await paymentsRepository.findOrder(db, id);
    if (!row) return null;
    const [event, payment, tickets] = await Promise.all([
      eventsRepository(db).findById(row.eventId),
      paymentsRepository.latestPaymentOf(db, { orderId: id }),
      paymentsRepository.ticketsOf(db, id),
    ]);
    return {
      ...toOrderDto({ ...row, eventTitle: event?.title ?? '' }, payment),
      tickets: tickets.map((t) => ({ attendeeId: t.id, eventId: t.eventId, displayName: t.displayName, email: t.email, status: t.status })),
    };
  }

  hooks.addAction('svc_rsvp_submitted', (id) => fire('attendee.created', { attendeeId: id }, () => attendee(id)), PRIORITY_WEBHOOKS, 1);
  hooks.addAction(
    'svc_attendee_status_changed',
    (id, newStatus, oldStatus) =>
      fire('attendee.status_changed', { attendeeId: id }, async () => {
        const data = await attendee(id);
        return data && { ...data, newStatus, oldStatus };
      }),
    PRIORITY_WEBHOOKS,
    3,
  );
  hooks.addAction('svc_rsvp_cancelled', (id) => fire('attendee.cancelled', { attendeeId: id }, () => attendee(id)), PRIORITY_WEBHOOKS, 1);
  // The row is gone: its event comes from the delete's tombstone in the sync change log.
  hooks.addAction(
    'svc_attendee_deleted',
    (id) => fire('attendee.deleted', { attendeeId: id }, async () => ({ id, eventId: await webhooksRepository.deletedAttendeeEventId(db, id) })),
    PRIORITY_WEBHOOKS,
    1,
  );
  hooks.addAction(
    'svc_pro_attendee_checked_in',
    (checkinId, id) =>
      fire('attendee.checked_in', { attendeeId: id, checkinId }, async () => {
        const [data, checkin] = await Promise.all([attendee(id), webhooksRepository.checkinSummary(db, checkinId)]);
        return data && { ...data, checkin: checkin ?? { id: checkinId } };
      }),
    PRIORITY_WEBHOOKS,
    3,
  );

  const onBooking = (type: WebhookEventType) => (id: number) => fire(type, { bookingId: id }, () => booking(id));
  hooks.addAction('svc_booking_created', onBooking('booking.created'), PRIORITY_WEBHOOKS, 1);
  hooks.addAction('svc_booking_confirmed', onBooking('booking.confirmed'), PRIORITY_WEBHOOKS, 1);
  hooks.addAction('svc_booking_cancelled', onBooking('booking.cancelled'), PRIORITY_WEBHOOKS, 1);
  hooks.addAction('svc_booking_approved', onBooking('booking.approved'), PRIORITY_WEBHOOKS, 1);
  hooks.addAction('svc_booking_declined', onBooking('booking.declined'), PRIORITY_WEBHOOKS, 1);
  hooks.addAction('svc_booking_paid', onBooking('booking.paid'), PRIORITY_WEBHOOKS, 1);
  hooks.addAction('svc_booking_payment_abandoned', onBooking('booking.payment_abandoned'), PRIORITY_WEBHOOKS, 1);
  hooks.addAction(
    'svc_booking_rescheduled',
    (id, oldStart) =>
      fire('booking.rescheduled', { bookingId: id }, async () => {
        const data = await booking(id);
        return data && { ...data, previousStartUtc: oldStart };
      }),
    PRIORITY_WEBHOOKS,
    2,
  );

  hooks.addAction('svc_order_paid', (id) => fire('order.paid', { orderId: id }, () => order(id)), PRIORITY_WEBHOOKS, 1);
  hooks.addAction('svc_order_refunded', (id) => fire('order.refunded', { orderId: id }, () => order(id)), PRIORITY_WEBHOOKS, 1);
}
