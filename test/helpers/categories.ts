/**
 * Ticket categories and codes for tests: through the admin's REST API (`addCategory`, `addVoucher`),
 * or straight into the tables for check-in tests (`createCategory`, `setCategory`).
 */
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { queryRows, type Db } from '../../server/db/client';
import type { apiClient } from './http';

type Api = ReturnType<typeof apiClient>;

/** `POST /events/{id}/ticket-categories` as the given admin; the new category's id. */
export async function addCategory(api: Api, eventId: number, fields: Record<string, unknown>): Promise<number> {
  const res = await api.post(`/events/${eventId}/ticket-categories`, fields);
  expect(res.status).toBe(201);
  return (res.body as { id: number }).id;
}

/** `POST /events/{id}/vouchers` as the given admin. */
export async function addVoucher(api: Api, eventId: number, fields: Record<string, unknown>): Promise<void> {
  expect((await api.post(`/events/${eventId}/vouchers`, fields)).status).toBe(201);
}

export interface TestCategory {
  id: number;
  eventId: number;
  name: string;
}

export async function createCategory(db: Db, eventId: number, name: string, position = 0): Promise<TestCategory> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into svc_ticket_categories (event_id, name, position) values (${eventId}, ${name}, ${position}) returning id`,
  );
  return { id: Number(row!.id), eventId, name };
}

/** Puts the attendee in the category (null: the event's implicit single category), as the sign-up would have. */
export async function setCategory(db: Db, attendeeId: number, categoryId: number | null): Promise<void> {
  await db.execute(sql`update svc_attendees set ticket_category_id = ${categoryId} where id = ${attendeeId}`);
}
