/**
 * Calls to addresses an administrator typed in (webhook endpoints, team chat): http(s) only, no
 * loopback, private, link-local or other special-purpose address unless
 * SVC_WEBHOOKS_ALLOW_PRIVATE=1, checked on the syntax when the address is saved and again on the
 * resolved address at every delivery; the connection goes to the address that was checked (a
 * second DNS answer cannot swap it), redirects are not followed, the whole exchange has a
 * deadline and the response body is read only up to a cap (docs/api.md#webhooks).
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { AppError } from '../../shared/errors';

/** Special-purpose ranges (RFC 6890 and successors) a webhook may not reach. */
const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  // unspecified, loopback and the deprecated IPv4-compatible ::a.b.c.d (the URL parser writes ::7f00:1)
  ['::', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(prefix, bits, 'ipv6');

/** True for an address no webhook may reach by default (IPv4-mapped IPv6 is judged as its IPv4). */
export function isPrivateAddress(ip: string): boolean {
  const family = net.isIP(ip);
  if (family === 0) return true;
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
    if (mapped) return BLOCKED.check(mapped[1]!, 'ipv4');
    return BLOCKED.check(ip, 'ipv6');
  }
  return BLOCKED.check(ip, 'ipv4');
}

export interface OutboundPolicy {
  /** SVC_WEBHOOKS_ALLOW_PRIVATE=1. */
  allowPrivate: boolean;
  /** Resolves a host name to its addresses (tests hand in their own). */
  lookup?: (hostname: string) => Promise<string[]>;
}

export const outboundPolicy = (env: { SVC_WEBHOOKS_ALLOW_PRIVATE: '0' | '1' }): OutboundPolicy => ({ allowPrivate: env.SVC_WEBHOOKS_ALLOW_PRIVATE === '1' });

const systemLookup = async (hostname: string) => (await dns.lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);

/** A bracketed IPv6 host as the URL parser leaves it, unbracketed. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * The check when an address is saved: a 400 naming `field` for anything but an absolute http(s)
 * URL without credentials, and (unless allowed) for a literal private address or a `localhost`
 * name. Names are resolved only at delivery time (a request never waits on DNS).
 */
export function assertTargetAllowed(raw: string, policy: OutboundPolicy, field = 'url'): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalid(field, 'must be an absolute http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid(field, 'must use http or https');
  if (url.username || url.password) throw invalid(field, 'must not carry a user name or password');
  if (!policy.allowPrivate) {
    const host = bareHost(url).toLowerCase();
    if (host === 'localhost' || host.endsWith('.localhost') || (net.isIP(host) !== 0 && isPrivateAddress(host))) {
      throw invalid(field, 'must not point at a loopback, private or link-local address');
    }
  }
  return url;
}

function invalid(field: string, message: string): AppError {
  return new AppError('svc_invalid_param', `Invalid parameter(s): ${field}`, { params: { [field]: message } });
}

/** An outbound call that did not get an HTTP answer: refused by policy, DNS, connection, deadline. */
export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    message: string,
    readonly refused = false,
  ) {
    super(message);
  }
}

export interface OutboundResponse {
  status: number;
  durationMs: number;
  /** At most `maxResponseBytes` of the body, as text. */
  body: string;
}

export interface PostOptions {
  timeoutMs?: number;
  maxResponseBytes?: number;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024;

/**
 * POSTs `body` to `target` after the delivery-time checks. Any HTTP status answers (a redirect is
 * an answer, not followed); no answer throws OutboundError (`refused` when the policy said no).
 */
export async function postOutbound(
  target: string,
  body: string,
  headers: Record<string, string>,
  policy: OutboundPolicy,
  opts: PostOptions = {},
): Promise<OutboundResponse> {
  const res = await requestOutbound(
    target,
    { method: 'POST', body, headers: { 'content-type': 'application/json', 'user-agent': 'svc-webhooks/1', ...headers } },
    policy,
    opts,
  );
  return { status: res.status, durationMs: res.durationMs, body: res.body };
}

export interface OutboundRequest {
  method: string;
  headers: Record<string, string>;
  body?: string;
}

export interface OutboundExchange extends OutboundResponse {
  headers: Record<string, string>;
  /** True when the body was cut at `maxResponseBytes`. */
  truncated: boolean;
}

/**
 * Any method to `target` after the delivery-time checks (the calendar refresh GETs, PROPFINDs
 * and REPORTs through it): the same rules as {@link postOutbound}, and the answer's headers.
 */
export async function requestOutbound(target: string, request: OutboundRequest, policy: OutboundPolicy, opts: PostOptions = {}): Promise<OutboundExchange> {
  const started = performance.now();
  let url: URL;
  try {
    url = assertTargetAllowed(target, policy);
  } catch (err) {
    throw new OutboundError(err instanceof AppError ? String(Object.values(err.data.params ?? {})[0] ?? err.message) : 'invalid URL', true);
  }
  const host = bareHost(url);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const noAnswer = () => new OutboundError(`no answer within ${timeoutMs / 1000} s`);
  let address: string;
  if (net.isIP(host) !== 0) {
    address = host;
  } else {
    let addresses: string[];
    try {
      // the deadline covers the name's resolution too
      addresses = await withDeadline((policy.lookup ?? systemLookup)(host), timeoutMs, noAnswer);
    } catch (err) {
      throw err instanceof OutboundError ? err : new OutboundError(`could not resolve ${host}`);
    }
    if (addresses.length === 0) throw new OutboundError(`could not resolve ${host}`);
    // every answer is checked: a name with one public and one private address is refused
    if (!policy.allowPrivate && addresses.some(isPrivateAddress))
      throw new OutboundError(`${host} resolves to a loopback, private or link-local address`, true);
    address = addresses[0]!;
  }
  const family = net.isIP(address) === 6 ? 6 : 4;
  const maxBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const transport = url.protocol === 'https:' ? https : http;
  const body = request.body;

  return new Promise<OutboundExchange>((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: request.method,
        headers: { ...request.headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
        // connect to the checked address; TLS still verifies the name in the URL
        lookup: (_hostname, options, callback) => {
          if ((options as { all?: boolean }).all) (callback as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [{ address, family }]);
          else (callback as (e: null, a: string, f: number) => void)(null, address, family);
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (size >= maxBytes) return;
          chunks.push(chunk.subarray(0, maxBytes - size));
          if (chunk.length > maxBytes - size) truncated = true;
          size += Math.min(chunk.length, maxBytes - size);
          // enough read: stop the transfer instead of draining a large body
          if (size >= maxBytes) finish();
        });
        const finish = () => {
          clearTimeout(deadline);
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          resolve({
            status: res.statusCode ?? 0,
            durationMs: Math.round(performance.now() - started),
            body: Buffer.concat(chunks).toString('utf8'),
            headers,
            truncated,
          });
          res.destroy();
        };
        res.on('end', finish);
        res.on('error', finish);
      },
    );
    const deadline = setTimeout(() => req.destroy(noAnswer()), Math.max(0, timeoutMs - (performance.now() - started)));
    req.on('error', (err) => {
      clearTimeout(deadline);
      reject(err instanceof OutboundError ? err : new OutboundError(connectionMessage(err)));
    });
    req.end(body);
  });
}

/** Statuses whose Response may not carry a body. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/**
 * A `fetch` for a library that talks to an address a user typed in (tsdav): every call goes
 * through {@link requestOutbound}, so the policy, the deadline and the size cap hold for it too.
 */
export function outboundFetch(policy: OutboundPolicy, opts: PostOptions = {}): typeof fetch {
  return async (input, init) => {
    const target = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = init?.body;
    if (body !== undefined && body !== null && typeof body !== 'string') throw new OutboundError('only text bodies are sent');
    const res = await requestOutbound(target, { method: init?.method ?? 'GET', headers, body: body ?? undefined }, policy, opts);
    if (res.truncated) throw new OutboundError(`the answer is larger than ${Math.round((opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES) / 1024)} KB`);
    return new Response(NULL_BODY_STATUSES.has(res.status) ? null : res.body, { status: res.status, headers: res.headers });
  };
}

function withDeadline<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The error's kind without internals (no stack, no local paths). */
function connectionMessage(err: Error & { code?: string }): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return err.code ? `connection failed (${err.code})` : 'connection failed';
  }
}
