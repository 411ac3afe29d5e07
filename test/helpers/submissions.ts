/** Helpers for event-submission tests: post valid proposals without waiting 3 s, read the stored rows. */
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { signValue } from '../../server/security/nonce';
import { SUBMISSION_FORM_PURPOSE } from '../../server/modules/submissions/submissions.service';
import { toUtcString } from '../../shared/time';
import type { TestServer } from './server';
import { apiClient } from './http';
import { nonce, uniqueEmail } from './registration';

/** A proposal form token signed as if the form had been rendered `ageMs` before `nowMs` (the minimum fill time is 3 s). */
export function agedSubmissionToken(srv: TestServer, ageMs = 10_000, nowMs = Date.now()): string {
  return signValue(srv.server.ctx.secret, SUBMISSION_FORM_PURPOSE, String(nowMs - ageMs));
}

/** A start `days` from now, on the hour (UTC `Y-m-d H:i:s`). */
export function futureUtc(days = 30, hour = 18): string {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hour, 0, 0, 0);
  return toUtcString(d);
}

/** A complete, valid proposal body (with an aged svc_ts and an empty honeypot); `fields` override or add inputs. */
export function proposal(srv: TestServer, fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Community picnic',
    description: 'Bring something to share.',
    startsUtc: futureUtc(30, 12),
    endsUtc: futureUtc(30, 15),
    timezone: 'Europe/Berlin',
    venue: 'Riverside park',
    submitterName: 'Pat Proposer',
    submitterEmail: uniqueEmail('proposer'),
    svc_ts: agedSubmissionToken(srv),
    svc_hp: '',
    ...fields,
  };
}

/** POSTs a proposal with a valid nonce (unless `nonce` says otherwise). */
export async function submitProposal(srv: TestServer, body: Record<string, unknown>, opts: { nonce?: string | null; form?: boolean } = {}) {
  const headers: Record<string, string> = {};
  const n = opts.nonce === undefined ? await nonce(srv) : opts.nonce;
  if (n !== null) headers['x-svc-nonce'] = n;
  if (opts.form) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) params.append(k, String(v));
    headers['content-type'] = 'application/x-www-form-urlencoded';
    return apiClient(srv.url).post('/events/submissions', params.toString(), headers);
  }
  return apiClient(srv.url).post('/events/submissions', body, headers);
}

/** Every proposed event as stored (snake_case columns), oldest first. */
export function submissionRows(srv: TestServer): Promise<any[]> {
  return queryRows(srv.server.ctx.db, sql`select * from svc_events where submission_status is not null order by id`);
}
