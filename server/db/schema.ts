/** The whole Drizzle schema: each domain keeps its tables beside its code. */
export * from '../auth/auth.sql';
export * from '../jobs/jobs.sql';
export * from '../mail/outbox.sql';
export * from '../security/security.sql';
export * from '../modules/events/events.sql';
export * from '../modules/attendees/attendees.sql';
export * from '../modules/booking/booking.sql';
export * from '../modules/devices/devices.sql';
export * from '../modules/checkin/checkin.sql';
export * from '../modules/sync/sync.sql';
export * from '../modules/orders/payments.sql';
export * from '../modules/orders/tickets.sql';
export * from '../modules/orders/receipts.sql';
export * from '../modules/webhooks/webhooks.sql';
export * from '../modules/timeline/timeline.sql';
export * from '../modules/resources/resources.sql';
export * from '../modules/chat/chat.sql';
