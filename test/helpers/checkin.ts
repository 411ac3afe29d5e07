/** Fixtures for check-in and sync tests: events and attendees straight through the repositories, tRPC clients, paired devices. */
import { randomUUID } from 'node:crypto';
import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import { transformer } from '../../shared/transformer';
import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../server/db/client';
import { attendeesRepository } from '../../server/modules/attendees/attendees.repository';
import { eventsRepository } from '../../server/modules/events/events.repository';
import { randomToken, sha256Hex } from '../../server/security/crypto';
import type { AppRouter } from '../../server/api/router';
import type { PushItem } from '../../shared/checkin';
import { toUtcString } from '../../shared/time';
import { apiClient } from './http';

let seq = 0;

export async function createEvent(db: Db, title = `Event ${++seq}`) {
  return eventsRepository(db).insert({ title, startsUtc: '2030-06-01 18:00:00', status: 'published' });
}

export interface TestAttendee {
  id: number;
  eventId: number;
  ticketCode: string;
  codeHash: string;
}

export async function createAttendee(db: Db, eventId: number, opts: { status?: string; name?: string; quantity?: number } = {}): Promise<TestAttendee> {
  const ticketCode = randomToken(18);
  const n = ++seq;
  const row = await attendeesRepository(db).insert({
    eventId,
    email: `guest${n}@example.test`,
    displayName: opts.name ?? `Guest ${n}`,
    quantity: opts.quantity ?? 1,
    status: opts.status ?? 'going',
    cancelToken: randomToken(48),
    ticketCode,
    ticketCodeHash: sha256Hex(ticketCode),
  });
  return { id: row.id, eventId, ticketCode, codeHash: row.ticketCodeHash };
}

export function trpcClient(url: string, auth: { bearer?: string; cookie?: string } = {}) {
  return createTRPCClient<AppRouter>({
    links: [
      httpLink({
        url: `${url}/trpc`,
        transformer,
        headers: () => ({
          ...(auth.bearer ? { authorization: `Bearer ${auth.bearer}` } : {}),
          ...(auth.cookie ? { cookie: auth.cookie, origin: url } : {}),
        }),
      }),
    ],
  });
}

/** The svc error code a tRPC call failed with. */
export async function trpcErrorCode(call: Promise<unknown>): Promise<string | null> {
  const err = await call.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof TRPCClientError)) throw new Error(`expected a tRPC error, got ${String(err)}`);
  return (err.data as { svcCode?: string } | undefined)?.svcCode ?? null;
}

/** Creates a device for the events with the admin's REST client and pairs it; answers its id and token. */
export async function pairDevice(
  url: string,
  admin: ReturnType<typeof apiClient>,
  eventIds: number[],
  name = 'Door A',
): Promise<{ id: number; token: string }> {
  const created = await admin.post('/devices', { name, eventIds });
  if (created.status !== 201) throw new Error(`device create failed: ${created.status} ${JSON.stringify(created.body)}`);
  const paired = await apiClient(url).post('/devices/pair', { code: created.body.pairing.pairingCode });
  if (paired.status !== 200) throw new Error(`pairing failed: ${paired.status} ${JSON.stringify(paired.body)}`);
  return { id: created.body.id, token: paired.body.token };
}

/** A paired door as the PWA talks to the server: its id, token and a tRPC client with its token. */
export async function pairedDoor(url: string, admin: ReturnType<typeof apiClient>, eventIds: number[], name?: string) {
  const device = await pairDevice(url, admin, eventIds, name);
  return { ...device, client: trpcClient(url, { bearer: device.token }) };
}

export function scan(attendee: Pick<TestAttendee, 'codeHash' | 'eventId'>, overrides: Partial<PushItem> = {}): PushItem {
  return {
    clientId: randomUUID(),
    codeHash: attendee.codeHash,
    eventId: attendee.eventId,
    scannedUtc: toUtcString(Date.now()),
    verdictOnDevice: 'ok',
    source: 'scan',
    ...overrides,
  };
}

/** Many attendees of one event in one statement ('Guest 00001'…, every tenth on the waitlist); answers their ids and names. */
export function seedAttendees(db: Db, eventId: number, count: number): Promise<Array<{ id: number; display_name: string }>> {
  return queryRows(
    db,
    sql`insert into svc_attendees (event_id, email, display_name, quantity, status, cancel_token, ticket_code, ticket_code_hash)
        select ${eventId}, 'guest' || n || '@example.test', 'Guest ' || lpad(n::text, 5, '0'), 1,
               case when n % 10 = 0 then 'waitlist' else 'going' end,
               md5('c' || ${eventId} || '-' || n) || md5('d' || n), md5('t' || ${eventId} || '-' || n), md5('h' || ${eventId} || '-' || n) || md5('i' || ${eventId} || '-' || n)
        from generate_series(1, ${count}) as n
        returning id, display_name`,
  );
}
