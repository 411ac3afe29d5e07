/**
 * Writes a booking into a host's CalDAV calendar (docs/api.md#host-calendars, write-back;
 * docs/decisions/042-calendar-write-back.md): one calendar object resource per booking at
 * `<collection>/<uid>.ics`, named by the mailed invite's UID. Create is a PUT with
 * `If-None-Match: *` (a replay finds it there, 412, and updates it in place: never a second copy),
 * an update is a plain PUT at the same address, a removal a DELETE for which 404 and 410 are
 * success. Every request goes through the webhook SSRF rules (server/security/outbound.ts).
 * Errors carry a message safe for a job's `last_error`: no password, no address.
 */
import { OutboundError, requestOutbound, type OutboundPolicy } from '../../security/outbound';

export interface WriteTarget {
  /** The calendar collection, ending in `/` or not. */
  collectionUrl: string;
  username: string | null;
  password: string | null;
}

export interface WriteOptions {
  policy: OutboundPolicy;
  timeoutMs: number;
}

/** A write that did not go through, with a message fit for a job's error (no credential, no URL). */
export class CalendarWriteError extends Error {
  override name = 'CalendarWriteError';
}

/** The resource's address: the UID, percent-encoded, as one path segment under the collection. */
export function eventUrl(collectionUrl: string, uid: string): string {
  const base = collectionUrl.endsWith('/') ? collectionUrl : `${collectionUrl}/`;
  return new URL(`${encodeURIComponent(uid)}.ics`, base).href;
}

const authOf = (t: WriteTarget): Record<string, string> =>
  t.username ? { authorization: `Basic ${Buffer.from(`${t.username}:${t.password ?? ''}`).toString('base64')}` } : {};

async function send(t: WriteTarget, uid: string, method: 'PUT' | 'DELETE', headers: Record<string, string>, body: string | undefined, opts: WriteOptions) {
  try {
    return await requestOutbound(
      eventUrl(t.collectionUrl, uid),
      { method, headers: { 'user-agent': 'svc-calendars/1', ...authOf(t), ...headers }, body },
      opts.policy,
      { timeoutMs: opts.timeoutMs, maxResponseBytes: 16 * 1024 },
    );
  } catch (err) {
    // an OutboundError's message names the failure (refused, no answer), never the credentials
    throw new CalendarWriteError(err instanceof OutboundError ? `the calendar server could not be reached: ${err.message}` : 'the calendar request failed');
  }
}

function refused(method: string, status: number): CalendarWriteError {
  if (status === 401 || status === 403) return new CalendarWriteError(`${method}: the calendar server refused the user name or password (${status})`);
  return new CalendarWriteError(`${method}: the calendar server answered ${status}`);
}

/**
 * Puts the event: `create` sends `If-None-Match: *`; a 412 (it is there already: a replay, or a
 * write whose answer was lost) is followed by a plain PUT, so the stored copy is the current one.
 * Answers what happened.
 */
export async function putEvent(t: WriteTarget, uid: string, ics: string, create: boolean, opts: WriteOptions): Promise<'created' | 'updated'> {
  const type = { 'content-type': 'text/calendar; charset=utf-8' };
  if (create) {
    const res = await send(t, uid, 'PUT', { ...type, 'if-none-match': '*' }, ics, opts);
    if (res.status === 201 || res.status === 204 || res.status === 200) return 'created';
    if (res.status !== 412) throw refused('PUT', res.status);
  }
  const res = await send(t, uid, 'PUT', type, ics, opts);
  if (res.status >= 200 && res.status < 300) return 'updated';
  throw refused('PUT', res.status);
}

/** Removes the event; one that is not there (404, 410) is removed already. */
export async function deleteEvent(t: WriteTarget, uid: string, opts: WriteOptions): Promise<'deleted' | 'absent'> {
  const res = await send(t, uid, 'DELETE', {}, undefined, opts);
  if (res.status === 404 || res.status === 410) return 'absent';
  if (res.status >= 200 && res.status < 300) return 'deleted';
  throw refused('DELETE', res.status);
}
