/** Queries of webhook endpoints and deliveries; no rules here (STYLE §2). */
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../auth/auth.sql';
import { checkins } from '../checkin/checkin.sql';
import { devices } from '../devices/devices.sql';
import { changes } from '../sync/sync.sql';
import { webhookDeliveries, webhookEndpoints, type DeliveryStatus } from './webhooks.sql';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type EndpointInsert = typeof webhookEndpoints.$inferInsert;
export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type DeliveryInsert = typeof webhookDeliveries.$inferInsert;

/** What an attempt writes back. */
export interface AttemptRecord {
  status: DeliveryStatus;
  lastResponseCode: number | null;
  lastError: string | null;
  durationMs: number | null;
  nextAttemptUtc: string | null;
  atUtc: string;
}

export const webhooksRepository = {
  async listEndpoints(db: Db): Promise<EndpointRow[]> {
    return db.select().from(webhookEndpoints).orderBy(webhookEndpoints.id);
  },

  async findEndpoint(db: Db, id: number, opts: { forUpdate?: boolean } = {}): Promise<EndpointRow | null> {
    const query = db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    const [row] = opts.forUpdate ? await query.for('update') : await query;
    return row ?? null;
  },

  async insertEndpoint(db: Db, values: EndpointInsert): Promise<EndpointRow> {
    const [row] = await db.insert(webhookEndpoints).values(values).returning();
    return row!;
  },

  async updateEndpoint(db: Db, id: number, patch: Partial<EndpointInsert>): Promise<EndpointRow | null> {
    const [row] = await db.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, id)).returning();
    return row ?? null;
  },

  async deleteEndpoint(db: Db, id: number): Promise<boolean> {
    return (await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id)).returning({ id: webhookEndpoints.id })).length > 0;
  },

  /** Ids of the active endpoints that receive `type` (the hot path: one indexed-free scan of a handful of rows). */
  async subscribedEndpointIds(db: Db, type: string): Promise<number[]> {
    const rows = await db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.active, true), sql`${webhookEndpoints.events} @> ${JSON.stringify([type])}::jsonb`));
    return rows.map((r) => r.id);
  },

  async insertDelivery(db: Db, values: DeliveryInsert): Promise<DeliveryRow> {
    const [row] = await db.insert(webhookDeliveries).values(values).returning();
    return row!;
  },

  async findDelivery(db: Db, endpointId: number, id: number): Promise<DeliveryRow | null> {
    const [row] = await db
      .select()
      .from(webhookDeliveries)
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.endpointId, endpointId)));
    return row ?? null;
  },

  async findDeliveryById(db: Db, id: number): Promise<DeliveryRow | null> {
    const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
    return row ?? null;
  },

  /** One endpoint's deliveries, newest first. */
  async listDeliveries(db: Db, endpointId: number, limit: number, offset: number): Promise<{ rows: DeliveryRow[]; total: number }> {
    const where = eq(webhookDeliveries.endpointId, endpointId);
    const [rows, [total]] = await Promise.all([
      db.select().from(webhookDeliveries).where(where).orderBy(desc(webhookDeliveries.id)).limit(limit).offset(offset),
      db.select({ n: count() }).from(webhookDeliveries).where(where),
    ]);
    return { rows, total: Number(total!.n) };
  },

  /**
   * Records attempt number `attempt` of a pending delivery, only if no other run recorded it
   * first (a job re-run after a lost lease): false when the delivery moved on meanwhile.
   */
  async recordAttempt(db: Db, id: number, attempt: number, record: AttemptRecord): Promise<boolean> {
    const rows = await db
      .update(webhookDeliveries)
      .set({
        attempts: attempt,
        status: record.status,
        lastResponseCode: record.lastResponseCode,
        lastError: record.lastError,
        durationMs: record.durationMs,
        nextAttemptUtc: record.nextAttemptUtc,
        updatedUtc: record.atUtc,
      })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending'), eq(webhookDeliveries.attempts, attempt - 1)))
      .returning({ id: webhookDeliveries.id });
    return rows.length > 0;
  },

  /** A new attempt series (redeliver): pending again, due at `atUtc`. */
  async restartDelivery(db: Db, id: number, atUtc: string): Promise<DeliveryRow> {
    const [row] = await db
      .update(webhookDeliveries)
      .set({ status: 'pending', nextAttemptUtc: atUtc, updatedUtc: atUtc })
      .where(eq(webhookDeliveries.id, id))
      .returning();
    return row!;
  },

  /** An endpoint's pending deliveries stop (it was disabled): failed, with the reason. */
  async failPendingDeliveries(db: Db, endpointId: number, reason: string, atUtc: string): Promise<number> {
    const rows = await db
      .update(webhookDeliveries)
      .set({ status: 'failed', lastError: reason, nextAttemptUtc: null, updatedUtc: atUtc })
      .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, 'pending')))
      .returning({ id: webhookDeliveries.id });
    return rows.length;
  },

  /** A 2xx: the endpoint answers again. */
  async clearFailing(db: Db, endpointId: number): Promise<void> {
    await db
      .update(webhookEndpoints)
      .set({ failingSinceUtc: null })
      .where(and(eq(webhookEndpoints.id, endpointId), sql`${webhookEndpoints.failingSinceUtc} is not null`));
  },

  /** A failed attempt: failing since now unless it already was; answers since when. */
  async markFailing(db: Db, endpointId: number, atUtc: string): Promise<string | null> {
    const [row] = await db
      .update(webhookEndpoints)
      .set({ failingSinceUtc: sql`coalesce(${webhookEndpoints.failingSinceUtc}, ${atUtc}::timestamp)` as never })
      .where(eq(webhookEndpoints.id, endpointId))
      .returning({ failingSinceUtc: webhookEndpoints.failingSinceUtc });
    return row?.failingSinceUtc ?? null;
  },

  /** Disables an active endpoint for failing; null when it was not active (another run did it). */
  async disableFailing(db: Db, endpointId: number, atUtc: string): Promise<EndpointRow | null> {
    const [row] = await db
      .update(webhookEndpoints)
      .set({ active: false, disabledUtc: atUtc, updatedUtc: atUtc })
      .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.active, true)))
      .returning();
    return row ?? null;
  },

  /**
   * The event of a deleted attendee, from the tombstone the delete statement's trigger wrote to
   * the sync change log (attendee ids are never reused, so the newest tombstone is this row's).
   */
  async deletedAttendeeEventId(db: Db, attendeeId: number): Promise<number | null> {
    const [row] = await db
      .select({ eventId: changes.eventId })
      .from(changes)
      .where(and(eq(changes.op, 'delete'), eq(changes.entityId, attendeeId), eq(changes.entity, 'attendee')))
      .orderBy(desc(changes.id))
      .limit(1);
    return row?.eventId ?? null;
  },

  /** A check-in as a webhook tells it: when, how, and by which device. */
  async checkinSummary(db: Db, checkinId: number) {
    const [row] = await db
      .select({ id: checkins.id, deviceId: checkins.deviceId, device: devices.name, source: checkins.source, atUtc: checkins.scannedUtc })
      .from(checkins)
      .leftJoin(devices, eq(devices.id, checkins.deviceId))
      .where(eq(checkins.id, checkinId));
    return row ?? null;
  },

  /** Every administrator's address and own language (null: the organization's default). */
  administratorRecipients(db: Db): Promise<Array<{ email: string; language: string | null }>> {
    return db.select({ email: users.email, language: users.language }).from(users).where(eq(users.role, 'administrator')).orderBy(users.id);
  },
};
