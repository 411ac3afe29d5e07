/** Queries of receipts, credit notes and their number series; no rules here (STYLE §2). */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { documentCounters, orderDocuments } from './receipts.sql';
import type { ReceiptKind } from './receipts.types';

export type OrderDocumentRow = typeof orderDocuments.$inferSelect;
export type OrderDocumentInsert = typeof orderDocuments.$inferInsert;

export const receiptsRepository = {
  /**
   * The series' next number, in the caller's transaction: the counter row is written (created at
   * 1 the first time) and stays locked until that transaction ends, so a concurrent issue waits
   * and takes the number after; a rollback gives the number back.
   */
  async nextNumber(tx: Db, series: string): Promise<number> {
    const [row] = await tx
      .insert(documentCounters)
      .values({ series, lastNumber: 1 })
      .onConflictDoUpdate({ target: documentCounters.series, set: { lastNumber: sql`${documentCounters.lastNumber} + 1` } })
      .returning({ lastNumber: documentCounters.lastNumber });
    return row!.lastNumber;
  },

  async insert(tx: Db, values: OrderDocumentInsert): Promise<OrderDocumentRow> {
    const [row] = await tx.insert(orderDocuments).values(values).returning();
    return row!;
  },

  async findOf(db: Db, orderId: number, kind: ReceiptKind): Promise<OrderDocumentRow | null> {
    const [row] = await db
      .select()
      .from(orderDocuments)
      .where(and(eq(orderDocuments.orderId, orderId), eq(orderDocuments.kind, kind)))
      .limit(1);
    return row ?? null;
  },

  /** The order's documents, oldest first (the receipt, then its credit note). */
  async listOf(db: Db, orderId: number): Promise<Array<Pick<OrderDocumentRow, 'kind' | 'number' | 'issuedUtc'>>> {
    return db
      .select({ kind: orderDocuments.kind, number: orderDocuments.number, issuedUtc: orderDocuments.issuedUtc })
      .from(orderDocuments)
      .where(eq(orderDocuments.orderId, orderId))
      .orderBy(orderDocuments.number);
  },

  async kindsOf(db: Db, orderId: number): Promise<Set<ReceiptKind>> {
    const rows = await db.select({ kind: orderDocuments.kind }).from(orderDocuments).where(eq(orderDocuments.orderId, orderId));
    return new Set(rows.map((r) => r.kind));
  },
};
