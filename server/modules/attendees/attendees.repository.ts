import { and, asc, desc, eq, getTableColumns, gt, inArray, or, sql, type SQL, type Placeholder, type SQLWrapper } from 'drizzle-orm';
import type { AttendeeSortKey } from '../../../shared/attendees';
import { builtOnce, queryRows, statementOnce, type Db } from '../../db/client';
import { nowUtc } from '../../db/columns';
import { heldAnnouncementValues } from '../../jobs/announcements';
import { jobs } from '../../jobs/jobs.sql';
import type { EventRow } from '../events/events.repository';
import { events } from '../events/events.sql';
import { orders } from '../orders/payments.sql';
import { ticketCategories, voucherRedemptions, vouchers } from '../orders/tickets.sql';
import { joinedCategoryWithSold, soldCount, type TicketCategoryWithSold } from '../orders/tickets.repository';
import { attendeeReminders, attendees } from './attendees.sql';

/** Any constant: keeps the per-event reminder locks apart from the other advisory locks. */
const REMINDER_LOCK_NAMESPACE = 0x5e4d;

export type AttendeeRecord = typeof attendees.$inferSelect;
export type NewAttendeeRecord = typeof attendees.$inferInsert;

export interface AttendeeFilter {
  eventId?: number;
  /** Staff: only these events (null = no restriction). */
  eventIds?: number[] | null;
  status?: string;
  search?: string;
}

export interface AttendeeOrder {
  sort: AttendeeSortKey;
  order: 'asc' | 'desc';
}

const SORT_COLUMNS = {
  id: attendees.id,
  displayName: attendees.displayName,
  email: attendees.email,
  status: attendees.status,
  quantity: attendees.quantity,
  createdUtc: attendees.createdUtc,
  updatedUtc: attendees.updatedUtc,
} as const;

// id breaks ties so offset pages of an ordered list neither repeat nor skip rows
function orderOf({ sort, order }: AttendeeOrder): SQL[] {
  const by = order === 'desc' ? desc : asc;
  return sort === 'id' ? [by(attendees.id)] : [by(SORT_COLUMNS[sort]), by(attendees.id)];
}

/** An ILIKE pattern for "contains `text`", its `%`, `_` and `\` taken as typed (the events list's search too). */
export function likePattern(text: string): string {
  return `%${text.replace(/[%_\\]/g, '\\$&')}%`;
}

/** Seats an event holds, as one SQL expression: going rows and old rows with an empty status (docs/api.md#errors), and unpaid orders (docs/api.md#payments). */
const seatsOf = (eventId: SQLWrapper | number) => sql`(
  (select coalesce(sum(${attendees.quantity}), 0) from ${attendees} where ${attendees.eventId} = ${eventId} and ${attendees.status} in ('going', ''))
  + (select coalesce(sum(${orders.quantity}), 0) from ${orders} where ${orders.eventId} = ${eventId} and ${orders.status} = 'pending_payment'))::int`;

/** The sign-up's first read (every request of a rush): an event, the seats it holds when that can refuse, and its categories. */
const eventWithSeatsQuery = builtOnce((db) =>
  db
    .select({
      event: events,
      seats: sql<number | null>`case when ${events.capacity} is not null and not ${events.waitlist} then ${seatsOf(events.id)} end`,
      category: joinedCategoryWithSold,
    })
    .from(events)
    .leftJoin(ticketCategories, eq(ticketCategories.eventId, events.id))
    .where(eq(events.id, sql.placeholder('eventId')))
    .orderBy(asc(ticketCategories.position), asc(ticketCategories.id))
    .prepare('svc_event_with_seats'),
);

/** An attendee with its event (the confirmation mail's read after every sign-up). */
const attendeeWithEventQuery = builtOnce((db) =>
  db
    .select({ attendee: attendees, event: events })
    .from(attendees)
    .innerJoin(events, eq(events.id, attendees.eventId))
    .where(eq(attendees.id, sql.placeholder('id')))
    .prepare('svc_attendee_with_event'),
);

const ATTENDEE_COLUMNS = Object.values(getTableColumns(attendees));

/** A raw `svc_attendees` row (snake_case, driver values) as drizzle's select would answer it. */
function attendeeFromRaw(raw: Record<string, unknown>): AttendeeRecord {
  return Object.fromEntries(
    Object.entries(getTableColumns(attendees)).map(([key, column]) => {
      const value = raw[column.name];
      return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
    }),
  ) as AttendeeRecord;
}

/** The columns `ticketRowsStatement` inserts, as a JSON row of `ticketRowsJson` names them. */
const TICKET_ROW_COLUMNS = sql.raw(
  'event_id int, email text, display_name text, quantity int, status text, custom_fields text, cancel_token text, ticket_code text, ticket_code_hash text, ticket_category_id int, language text',
);

/** Text as UTF-8 carries it (a lone surrogate becomes U+FFFD, as a text parameter's encoding made it; jsonb refuses it escaped). */
const wellFormed = (text: string | null | undefined) =>
  typeof text === 'string' ? (text as string & { toWellFormed(): string }).toWellFormed() : (text ?? null);

/**
 * One sign-up's ticket rows as one JSON parameter for `ticketRowsStatement`'s source (one
 * statement text whatever their number, so it is built once and stays prepared).
 */
function ticketRowsJson(rows: NewAttendeeRecord[], status?: string): string {
  return JSON.stringify(
    rows.map((r) => ({
      event_id: r.eventId,
      email: wellFormed(r.email),
      display_name: wellFormed(r.displayName),
      quantity: r.quantity ?? 1,
      status: status ?? r.status ?? 'going',
      custom_fields: wellFormed(r.customFields),
      cancel_token: r.cancelToken,
      ticket_code: r.ticketCode ?? null,
      ticket_code_hash: r.ticketCodeHash ?? null,
      ticket_category_id: r.ticketCategoryId ?? null,
      language: r.language ?? null,
    })),
  );
}

/** The rows of the `rows` placeholder (`ticketRowsJson`). */
const ticketRowsSource = () => sql`select * from jsonb_to_recordset(${sql.placeholder('rows')}::jsonb) as v(${TICKET_ROW_COLUMNS})`;

/**
 * The rows of `source` (`ticketRowsSource`, maybe guarded by `before`'s CTEs) inserted,
 * with their held `svc_rsvp_submitted` job (payload: the rows' ids in order) when any was, and
 * `after`'s CTEs reading `ins`; answers the rows and the job's id.
 */
function ticketRowsStatement(source: SQL, announcementType: Placeholder, before: SQL = sql``, after: SQL = sql``): SQL {
  return sql`with ${before}
    ins as (
      insert into ${attendees} (event_id, email, display_name, quantity, status, custom_fields, cancel_token, ticket_code, ticket_code_hash, ticket_category_id, language)
      ${source}
      returning ${sql.join(
        ATTENDEE_COLUMNS.map((c) => sql.identifier(c.name)),
        sql`, `,
      )}
    ),
    job as (
      insert into ${jobs} (type, payload, state, attempts, locked_until_utc)
      select ${heldAnnouncementValues(announcementType, sql`jsonb_build_object('attendeeIds', (select jsonb_agg(ins.id order by ins.id) from ins))`)}
      where exists (select 1 from ins)
      returning id
    )${after}
    select ins.*, (select id from job) as svc_announcement_job from ins order by ins.id`;
}

/** The code a sign-up redeems in `insertTicketRowsIfSeats`: its uses are taken in the same statement. */
export interface RedemptionInStatement {
  voucherId: number;
  /** Lower-cased email of the buyer (the per-email limit counts it). */
  email: string;
  /** Seats the code discounts: the sum of the discounted rows' quantities. */
  quantity: number;
  /** The categories whose rows it discounts (null: every row). */
  categoryIds: readonly number[] | null;
}

export interface SeatedSignup {
  /** 'going' or 'waitlist' as decided; null when refused: the event is full without a waitlist, or not published. */
  status: 'going' | 'waitlist' | null;
  row: AttendeeRecord | null;
  /** The held `svc_rsvp_submitted` job of the new row (server/jobs/announcements.ts). */
  announcement: number | null;
}

function whereOf(filter: AttendeeFilter): SQL | undefined {
  return and(
    filter.eventId !== undefined ? eq(attendees.eventId, filter.eventId) : undefined,
    filter.eventIds ? (filter.eventIds.length > 0 ? inArray(attendees.eventId, filter.eventIds) : sql`false`) : undefined,
    filter.status !== undefined ? eq(attendees.status, filter.status) : undefined,
    filter.search
      ? or(sql`${attendees.displayName} ilike ${likePattern(filter.search)}`, sql`${attendees.email} ilike ${likePattern(filter.search)}`)
      : undefined,
  );
}

/**
 * `insertTicketRowsIfSeats`'s statement (its placeholders: eventId, total, wanted, rows,
 * announcementType; with a code also voucherId, email, quantity and categoryIds).
 */
function guardedTicketRows(withCode: boolean): SQL {
  const uses = withCode
    ? sql`uses as (
          update ${vouchers} set used_count = ${vouchers.usedCount} + ${sql.placeholder('quantity')}::int
          where ${vouchers.id} = ${sql.placeholder('voucherId')}::int and ${vouchers.eventId} = ${sql.placeholder('eventId')}::int and exists (select 1 from seats)
            and (${vouchers.maxUses} is null or ${vouchers.usedCount} + ${sql.placeholder('quantity')}::int <= ${vouchers.maxUses})
            and (${vouchers.maxUsesPerEmail} is null or ${sql.placeholder('quantity')}::int + (select coalesce(sum(r.quantity), 0) from ${voucherRedemptions} r
                   where r.voucher_id = ${sql.placeholder('voucherId')}::int and r.email = ${sql.placeholder('email')}::text and r.released_utc is null) <= ${vouchers.maxUsesPerEmail})
          returning ${vouchers.id}
        ),`
    : sql``;
  const discounted = withCode
    ? sql`, red as (
          insert into ${voucherRedemptions} (voucher_id, email, quantity, attendee_id)
          select ${sql.placeholder('voucherId')}::int, ${sql.placeholder('email')}::text, ins.quantity, ins.id from ins
          where (${sql.placeholder('categoryIds')}::jsonb is null or ins.ticket_category_id in (select value::int from jsonb_array_elements_text(${sql.placeholder('categoryIds')}::jsonb)))
        )`
    : sql``;
  const guarded = sql`wanted as (
      select (value->>'categoryId')::int as category_id, (value->>'quantity')::int as quantity from jsonb_array_elements(${sql.placeholder('wanted')}::jsonb)
    ),
    seats as (
      select 1 from ${events}
      where ${events.id} = ${sql.placeholder('eventId')}::int and ${events.status} = 'published'
        and (${events.capacity} is null or ${seatsOf(events.id)} + ${sql.placeholder('total')}::int <= ${events.capacity})
        and (select count(*) from wanted join ${ticketCategories} on ${ticketCategories.id} = wanted.category_id and ${ticketCategories.eventId} = ${sql.placeholder('eventId')}::int
              where ${ticketCategories.quota} is null or ${soldCount} + wanted.quantity <= ${ticketCategories.quota}) = (select count(*) from wanted)
    ),
    ${uses}`;
  const source = sql`select * from (${ticketRowsSource()}) v
    where exists (select 1 from seats)${withCode ? sql` and exists (select 1 from uses)` : sql``}`;
  return ticketRowsStatement(source, sql.placeholder('announcementType'), guarded, discounted);
}

/** `insertIfSeats`'s statement. */
const insertIfSeatsStatement = statementOnce(
  () =>
    sql`with decided as (
              select case
                       when ${events.status} <> 'published' then null
                       when ${events.capacity} is null or ${seatsOf(events.id)} + ${sql.placeholder('quantity')}::int <= ${events.capacity} then 'going'
                       when ${events.waitlist} then 'waitlist'
                     end as status
              from ${events} where ${events.id} = ${sql.placeholder('eventId')}::int
            ),
            ins as (
              insert into ${attendees} (event_id, email, display_name, quantity, status, custom_fields, cancel_token, ticket_code, ticket_code_hash, language)
              select ${sql.placeholder('eventId')}::int, ${sql.placeholder('email')}::text, ${sql.placeholder('displayName')}::text, ${sql.placeholder('quantity')}::int, decided.status,
                     ${sql.placeholder('customFields')}::text, ${sql.placeholder('cancelToken')}::text, ${sql.placeholder('ticketCode')}::text, ${sql.placeholder('ticketCodeHash')}::text, ${sql.placeholder('language')}::text
              from decided where decided.status is not null
              returning ${sql.join(
                ATTENDEE_COLUMNS.map((c) => sql.identifier(c.name)),
                sql`, `,
              )}
            ),
            job as (
              insert into ${jobs} (type, payload, state, attempts, locked_until_utc)
              select ${heldAnnouncementValues(sql.placeholder('announcementType'), sql`jsonb_build_object('attendeeIds', jsonb_build_array(ins.id))`)} from ins
              returning id
            )
            select ins.*, job.id as svc_announcement_job from decided left join ins on true left join job on true`,
);

/** `insertTicketRows`'s statement. */
const insertTicketRowsStatement = statementOnce(() => ticketRowsStatement(ticketRowsSource(), sql.placeholder('announcementType')));

/** `insertTicketRowsIfSeats`'s statement, with a code redeemed in it or without. */
const guardedTicketRowsStatements = {
  withCode: statementOnce(() => guardedTicketRows(true)),
  withoutCode: statementOnce(() => guardedTicketRows(false)),
};

/** Queries only; rules live in the services. */
export function attendeesRepository(db: Db) {
  return {
    findById: async (id: number) => (await db.select().from(attendees).where(eq(attendees.id, id)))[0] ?? null,
    /** Exact-match lookup through the unique index; the caller compares in constant time. */
    findByCancelToken: async (token: string) => (await db.select().from(attendees).where(eq(attendees.cancelToken, token)))[0] ?? null,
    lockById: async (id: number) => (await db.select().from(attendees).where(eq(attendees.id, id)).for('update'))[0] ?? null,
    /**
     * An event, whether it sells through ticket categories, and, when it has a capacity and no
     * waitlist, the seats it holds (null otherwise: the count is not run). One statement, for the
     * sign-up's first read.
     */
    /**
     * The sign-up's first read, one statement: the event, its seats (for an event with a capacity
     * and no waitlist) and its ticket categories in display order, each with its quota's count.
     */
    eventWithSeats: async (eventId: number): Promise<{ event: EventRow; seatsTaken: number | null; categories: TicketCategoryWithSold[] } | null> => {
      const rows = await eventWithSeatsQuery(db).execute({ eventId });
      const first = rows[0];
      if (!first) return null;
      const categories = rows.flatMap((r) => (r.category ? [{ ...r.category, soldCount: Number(r.category.soldCount) }] : []));
      return { event: first.event, seatsTaken: first.seats === null ? null : Number(first.seats), categories };
    },
    /** Seats an event holds: going rows, old rows with an empty status, and unpaid orders. One statement. */
    seatsTaken: async (eventId: number) => {
      const [row] = await queryRows<{ n: number }>(db, sql`select ${seatsOf(eventId)} as n`);
      return Number(row!.n);
    },
    /**
     * A free sign-up in one statement, for a transaction that has locked the event row (so the
     * count below sees every seat committed before it): decides going / waitlist / refused
     * against the event's capacity and waitlist flag, inserts the row with that status and holds
     * its `svc_rsvp_submitted` job (`holdAnnouncement`). Sent right behind the lock, it keeps the
     * hot row locked for one round trip instead of four (docs/api.md#errors, capacity).
     */
    insertIfSeats: async (
      eventId: number,
      row: Omit<NewAttendeeRecord, 'eventId' | 'status'> & { quantity: number },
      announcementType: string,
    ): Promise<SeatedSignup> => {
      const [result] = await insertIfSeatsStatement.run(db, {
        eventId,
        quantity: row.quantity,
        email: row.email,
        displayName: row.displayName,
        customFields: row.customFields ?? null,
        cancelToken: row.cancelToken,
        ticketCode: row.ticketCode,
        ticketCodeHash: row.ticketCodeHash,
        language: row.language ?? null,
        announcementType,
      });
      if (!result || result.id === null || result.id === undefined) return { status: null, row: null, announcement: null };
      const inserted = attendeeFromRaw(result);
      return { status: inserted.status as 'going' | 'waitlist', row: inserted, announcement: Number(result.svc_announcement_job) };
    },
    /**
     * Ticket rows of one sign-up and their held `svc_rsvp_submitted` job (payload: the rows' ids
     * in the order given) in one statement, for a transaction that decided their seats under the
     * event row's lock: one round trip while the lock is held, whatever the number of rows.
     */
    insertTicketRows: async (rows: NewAttendeeRecord[], announcementType: string): Promise<{ rows: AttendeeRecord[]; announcement: number }> => {
      const result = await insertTicketRowsStatement.run(db, { rows: ticketRowsJson(rows), announcementType });
      return { rows: result.map(attendeeFromRaw), announcement: Number(result[0]!.svc_announcement_job) };
    },
    /**
     * Ticket rows of one sign-up, every one going, in one statement that first checks, with what
     * the database holds when it starts (sent right behind the event row's lock, like
     * `insertIfSeats`), that the event is published, its capacity and every category's quota still
     * take them, and that the code (when one is redeemed) is within its limits in total and for
     * this email; then counts the code's uses, inserts the rows, their held `svc_rsvp_submitted`
     * job and one redemption per discounted row. When any check fails it writes nothing and
     * answers null: the caller decides again, line by line, under the lock (docs/api.md#tickets).
     */
    insertTicketRowsIfSeats: async (
      eventId: number,
      rows: NewAttendeeRecord[],
      announcementType: string,
      redemption: RedemptionInStatement | null,
    ): Promise<{ rows: AttendeeRecord[]; announcement: number } | null> => {
      const total = rows.reduce((n, r) => n + (r.quantity ?? 1), 0);
      const perCategory = new Map<number, number>();
      for (const r of rows) perCategory.set(r.ticketCategoryId!, (perCategory.get(r.ticketCategoryId!) ?? 0) + (r.quantity ?? 1));
      const wanted = JSON.stringify([...perCategory].map(([categoryId, quantity]) => ({ categoryId, quantity })));
      const statement = redemption ? guardedTicketRowsStatements.withCode : guardedTicketRowsStatements.withoutCode;
      const result = await statement.run(db, {
        eventId,
        total,
        wanted,
        rows: ticketRowsJson(rows, 'going'),
        announcementType,
        ...(redemption && {
          voucherId: redemption.voucherId,
          email: redemption.email,
          quantity: redemption.quantity,
          categoryIds: redemption.categoryIds === null ? null : JSON.stringify(redemption.categoryIds),
        }),
      });
      if (result.length === 0) return null;
      return { rows: result.map(attendeeFromRaw), announcement: Number(result[0]!.svc_announcement_job) };
    },
    /**
     * One event's reminder run at a time, across instances, until the transaction ends: a job
     * re-claimed after a lapsed lease waits for the batch under way instead of mailing beside it.
     */
    lockEventReminders: async (eventId: number) => {
      await queryRows(db, sql`select pg_advisory_xact_lock(${REMINDER_LOCK_NAMESPACE}::int4, ${eventId}::int4)`);
    },
    /**
     * Up to `limit` going rows of an event (old rows with an empty status read as going) with an
     * address and no reminder queued for this start, locked until the transaction ends: a cancel
     * waits for the batch, then withdraws the mail it queued.
     */
    lockUnreminded: (eventId: number, startsUtc: string, limit: number) =>
      db
        .select()
        .from(attendees)
        .where(
          and(
            eq(attendees.eventId, eventId),
            inArray(attendees.status, ['going', '']),
            sql`${attendees.email} <> ''`,
            sql`not exists (select 1 from ${attendeeReminders} r where r.attendee_id = ${attendees.id} and r.starts_utc = ${startsUtc}::timestamp)`,
          ),
        )
        .orderBy(asc(attendees.id))
        .limit(limit)
        .for('update'),
    /** Records that these rows' reminders for `startsUtc` are queued. */
    markReminded: async (ids: number[], startsUtc: string) => {
      if (ids.length === 0) return;
      await db
        .insert(attendeeReminders)
        .values(ids.map((attendeeId) => ({ attendeeId, startsUtc })))
        .onConflictDoNothing();
    },
    /** An attendee with its event, in one read (the confirmation mail's listener). */
    findWithEvent: async (id: number): Promise<{ attendee: AttendeeRecord; event: EventRow } | null> =>
      (await attendeeWithEventQuery(db).execute({ id }))[0] ?? null,
    insert: async (row: NewAttendeeRecord) => (await db.insert(attendees).values(row).returning())[0]!,
    update: async (id: number, patch: Partial<Pick<AttendeeRecord, 'displayName' | 'email' | 'quantity' | 'status'>>) =>
      (
        await db
          .update(attendees)
          .set({ ...patch, updatedUtc: nowUtc })
          .where(eq(attendees.id, id))
          .returning()
      )[0] ?? null,
    delete: async (id: number) => (await db.delete(attendees).where(eq(attendees.id, id)).returning({ id: attendees.id })).length > 0,
    list: async (filter: AttendeeFilter, limit: number, offset: number, order: AttendeeOrder = { sort: 'id', order: 'asc' }) => {
      const where = whereOf(filter);
      const [rows, [count]] = await Promise.all([
        db
          .select()
          .from(attendees)
          .where(where)
          .orderBy(...orderOf(order))
          .limit(limit)
          .offset(offset),
        db
          .select({ n: sql<number>`count(*)::int` })
          .from(attendees)
          .where(where),
      ]);
      return { rows, total: count!.n };
    },
    /**
     * Ids of the rows the list's filter selects (the list's own search and status), in id order,
     * at most `limit`; `among` narrows them to ids the caller chose (a bulk action's selection),
     * `statuses` to those statuses, `withEmail` to rows with an address.
     */
    idsMatching: async (
      filter: AttendeeFilter,
      limit: number,
      opts: { among?: number[]; statuses?: string[]; withEmail?: boolean } = {},
    ): Promise<number[]> => {
      const { among, statuses, withEmail } = opts;
      const rows = await db
        .select({ id: attendees.id })
        .from(attendees)
        .where(
          and(
            whereOf(filter),
            among ? inArray(attendees.id, among) : undefined,
            statuses ? inArray(attendees.status, statuses) : undefined,
            withEmail ? sql`${attendees.email} <> ''` : undefined,
          ),
        )
        .orderBy(asc(attendees.id))
        .limit(limit);
      return rows.map((r) => r.id);
    },
    /** One keyset page of an event's attendees after `afterId`, of `among` only when given (exports: constant memory at any size). */
    pageOfEvent: (eventId: number, afterId: number, limit: number, among?: readonly number[]) =>
      db
        .select()
        .from(attendees)
        .where(and(eq(attendees.eventId, eventId), gt(attendees.id, afterId), among ? inArray(attendees.id, [...among]) : undefined))
        .orderBy(asc(attendees.id))
        .limit(limit),
  };
}
export type AttendeesRepository = ReturnType<typeof attendeesRepository>;
