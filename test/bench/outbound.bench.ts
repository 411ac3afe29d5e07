/**
 * One slow receiver delays nothing else (issue 27, decision 023): the server polls its queue as
 * in production (jobs on, a real SMTP server, the webhooks' own 10-second deadline), and two
 * webhook endpoints on 127.0.0.1 receive every sign-up: one never answers, one answers 500.
 * 50 visitors sign up, one every 200 ms, on PostgreSQL when TEST_DATABASE_URL/DATABASE_URL is
 * set (else PGlite). Targets: a sign-up's confirmation mail reaches the SMTP server within 2 s
 * of the request (p95 of 50), and the 500 endpoint's retries (5 s after each failed first
 * attempt) arrive within 1 s of the second their job was due. The endpoint that never answers
 * gets one attempt at a time (one per receiver): its own backlog is reported, not a target.
 *
 * Run alone: `node --import tsx test/bench/outbound.bench.ts`.
 */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { webhooksService } from '../../server/modules/webhooks/webhooks.service';
import { signValue } from '../../server/security/nonce';
import { utcMs } from '../../shared/time';
import { startSmtpServer } from '../helpers/smtp';
import { startReceiver } from '../helpers/webhooks';
import type { BenchResult } from './types';
import { startBenchServer } from './bench-server';
import { percentile, runWhenMain } from './support';

const SIGNUPS = 50;
const PACE_MS = 200;
const MAIL_TARGET_MS = 2000;
const RETRY_TARGET_MS = 1000;
/** How long the figures may take to come in after the last sign-up (the retries are due 5 s after their first attempts). */
const SETTLE_MS = 30_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default async function run(): Promise<BenchResult[]> {
  const smtp = await startSmtpServer();
  const receiver = await startReceiver();
  const { server, kind, close } = await startBenchServer({
    env: { SVC_EDITION: 'extended', SVC_JOBS: 'on', SVC_WEBHOOKS_ALLOW_PRIVATE: '1', SMTP_URL: smtp.url },
  });
  try {
    const { db } = server.ctx;
    const webhooks = webhooksService(server.ctx);
    await webhooks.create({ url: `${receiver.url}/hangs`, events: ['attendee.created'], description: 'never answers', active: true });
    const failing = await webhooks.create({ url: `${receiver.url}/fails`, events: ['attendee.created'], description: 'answers 500', active: true });
    receiver.always('/hangs', { delayMs: 10 * 60_000 });
    receiver.always('/fails', { status: 500, body: 'down' });

    const [event] = await queryRows<{ id: number }>(
      db,
      sql`insert into svc_events (title, starts_utc, status, capacity, waitlist) values ('Outbound', '2099-06-01 18:00:00', 'published', ${SIGNUPS * 2}, false) returning id`,
    );
    const eventId = Number(event!.id);
    // The contract's per-IP throttle would stop one client machine at 5 a minute.
    server.ctx.hooks.addFilter('svc_rsvp_client_ip', () => '');
    const { nonce } = (await (await fetch(`${server.url}/svc/v1/nonce`)).json()) as { nonce: string };
    const formToken = signValue(server.ctx.secret, `signup-form|${eventId}`, String(Date.now() - 10_000));

    const sentAt = new Map<string, number>();
    const statuses = new Map<number, number>();
    for (let i = 0; i < SIGNUPS; i++) {
      const email = `outbound${i}@example.test`;
      sentAt.set(email, Date.now());
      const res = await fetch(`${server.url}/svc/v1/events/${eventId}/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-svc-nonce': nonce },
        body: JSON.stringify({ email, display_name: `Visitor ${i}`, quantity: 1, svc_ts: formToken, svc_hp: '' }),
      });
      await res.arrayBuffer();
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      await sleep(PACE_MS);
    }

    const messageIds = await queryRows<{ message_id: string; id: number }>(
      db,
      sql`select message_id, id from svc_webhook_deliveries where endpoint_id = ${failing.id}`,
    );
    const deadline = Date.now() + SETTLE_MS;
    const mailed = () => smtp.received.filter((m) => m.to.some((to) => sentAt.has(to)));
    while ((mailed().length < SIGNUPS || receiver.received('/fails').length < 2 * SIGNUPS) && Date.now() < deadline) await sleep(50);
    // the SMTP server's own record of when each mail arrived
    const mailedAt = new Map<string, number>();
    for (const mail of mailed()) for (const to of mail.to) if (sentAt.has(to) && !mailedAt.has(to)) mailedAt.set(to, mail.atMs);
    const mailMs = [...mailedAt].map(([to, at]) => at - sentAt.get(to)!).sort((a, b) => a - b);
    const missingMails = SIGNUPS - mailMs.length;

    // each retry: when its job was due (whole seconds) → when the receiver got it
    const dueRows = await queryRows<{ delivery_id: number; due: string }>(
      db,
      sql`select (payload->>'deliveryId')::int as delivery_id, to_char(run_at_utc, 'YYYY-MM-DD HH24:MI:SS') as due
          from svc_jobs where type = 'webhooks.deliver' and (payload->>'attempt')::int = 2`,
    );
    const dueOf = new Map(dueRows.map((r) => [Number(r.delivery_id), utcMs(r.due)]));
    const deliveryOf = new Map(messageIds.map((r) => [r.message_id, Number(r.id)]));
    const arrivals = new Map<number, number[]>();
    for (const req of receiver.received('/fails')) {
      const id = deliveryOf.get(req.headers['webhook-id']!);
      if (id !== undefined) arrivals.set(id, [...(arrivals.get(id) ?? []), req.atMs]);
    }
    const lateness: number[] = [];
    for (const [id, times] of arrivals) if (times.length >= 2 && dueOf.has(id)) lateness.push(times[1]! - dueOf.get(id)!);
    lateness.sort((a, b) => a - b);
    const missingRetries = SIGNUPS - lateness.length;
    const hangingAttempts = receiver.received('/hangs').length;

    const p95 = mailMs.length ? percentile(mailMs, 95) : NaN;
    const worstRetry = lateness.length ? lateness[lateness.length - 1]! : NaN;
    const scenario = `${SIGNUPS} sign-ups, one endpoint never answering and one answering 500 (${kind})`;
    return [
      {
        name: `${scenario}, confirmation mail p95`,
        value: Math.round(p95),
        unit: 'ms',
        target: `<= ${MAIL_TARGET_MS} ms`,
        pass: p95 <= MAIL_TARGET_MS && missingMails === 0,
      },
      { name: `${scenario}, confirmation mail max`, value: Math.round(mailMs[mailMs.length - 1] ?? NaN), unit: 'ms', target: 'report', pass: true },
      { name: `${scenario}, mails not sent`, value: missingMails, unit: 'mails', target: '= 0', pass: missingMails === 0 },
      {
        name: `${scenario}, retry after its due second, worst`,
        value: Math.round(worstRetry),
        unit: 'ms',
        target: `< ${RETRY_TARGET_MS} ms`,
        pass: worstRetry < RETRY_TARGET_MS && missingRetries === 0,
      },
      {
        name: `${scenario}, retry after its due second, median`,
        value: Math.round(lateness.length ? percentile(lateness, 50) : NaN),
        unit: 'ms',
        target: 'report',
        pass: true,
      },
      { name: `${scenario}, retries not made`, value: missingRetries, unit: 'retries', target: '= 0', pass: missingRetries === 0 },
      {
        name: `${scenario}, sign-ups answered other than 201`,
        value: SIGNUPS - (statuses.get(201) ?? 0),
        unit: 'responses',
        target: '= 0',
        pass: statuses.get(201) === SIGNUPS,
      },
      {
        name: `${scenario}, attempts the silent endpoint got (one at a time, 10-s deadline)`,
        value: hangingAttempts,
        unit: 'attempts',
        target: 'report',
        pass: true,
      },
    ];
  } finally {
    // the open attempt ends with the receiver, so the runner stops at once
    await receiver.close();
    await close();
    await smtp.close();
  }
}

runWhenMain(import.meta.url, run);
