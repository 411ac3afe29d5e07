/** Helpers for event / sign-up tests: create events, post valid sign-ups without waiting 3 s. */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { signValue } from '../../server/security/nonce';
import type { TestServer } from './server';
import { apiClient } from './http';

type Api = ReturnType<typeof apiClient>;

export async function createEvent(api: Api, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await api.post('/events', { title: 'Spring meetup', startsUtc: '2099-05-01 18:00:00', status: 'published', ...overrides });
  if (res.status !== 201) throw new Error(`createEvent failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A form token signed as if the form had been rendered `ageMs` ago (the minimum fill time is 3 s). */
export function agedFormToken(srv: TestServer, eventId: number, ageMs = 10_000): string {
  return signValue(srv.server.ctx.secret, `signup-form|${eventId}`, String(Date.now() - ageMs));
}

export async function nonce(srv: TestServer): Promise<string> {
  return (await apiClient(srv.url).get('/nonce')).body.nonce;
}

let counter = 0;
export function uniqueEmail(prefix = 'visitor'): string {
  counter += 1;
  return `${prefix}-${counter}-${Math.random().toString(36).slice(2, 8)}@example.test`;
}

/** POSTs a sign-up with a valid nonce and aged svc_ts; `fields` override or add inputs. */
export async function signUp(
  srv: TestServer,
  eventId: number,
  fields: Record<string, unknown> = {},
  opts: { nonce?: string | null; form?: boolean; headers?: Record<string, string> } = {},
) {
  const body: Record<string, unknown> = {
    email: uniqueEmail(),
    display_name: 'Ada Lovelace',
    quantity: 1,
    svc_ts: agedFormToken(srv, eventId),
    svc_hp: '',
    ...fields,
  };
  const headers: Record<string, string> = { ...opts.headers };
  const n = opts.nonce === undefined ? await nonce(srv) : opts.nonce;
  if (n !== null) headers['x-svc-nonce'] = n;
  if (opts.form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) {
      if (Array.isArray(v)) for (const item of v) params.append(`${k}[]`, String(item));
      else if (v !== undefined) params.append(k, String(v));
    }
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return apiClient(srv.url).post(`/events/${eventId}/signup`, params.toString(), headers);
  }
  return apiClient(srv.url).post(`/events/${eventId}/signup`, body, headers);
}

export async function attendeeRows(srv: TestServer, eventId?: number): Promise<any[]> {
  const where = eventId === undefined ? sql`true` : sql`event_id = ${eventId}`;
  return queryRows(srv.server.ctx.db, sql`select * from svc_attendees where ${where} order by id`);
}

/** Throttle counters live in the database; tests that are not about them start from zero. */
export async function resetThrottles(srv: TestServer): Promise<void> {
  await srv.server.ctx.db.execute(sql`delete from svc_rate_limits`);
}
