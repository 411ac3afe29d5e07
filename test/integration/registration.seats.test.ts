import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../../server/db/client';
import { queryRows } from '../../server/db/client';
import { jobs } from '../../server/jobs/jobs.sql';
import { attendeesRepository } from '../../server/modules/attendees/attendees.repository';
import { newTicketSecrets } from '../../server/modules/orders/tickets.service';
import { orders } from '../../server/modules/orders/payments.sql';
import { openTestDatabase } from '../helpers/db';

// The sign-up's deciding statement (attendees.repository insertIfSeats) and the seat count beside
// it, on the project's database kind: the rules the sign-up service used to apply in code.
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

async function newEvent(opts: { capacity: number | null; waitlist: boolean; status?: string }): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    database.db,
    sql`insert into svc_events (title, starts_utc, status, capacity, waitlist)
        values ('Seats', '2099-06-01 18:00:00', ${opts.status ?? 'published'}, ${opts.capacity}, ${opts.waitlist}) returning id`,
  );
  return Number(row!.id);
}

const person = (n: number, quantity = 1) => ({
  email: `p${n}@example.test`,
  displayName: `Person ${n}`,
  quantity,
  customFields: n % 2 === 0 ? JSON.stringify({ diet: 'vegan' }) : null,
  ...newTicketSecrets(),
});

const seat = (eventId: number, n: number, quantity = 1) => attendeesRepository(database.db).insertIfSeats(eventId, person(n, quantity), 'announce.test');

describe('a free sign-up decided and written in one statement', () => {
  it('answers the new row exactly as a read by id returns it, with going while seats remain', async () => {
    const eventId = await newEvent({ capacity: 5, waitlist: false });
    const seated = await seat(eventId, 2, 2);
    expect(seated.status).toBe('going');
    expect(seated.row).toEqual(await attendeesRepository(database.db).findById(seated.row!.id));
    expect(seated.row).toMatchObject({ eventId, quantity: 2, status: 'going', customFields: '{"diet":"vegan"}', orderId: null, clientId: null });
  });

  it('holds the svc_rsvp_submitted job in the same statement: running, leased, naming the new row', async () => {
    const eventId = await newEvent({ capacity: null, waitlist: false });
    const seated = await seat(eventId, 3);
    const [job] = await database.db.select().from(jobs).where(eq(jobs.id, seated.announcement!));
    expect(job).toMatchObject({ type: 'announce.test', state: 'running', attempts: 0, payload: { attendeeIds: [seated.row!.id] } });
    expect(job!.lockedUntilUtc! > job!.createdUtc).toBe(true);
  });

  it('with a waitlist, the sign-up that no longer fits is waitlisted; without one, it is refused and nothing is written', async () => {
    const listed = await newEvent({ capacity: 3, waitlist: true });
    expect((await seat(listed, 10, 2)).status).toBe('going');
    expect((await seat(listed, 11, 2)).status).toBe('waitlist');
    expect((await seat(listed, 12, 1)).status).toBe('going');

    const strict = await newEvent({ capacity: 3, waitlist: false });
    expect((await seat(strict, 20, 3)).status).toBe('going');
    const jobsBefore = (await database.db.select().from(jobs)).length;
    expect(await seat(strict, 21, 1)).toEqual({ status: null, row: null, announcement: null });
    expect(await attendeesRepository(database.db).seatsTaken(strict)).toBe(3);
    expect((await database.db.select().from(jobs)).length).toBe(jobsBefore);
  });

  it('counts cancelled rows out, old empty-status rows and unpaid orders in', async () => {
    const eventId = await newEvent({ capacity: 6, waitlist: false });
    const first = await seat(eventId, 30, 2);
    await attendeesRepository(database.db).update(first.row!.id, { status: 'cancelled' });
    const old = await seat(eventId, 31, 1);
    await database.db.execute(sql`update svc_attendees set status = '' where id = ${old.row!.id}`);
    await database.db.insert(orders).values({
      eventId,
      lines: [],
      email: 'o@example.test',
      name: 'Order',
      quantity: 4,
      amountCents: 400,
      currency: 'EUR',
      status: 'pending_payment',
      source: 'checkout',
    });
    expect(await attendeesRepository(database.db).seatsTaken(eventId)).toBe(5);
    expect((await seat(eventId, 32, 2)).status).toBeNull();
    expect((await seat(eventId, 33, 1)).status).toBe('going');
  });

  it('writes nothing for an event that is not published', async () => {
    const eventId = await newEvent({ capacity: null, waitlist: true, status: 'draft' });
    expect((await seat(eventId, 40)).row).toBeNull();
  });
});
