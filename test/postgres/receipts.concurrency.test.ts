/**
 * Receipt numbers on real PostgreSQL (a pool of connections; docs/decisions/037-receipts.md):
 * payments confirmed at the same moment each take the series' next number in their own
 * transaction, so 100 of them get 1…100 with no gap and no duplicate, and a transaction that
 * takes a number and rolls back gives it back (a sequence would leave its gap).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { paymentsService } from '../../server/modules/orders/payments.service';
import { receiptsRepository } from '../../server/modules/orders/receipts.repository';
import { RECEIPT_SERIES } from '../../server/modules/orders/receipts.service';
import { useTestServer } from '../helpers/test-server';
import { createEvent, resetThrottles, signUp } from '../helpers/registration';
import { paymentEvents, paymentIdOf, postWebhook, signedLocalEvent } from '../helpers/payments';

const { server: srv, admin, db, hooks } = useTestServer({ env: { SVC_EDITION: 'extended', SVC_JOBS: 'off' } });

beforeAll(async () => {
  expect(srv.server.ctx.database.kind).toBe('postgres');
  // every sign-up comes from one address: the per-IP throttle is not what this file is about
  hooks().addFilter('svc_rsvp_client_ip', () => '', 50);
  await resetThrottles(srv);
});

class RolledBack extends Error {}

describe('receipt numbers', () => {
  it('stay gapless under 100 concurrent payments: 1…100, each once, one per order, while 20 transactions that took a number roll back', async () => {
    const event = await createEvent(admin.api, { capacity: 200, priceCents: 1500 });
    const held = await Promise.all(Array.from({ length: 100 }, () => signUp(srv, event.id, { quantity: 1 })));
    expect(held.map((r) => r.status)).toEqual(Array(100).fill(201));
    const answers = await Promise.all(
      held.map((r) => postWebhook(srv, 'local', signedLocalEvent(srv, 'payment.succeeded', paymentIdOf(r.body.paymentUrl), 1500))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(100).fill(200));
    const stored = (await paymentEvents(srv)).filter((e) => e.processed_utc === null).map((e) => e.id);
    expect(stored).toHaveLength(100);

    // all 100 confirmed at once, among 20 transactions that take a number and then fail
    const rollbacks = Array.from({ length: 20 }, () =>
      db()
        .transaction(async (tx) => {
          await receiptsRepository.nextNumber(tx, RECEIPT_SERIES);
          throw new RolledBack();
        })
        .then(
          () => 'committed',
          (err: unknown) => (err instanceof RolledBack ? 'rolled back' : Promise.reject(err)),
        ),
    );
    const outcomes = await Promise.all([...stored.map((id) => paymentsService(srv.server.ctx).processEvent(id)), ...rollbacks]);
    expect(outcomes).toEqual([...Array(100).fill('fulfilled'), ...Array(20).fill('rolled back')]);

    const receipts = await queryRows<{ order_id: number; kind: string; number: number }>(
      db(),
      sql`select order_id, kind, number from svc_order_documents order by number`,
    );
    expect(receipts.map((r) => r.number)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(receipts.every((r) => r.kind === 'receipt')).toBe(true);
    expect(new Set(receipts.map((r) => r.order_id))).toEqual(new Set(held.map((r) => r.body.orderId)));
    const [counter] = await queryRows<{ last_number: number }>(db(), sql`select last_number from svc_document_counters where series = ${RECEIPT_SERIES}`);
    expect(counter!.last_number).toBe(100);
  });
});
