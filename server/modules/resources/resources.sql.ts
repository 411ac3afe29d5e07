import { index, integer, pgTable, primaryKey, serial, text } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import { bookingTypes } from '../booking/booking.sql';

/** Shared resources (docs/api.md#resources): a room, a projector; `capacity` bookings at once. */
export const resources = pgTable('svc_resources', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  capacity: integer('capacity').notNull().default(1),
  createdUtc: utcTimestamp('created_utc').notNull().default(nowUtc),
  updatedUtc: utcTimestamp('updated_utc').notNull().default(nowUtc),
});

/** Which booking types need which resources (the booking type's `resourceIds`). */
export const bookingTypeResources = pgTable(
  'svc_booking_type_resources',
  {
    bookingTypeId: integer('booking_type_id')
      .notNull()
      .references(() => bookingTypes.id, { onDelete: 'cascade' }),
    resourceId: integer('resource_id')
      .notNull()
      .references(() => resources.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.bookingTypeId, t.resourceId] }), index('svc_booking_type_resources_resource').on(t.resourceId)],
);
