/**
 * PostgreSQL only (a pool of connections): an event's reminder job run twice at once — a lease
 * that lapsed under a stalled instance while another claimed the job — mails each going
 * attendee exactly once (docs/decisions/036-event-reminders.md).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { sendEventReminders } from '../../server/modules/attendees/attendees.reminders';
import { useTestServer } from '../helpers/test-server';
import { attendeeRows, createEvent, signUp } from '../helpers/registration';
import { futureStart } from '../helpers/booking';

const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });
beforeAll(() => {
  srv.server.ctx.hooks.addFilter('svc_rsvp_client_ip', () => '', 50);
});

describe('two runs of one event’s reminder at once', () => {
  it('20 going attendees, two runs side by side in batches of 3: 20 reminder mails, one per attendee', async () => {
    const event = await createEvent(admin.api, { startsUtc: futureStart(10, 18) });
    for (let i = 0; i < 20; i++) expect((await signUp(srv, event.id)).status).toBe(201);
    const plan = { eventId: event.id, startsUtc: event.startsUtc, minutesBefore: 1440 };
    const nowMs = Date.parse(`${futureStart(9, 18).replace(' ', 'T')}Z`) + 1000;

    const [a, b] = await Promise.all([sendEventReminders(srv.server.ctx, plan, nowMs, 3), sendEventReminders(srv.server.ctx, plan, nowMs, 3)]);
    expect(a + b).toBe(20);

    const mails = await queryRows<{ topic: string; n: number }>(
      db(),
      sql`select topic, count(*)::int as n from svc_outbox where topic like 'attendee:%:reminder' group by topic`,
    );
    const ids = (await attendeeRows(srv, event.id)).map((r) => `attendee:${r.id}:reminder`);
    expect(mails.map((m) => m.topic).sort()).toEqual([...ids].sort());
    expect(mails.every((m) => m.n === 1)).toBe(true);
  });
});
