/**
 * The admin overview's figures (docs/api.md#admin-overview): read in three statements whatever the
 * number of events, for the principal's events only; money and the outbox only for
 * administrators, bookings for administrators (all) and hosts (their own).
 */
import { sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { queryRows } from '../../db/client';
import type { Principal } from '../../auth/principal';
import { OVERVIEW_EVENTS, SIGNUP_DAYS, type Overview, type OverviewEvent } from '../../../shared/overview';
import { settingsService } from '../settings/settings.service';

interface EventFigures {
  id: number;
  title: string;
  startsUtc: string;
  endsUtc: string | null;
  timezone: string;
  status: string;
  capacity: number | null;
  seatsGoing: number;
  seatsWaitlisted: number;
  seatsCheckedIn: number;
  revenueCents: number;
}

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** `Y-m-d` in `tz` (en-CA's form); one formatter per zone, kept: building one costs far more than using it. */
function dayFormatOf(tz: string): Intl.DateTimeFormat {
  let format = dayFormats.get(tz);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(tz, format);
  }
  return format;
}

export function overviewService(ctx: AppContext) {
  const { db } = ctx;

  /** Events that have not ended a day ago, soonest first, those the principal may see. */
  async function upcomingEvents(principal: Principal, nowMs: number): Promise<EventFigures[]> {
    const since = new Date(nowMs - 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
    const allowed = principal.role === 'administrator' ? null : principal.eventIds;
    if (allowed && allowed.length === 0) return [];
    const mine = allowed
      ? sql`and e.id in (${sql.join(
          allowed.map((id) => sql`${id}`),
          sql`, `,
        )})`
      : sql``;
    return queryRows<EventFigures>(
      db,
      sql`with picked as (
            select e.id, e.title, to_char(e.starts_utc, 'YYYY-MM-DD HH24:MI:SS') as "startsUtc",
                   to_char(e.ends_utc, 'YYYY-MM-DD HH24:MI:SS') as "endsUtc", e.timezone, e.status, e.capacity, e.starts_utc
            from svc_events e
            where coalesce(e.ends_utc, e.starts_utc) >= ${since}::timestamp ${mine}
            order by e.starts_utc, e.id limit ${OVERVIEW_EVENTS})
          select p.id, p.title, p."startsUtc", p."endsUtc", p.timezone, p.status, p.capacity,
                 coalesce((select sum(a.quantity) from svc_attendees a where a.event_id = p.id and a.status in ('going', '')), 0)::int as "seatsGoing",
                 coalesce((select sum(a.quantity) from svc_attendees a where a.event_id = p.id and a.status = 'waitlist'), 0)::int as "seatsWaitlisted",
                 coalesce((select sum(a.quantity) from svc_attendees a where a.event_id = p.id and a.status in ('going', '')
                            and exists (select 1 from svc_checkins c where c.attendee_id = a.id and c.annulled_utc is null)), 0)::int as "seatsCheckedIn",
                 coalesce((select sum(pay.amount_cents) from svc_payments pay join svc_orders o on o.id = pay.order_id
                            where o.event_id = p.id and pay.status = 'paid'), 0)::int as "revenueCents"
          from picked p order by p.starts_utc, p.id`,
    );
  }

  /** Seats signed up per day of each event's own zone, the last SIGNUP_DAYS days. */
  async function signupsByDay(events: EventFigures[], nowMs: number): Promise<Map<number, Map<string, number>>> {
    const byEvent = new Map<number, Map<string, number>>();
    if (events.length === 0) return byEvent;
    const since = new Date(nowMs - (SIGNUP_DAYS + 1) * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
    const rows = await queryRows<{ eventId: number; day: string; seats: number }>(
      db,
      sql`select a.event_id as "eventId",
                 to_char((a.created_utc at time zone 'UTC') at time zone e.timezone, 'YYYY-MM-DD') as day,
                 sum(a.quantity)::int as seats
          from svc_attendees a join svc_events e on e.id = a.event_id
          where a.event_id in (${sql.join(
            events.map((e) => sql`${e.id}`),
            sql`, `,
          )}) and a.created_utc >= ${since}::timestamp
          group by 1, 2`,
    );
    for (const row of rows) {
      const days = byEvent.get(row.eventId) ?? new Map<string, number>();
      days.set(row.day, Number(row.seats));
      byEvent.set(row.eventId, days);
    }
    return byEvent;
  }

  /** The last SIGNUP_DAYS calendar days of `tz`, oldest first. */
  function lastDays(tz: string, nowMs: number): string[] {
    const format = dayFormatOf(tz);
    const days: string[] = [];
    for (let i = SIGNUP_DAYS - 1; i >= 0; i -= 1) {
      const day = format.format(nowMs - i * 86_400_000);
      if (days[days.length - 1] !== day) days.push(day);
    }
    return days;
  }

  async function bookingCounts(principal: Principal, tz: string): Promise<Overview['bookings']> {
    if (principal.role === 'staff') return null;
    const own = principal.role === 'host' ? sql`and b.host_user_id = ${principal.userId ?? 0}` : sql``;
    const [row] = await queryRows<{ today: number; thisWeek: number }>(
      db,
      sql`with bounds as (
            select date_trunc('day', now() at time zone ${tz}) as day_start,
                   date_trunc('week', now() at time zone ${tz}) as week_start)
          select count(*) filter (where (b.start_utc at time zone 'UTC') at time zone ${tz} >= x.day_start
                                    and (b.start_utc at time zone 'UTC') at time zone ${tz} < x.day_start + interval '1 day')::int as today,
                 count(*) filter (where (b.start_utc at time zone 'UTC') at time zone ${tz} >= x.week_start
                                    and (b.start_utc at time zone 'UTC') at time zone ${tz} < x.week_start + interval '7 days')::int as "thisWeek"
          from svc_bookings b, bounds x
          where b.status not in ('cancelled', 'abandoned') ${own}
            and b.start_utc >= (x.week_start - interval '1 day') and b.start_utc < (x.week_start + interval '8 days')`,
    );
    return { today: Number(row?.today ?? 0), thisWeek: Number(row?.thisWeek ?? 0) };
  }

  async function outboxCounts(principal: Principal): Promise<Overview['outbox']> {
    if (principal.role !== 'administrator') return null;
    const [row] = await queryRows<{ queued: number; failed: number }>(
      db,
      sql`select count(*) filter (where state = 'queued')::int as queued, count(*) filter (where state = 'failed')::int as failed
          from svc_outbox where state in ('queued', 'failed')`,
    );
    return { queued: Number(row?.queued ?? 0), failed: Number(row?.failed ?? 0) };
  }

  return {
    async overview(principal: Principal, tz = 'UTC', nowMs = Date.now()): Promise<Overview> {
      const [events, bookings, outbox, currency] = await Promise.all([
        upcomingEvents(principal, nowMs),
        bookingCounts(principal, tz),
        outboxCounts(principal),
        settingsService(ctx).currency(),
      ]);
      const perDay = await signupsByDay(events, nowMs);
      const seesMoney = principal.role === 'administrator';
      const list: OverviewEvent[] = events.map((e) => ({
        id: e.id,
        title: e.title,
        startsUtc: e.startsUtc,
        endsUtc: e.endsUtc,
        timezone: e.timezone,
        status: e.status,
        capacity: e.capacity === null ? null : Number(e.capacity),
        seatsGoing: Number(e.seatsGoing),
        seatsWaitlisted: Number(e.seatsWaitlisted),
        seatsCheckedIn: Number(e.seatsCheckedIn),
        revenueCents: seesMoney ? Number(e.revenueCents) : null,
        currency,
        signupsByDay: lastDays(e.timezone, nowMs).map((day) => ({ day, seats: perDay.get(e.id)?.get(day) ?? 0 })),
      }));
      return { tz, events: list, bookings, outbox };
    },
  };
}
