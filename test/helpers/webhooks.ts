/**
 * Fixtures for outgoing-webhook tests: a real HTTP receiver on 127.0.0.1 that records what
 * arrives and answers what a test scripts per path, and endpoints created through the admin API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { queryRows, type Db } from '../../server/db/client';
import type { apiClient } from './http';

type Api = ReturnType<typeof apiClient>;

export interface ReceivedRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
  /** When it arrived (the wall clock). */
  atMs: number;
}

export interface ScriptedAnswer {
  status?: number;
  body?: string;
  headers?: Record<string, string>;
  /** Answer only after this long (a slow receiver). */
  delayMs?: number;
  /** Send the status, then body chunks until the caller hangs up (a body without end). */
  endless?: boolean;
}

export interface Receiver {
  url: string;
  /** Everything received on `path`, oldest first. */
  received(path: string): ReceivedRequest[];
  /** The answers for the next requests on `path`, in order; then the fallback (200 `ok` unless `always` set one). */
  script(path: string, ...answers: ScriptedAnswer[]): void;
  /** The answer once the script for `path` is used up. */
  always(path: string, answer: ScriptedAnswer): void;
  close(): Promise<void>;
}

/** Starts the receiver; close it in afterAll. */
export async function startReceiver(): Promise<Receiver> {
  const received = new Map<string, ReceivedRequest[]>();
  const scripts = new Map<string, ScriptedAnswer[]>();
  const fallbacks = new Map<string, ScriptedAnswer>();
  const timers = new Set<NodeJS.Timeout>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const atMs = Date.now();
      const path = req.url ?? '/';
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      received.set(path, [...(received.get(path) ?? []), { path, headers, body: Buffer.concat(chunks).toString('utf8'), atMs }]);
      const answer = scripts.get(path)?.shift() ?? fallbacks.get(path) ?? {};
      const send = () => {
        if (res.destroyed) return;
        res.writeHead(answer.status ?? 200, { 'content-type': 'text/plain', ...answer.headers });
        if (!answer.endless) {
          res.end(answer.body ?? 'ok');
          return;
        }
        const chunk = 'x'.repeat(64 * 1024);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: (path) => received.get(path) ?? [],
    script: (path, ...answers) => scripts.set(path, [...(scripts.get(path) ?? []), ...answers]),
    always: (path, answer) => fallbacks.set(path, answer),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Verifies a received request with the `standardwebhooks` package (throws on a bad signature); answers the parsed body. */
export function verified(secret: string, request: ReceivedRequest): { type: string; timestamp: string; data: Record<string, any> } {
  return new Webhook(secret).verify(request.body, {
    'webhook-id': request.headers['webhook-id']!,
    'webhook-timestamp': request.headers['webhook-timestamp']!,
    'webhook-signature': request.headers['webhook-signature']!,
  }) as { type: string; timestamp: string; data: Record<string, any> };
}

let pathSeq = 0;
/** A fresh receiver path, so each test reads only its own requests. */
export const newPath = (name = 'hook') => `/${name}-${++pathSeq}`;

export interface CreatedEndpoint {
  id: number;
  secret: string;
  path: string;
}

/** Creates an endpoint on `receiver` + a fresh path through the admin API. */
export async function createEndpoint(api: Api, receiverUrl: string, events: string[], extra: Record<string, unknown> = {}): Promise<CreatedEndpoint> {
  const path = newPath();
  const res = await api.post('/webhooks', { url: `${receiverUrl}${path}`, events, ...extra });
  if (res.status !== 201) throw new Error(`createEndpoint: ${res.status} ${JSON.stringify(res.body)}`);
  const body = res.body as { id: number; secret: string };
  return { id: body.id, secret: body.secret, path };
}

export interface DeliveryRecord {
  id: number;
  endpoint_id: number;
  message_id: string;
  type: string;
  status: string;
  attempts: number;
  last_response_code: number | null;
  last_error: string | null;
  next_attempt_utc: string | null;
}

/** The stored deliveries of one endpoint, oldest first. */
export function deliveriesOf(db: Db, endpointId: number): Promise<DeliveryRecord[]> {
  return queryRows<DeliveryRecord>(
    db,
    sql`select id, endpoint_id, message_id, type, status, attempts, last_response_code, last_error,
          to_char(next_attempt_utc, 'YYYY-MM-DD HH24:MI:SS') as next_attempt_utc
        from svc_webhook_deliveries where endpoint_id = ${endpointId} order by id`,
  );
}
