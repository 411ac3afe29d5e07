import { integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { nowUtc, utcTimestamp } from '../../db/columns';
import { orders } from './payments.sql';
import type { ReceiptKind, ReceiptSnapshot } from './receipts.types';

/**
 * Counters of numbered documents (docs/decisions/037-receipts.md): one row per series, its last
 * number taken. A number is taken with an `UPDATE … RETURNING` of this row in the transaction
 * that issues the document, so a rolled-back issue gives its number back (a sequence would not)
 * and concurrent issues wait for each other: the numbers have no gaps and no duplicates.
 */
export const documentCounters = pgTable('svc_document_counters', {
  series: text('series').primaryKey(),
  lastNumber: integer('last_number').notNull().default(0),
});

/**
 * An order's receipt and, once refunded, its credit note (docs/api.md#receipts): the number and a
 * frozen snapshot of what the document says (seller, buyer, lines, taxes, totals, payment), so a
 * later edit of Settings, a category or an event never rewrites an issued document.
 */
export const orderDocuments = pgTable(
  'svc_order_documents',
  {
    id: serial('id').primaryKey(),
    orderId: integer('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'restrict' }),
    kind: text('kind').$type<ReceiptKind>().notNull(),
    /** The series' number (1, 2, 3 …); printed as `R-000001` or `CN-000002`. */
    number: integer('number').notNull(),
    /** The language it is printed in: the order's own. */
    language: text('language').notNull(),
    snapshot: jsonb('snapshot').$type<ReceiptSnapshot>().notNull(),
    issuedUtc: utcTimestamp('issued_utc').notNull().default(nowUtc),
  },
  (t) => [uniqueIndex('svc_order_documents_number').on(t.number), uniqueIndex('svc_order_documents_order_kind').on(t.orderId, t.kind)],
);
