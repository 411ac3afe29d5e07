import type { AppContext } from '../context';
import type { Hooks } from '../hooks';
import { registerQueueJobs, type JobRunner } from '../jobs/queue';
import type { AnyRouteDef } from '../api/route';
import type { OperationRecord } from '../api/operation';
import { routesOf } from '../api/rest';
import { systemOperations } from '../api/system.operations';
import { registerThrottleJobs } from '../security/throttle';
import { registerOutboxPruning, type AttachmentRenderers } from '../mail/mailer';
import { ticketPdfRenderers } from './attendees/ticket-pdf.service';
import { receiptRenderers } from './orders/receipts.service';
import { authOperations } from '../auth/auth.operations';
import { eventsOperations } from './events/events.operations';
import { attendeesOperations } from './attendees/attendees.operations';
import { registerConfirmationMail, ticketQrRenderers } from './attendees/attendees.mail';
import { registerEventReminderJobs } from './attendees/attendees.reminders';
import { registerBulkJobs } from './attendees/attendees.bulk';
import { ANNOUNCE_RSVP_SUBMITTED_JOB, announceSubmitted } from './orders/tickets.service';
import { ANNOUNCE_ATTENDEE_CHANGED_JOB, announceAttendeeChange, type AttendeeChange } from './attendees/attendees.service';
import { bookingOperations } from './booking/booking.operations';
import { settingsOperations } from './settings/settings.operations';
import { embedsOperations } from './embeds/embeds.operations';
import { registerBookingJobs, registerBookingListeners } from './booking/booking.notifications';
import { checkinOperations } from './checkin/checkin.operations';
import { devicesOperations } from './devices/devices.operations';
import { syncOperations } from './sync/sync.operations';
import { registerSyncJobs } from './sync/sync.jobs';
import { registerCheckinJobs } from './checkin/checkin.actions';
import { paymentsOperations } from './orders/payments.operations';
import { ticketsOperations } from './orders/tickets.operations';
import { registerPaymentJobs } from './orders/payments.jobs';
import { webhooksOperations } from './webhooks/webhooks.operations';
import { registerWebhookJobs } from './webhooks/webhooks.jobs';
import { timelineOperations } from './timeline/timeline.operations';
import { resourcesOperations } from './resources/resources.operations';
import { submissionsOperations } from './submissions/submissions.operations';
import { registerChatJobs } from './chat/chat.jobs';
import { chatOperations } from './chat/chat.operations';
import { vouchersOperations } from './orders/vouchers.operations';
import { feedsOperations } from './hosts/feeds.operations';
import { hoursOperations } from './hosts/hours.operations';
import { profilesOperations } from './hosts/profiles.operations';
import { calendarsOperations } from './hosts/calendars.operations';
import { overviewOperations } from './overview/overview.operations';
import { setupOperations } from './setup/setup.operations';
import { imagesOperations } from './images/images.operations';
import { registerCalendarJobs } from './hosts/calendars.jobs';
import { registerCalendarWriteBackJobs, registerCalendarWriteBackListeners } from './hosts/calendar-writeback';

/**
 * Every domain's operations, under the name the PWA calls them by (`rpc().booking.create`).
 * The order is the REST matching order: Hono answers with the first route that matches.
 */
export const domainOperations = {
  system: systemOperations,
  auth: authOperations,
  // before events: /events/submissions must match ahead of /events/:id
  submissions: submissionsOperations,
  events: eventsOperations,
  images: imagesOperations,
  tickets: ticketsOperations,
  attendees: attendeesOperations,
  booking: bookingOperations,
  checkin: checkinOperations,
  settings: settingsOperations,
  embeds: embedsOperations,
  devices: devicesOperations,
  sync: syncOperations,
  payments: paymentsOperations,
  webhooks: webhooksOperations,
  timeline: timelineOperations,
  resources: resourcesOperations,
  chat: chatOperations,
  vouchers: vouchersOperations,
  feeds: feedsOperations,
  hours: hoursOperations,
  hostSpace: profilesOperations,
  calendars: calendarsOperations,
  overview: overviewOperations,
  setup: setupOperations,
} satisfies Record<string, OperationRecord>;

/** One domain's jobs and built-in listeners. */
export interface SvcModule {
  name: string;
  registerJobs?(runner: JobRunner, ctx: AppContext): void;
  /** Built-in (free edition) listeners, at the priorities the contract fixes. */
  registerListeners?(hooks: Hooks, ctx: AppContext): void;
  /** Mail attachments this module makes when the mail is sent (server/mail/mailer.ts), by kind. */
  attachmentRenderers?(ctx: AppContext): AttachmentRenderers;
}

export const modules: SvcModule[] = [
  {
    name: 'system',
    registerJobs: (runner, ctx) => {
      registerThrottleJobs(runner, ctx.db);
      registerQueueJobs(runner, ctx.db);
      registerOutboxPruning(runner, ctx.db, ctx.env.SVC_OUTBOX_RETENTION_DAYS);
    },
  },
  {
    name: 'attendees',
    registerListeners: registerConfirmationMail,
    attachmentRenderers: (ctx) => ({ ...ticketPdfRenderers(ctx), ...ticketQrRenderers(ctx) }),
    // Sign-ups whose request died between commit and svc_rsvp_submitted (server/jobs/announcements.ts).
    registerJobs: (runner, ctx) => {
      runner.register(ANNOUNCE_RSVP_SUBMITTED_JOB, (payload) => announceSubmitted(ctx, (payload.attendeeIds as number[]) ?? []));
      // Admin changes and visitor cancels whose request died after its commit, or whose listener threw.
      runner.register(ANNOUNCE_ATTENDEE_CHANGED_JOB, (payload) => announceAttendeeChange(ctx.hooks, payload as unknown as AttendeeChange));
      registerEventReminderJobs(runner, ctx);
      registerBulkJobs(runner, ctx);
    },
  },
  { name: 'booking', registerJobs: registerBookingJobs, registerListeners: registerBookingListeners },
  { name: 'checkin', registerJobs: registerCheckinJobs },
  { name: 'sync', registerJobs: registerSyncJobs },
  { name: 'payments', registerJobs: registerPaymentJobs, attachmentRenderers: receiptRenderers },
  { name: 'webhooks', registerJobs: registerWebhookJobs },
  { name: 'chat', registerJobs: registerChatJobs },
  { name: 'calendars', registerJobs: registerCalendarJobs },
  { name: 'calendar-writeback', registerJobs: registerCalendarWriteBackJobs, registerListeners: registerCalendarWriteBackListeners },
];

/** The REST routes of every operation with a REST binding. */
export function allRoutes(): AnyRouteDef[] {
  return routesOf(...Object.values(domainOperations));
}
