/**
 * Reads a host's calendar from where it lives (docs/api.md#host-calendars): an ICS address with a
 * plain GET (If-None-Match with the last ETag), or a CalDAV calendar through tsdav (the address
 * may be the calendar collection itself, or a principal or home where the first event calendar is
 * found). An unchanged calendar costs one request: the ICS answer 304, or the collection's
 * ctag / sync token as last seen. Every request goes through the webhook SSRF rules
 * (server/security/outbound.ts). Errors carry a message safe to show: never a credential.
 */
import { calendarQuery, createAccount, fetchCalendars, propfind } from 'tsdav';
import { OutboundError, outboundFetch, requestOutbound, type OutboundPolicy } from '../../security/outbound';
import type { HostCalendarKind } from '../../../shared/host-calendars';
import { parseCalendars, NotACalendarError } from './calendar-busy';
import type { CalendarSyncState } from './calendars.repository';

/** A calendar file is read up to this size (a busy calendar of ten years is about 2 MB). */
export const MAX_CALENDAR_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export interface CalendarSource {
  kind: HostCalendarKind;
  url: string;
  username: string | null;
  password: string | null;
}

export interface ReadOptions {
  policy: OutboundPolicy;
  timeoutMs: number;
  /** The horizon the CalDAV query asks for. */
  fromMs: number;
  toMs: number;
  /** What the last good read left; an unchanged calendar answers `unchanged`. */
  previous: CalendarSyncState;
}

export type ReadResult = { unchanged: true; state: CalendarSyncState } | { unchanged: false; state: CalendarSyncState; texts: string[] };

/** A refresh that failed, with a message fit for the host and the admin. */
export class CalendarReadError extends Error {
  override name = 'CalendarReadError';
  constructor(
    message: string,
    /** `credentials` when the server refused the user name or password. */
    readonly reason: 'unreachable' | 'credentials' | 'not_calendar' = 'unreachable',
  ) {
    super(message);
  }
}

const basicAuth = (source: CalendarSource): Record<string, string> =>
  source.username ? { authorization: `Basic ${Buffer.from(`${source.username}:${source.password ?? ''}`).toString('base64')}` } : {};

function refusedCredentials(): CalendarReadError {
  return new CalendarReadError('the calendar server refused the user name or password', 'credentials');
}

function answeredWith(status: number): CalendarReadError {
  if (status === 401 || status === 403) return refusedCredentials();
  if (status === 404) return new CalendarReadError('the calendar server answered 404: no calendar at this address', 'not_calendar');
  return new CalendarReadError(`the calendar server answered ${status}`);
}

/** Any failure as a CalendarReadError whose message holds no credential and no internals. */
function safely(err: unknown): CalendarReadError {
  if (err instanceof CalendarReadError) return err;
  if (err instanceof OutboundError) return new CalendarReadError(err.message);
  if (err instanceof NotACalendarError) return new CalendarReadError('the address did not answer with an iCalendar file', 'not_calendar');
  const message = err instanceof Error ? err.message : '';
  if (/401|Invalid credentials/i.test(message)) return refusedCredentials();
  if (/cannot find (principalUrl|homeUrl)|Collection does not exist/i.test(message))
    return new CalendarReadError('no CalDAV calendar was found at this address', 'not_calendar');
  return new CalendarReadError('the calendar server gave an answer that could not be read');
}

export async function readCalendar(source: CalendarSource, opts: ReadOptions): Promise<ReadResult> {
  try {
    return source.kind === 'ics' ? await readIcs(source, opts) : await readCaldav(source, opts);
  } catch (err) {
    throw safely(err);
  }
}

async function readIcs(source: CalendarSource, opts: ReadOptions): Promise<ReadResult> {
  const headers: Record<string, string> = { accept: 'text/calendar, */*;q=0.5', 'user-agent': 'svc-calendars/1', ...basicAuth(source) };
  if (opts.previous.etag) headers['if-none-match'] = opts.previous.etag;
  let target = source.url;
  for (let hop = 0; ; hop++) {
    const res = await requestOutbound(target, { method: 'GET', headers }, opts.policy, { timeoutMs: opts.timeoutMs, maxResponseBytes: MAX_CALENDAR_BYTES });
    if (res.status >= 300 && res.status < 400 && res.status !== 304 && res.headers.location && hop < MAX_REDIRECTS) {
      // each hop is checked again by requestOutbound; credentials only go to the address's own origin
      const next = new URL(res.headers.location, target);
      if (next.origin !== new URL(source.url).origin) delete headers.authorization;
      target = next.href;
      continue;
    }
    if (res.status === 304 && opts.previous.etag) return { unchanged: true, state: opts.previous };
    if (res.status < 200 || res.status >= 300) throw answeredWith(res.status);
    if (res.truncated) throw new CalendarReadError(`the calendar file is larger than ${MAX_CALENDAR_BYTES / 1024 / 1024} MB`);
    parseCalendars(res.body);
    return { unchanged: false, state: { ...opts.previous, etag: res.headers.etag ?? null }, texts: [res.body] };
  }
}

const icsTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace(/[-:]/g, '')}Z`;

const textOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && '_cdata' in value && typeof value._cdata === 'string') return value._cdata;
  if (value && typeof value === 'object' && '_text' in value && typeof value._text === 'string') return value._text;
  return null;
};

async function readCaldav(source: CalendarSource, opts: ReadOptions): Promise<ReadResult> {
  const fetch = outboundFetch(opts.policy, { timeoutMs: opts.timeoutMs, maxResponseBytes: MAX_CALENDAR_BYTES });
  const headers = basicAuth(source);
  const stateProps = { 'd:resourcetype': {}, 'cs:getctag': {}, 'd:sync-token': {} };

  async function stateOf(url: string) {
    const [res] = await propfind({ url, props: stateProps, depth: '0', headers, fetch });
    if (!res) throw new CalendarReadError('the calendar server gave an empty answer');
    if (!res.ok && res.status !== 207) throw answeredWith(res.status);
    const props = res.props ?? {};
    return {
      isCalendar: Object.keys(props.resourcetype ?? {}).includes('calendar'),
      ctag: textOf(props.getctag) ?? (props.getctag != null ? String(props.getctag) : null),
      syncToken: textOf(props.syncToken) ?? (props.syncToken != null ? String(props.syncToken) : null),
    };
  }

  let collectionUrl = opts.previous.collectionUrl;
  let state = await stateOf(collectionUrl ?? source.url);
  if (!collectionUrl) {
    if (state.isCalendar) {
      collectionUrl = source.url;
    } else {
      const account = await createAccount({
        account: { serverUrl: source.url, accountType: 'caldav', credentials: { username: source.username ?? '', password: source.password ?? '' } },
        headers,
        fetch,
      });
      const calendars = await fetchCalendars({ account, headers, fetch });
      const events = calendars.find((c) => !c.components || c.components.length === 0 || c.components.includes('VEVENT'));
      if (!events) throw new CalendarReadError('no CalDAV calendar was found at this address', 'not_calendar');
      collectionUrl = new URL(events.url, source.url).href;
      state = await stateOf(collectionUrl);
    }
  } else if (!state.isCalendar) {
    throw new CalendarReadError('no CalDAV calendar was found at this address', 'not_calendar');
  }
  const previous = opts.previous;
  const same =
    previous.collectionUrl === collectionUrl &&
    (state.ctag !== null || state.syncToken !== null) &&
    state.ctag === previous.ctag &&
    state.syncToken === previous.syncToken;
  const next: CalendarSyncState = { collectionUrl, ctag: state.ctag, syncToken: state.syncToken, etag: null };
  if (same) return { unchanged: true, state: next };

  const responses = await calendarQuery({
    url: collectionUrl,
    props: { 'd:getetag': {}, 'c:calendar-data': {} },
    filters: {
      'comp-filter': {
        _attributes: { name: 'VCALENDAR' },
        'comp-filter': { _attributes: { name: 'VEVENT' }, 'time-range': { _attributes: { start: icsTime(opts.fromMs), end: icsTime(opts.toMs) } } },
      },
    },
    depth: '1',
    headers,
    fetch,
  });
  const texts: string[] = [];
  for (const res of responses) {
    if (!res.ok && res.status !== 207 && res.status !== 200) {
      if (res.status === 401 || res.status === 403) throw refusedCredentials();
      continue;
    }
    const text = textOf(res.props?.calendarData);
    if (text) texts.push(text);
  }
  return { unchanged: false, state: next, texts };
}
