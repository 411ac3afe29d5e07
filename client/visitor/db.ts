/**
 * The visitor area's own IndexedDB database, `svc-visitor` (separate from the door's):
 * cached API answers with the time they were fetched, form drafts, and the outbox of
 * sign-ups and bookings waiting to be sent.
 */
import Dexie, { type EntityTable } from 'dexie';

export const VISITOR_DB_NAME = 'svc-visitor';

/** One cached answer of a read; `fetchedAt` (epoch ms, this device's clock) tells its age. */
export interface CacheEntry<T = unknown> {
  key: string;
  value: T;
  fetchedAt: number;
}

export type DraftValues = Record<string, string | string[]>;

/** What a person typed into a form, kept so a reload or a closed tab loses nothing. */
export interface Draft {
  key: string;
  values: DraftValues;
  savedAt: number;
}

export type SubmissionKind = 'signup' | 'booking';
export type SubmissionState = 'queued' | 'sending' | 'done' | 'failed';

export interface SubmissionError {
  code: string;
  message: string;
  status: number;
  /** `svc_invalid_param`: each bad field and why. */
  params?: Record<string, string>;
}

/** A sign-up or booking, stored before it is sent so it survives offline and reloads. */
export interface Submission {
  id?: number;
  kind: SubmissionKind;
  /** The event id (sign-up) or booking type id (booking). */
  targetId: number;
  /**
   * What is sent (runner.ts): a sign-up's fields (`attendees.signup` `fields`) or a booking's
   * input (`booking.create`). Kept as stored JSON; entries queued by an older version also carry
   * the REST `path` they were meant for, which is ignored.
   */
  body: Record<string, unknown>;
  /** X-Svc-Nonce fetched while online; '' or an expired one is replaced before sending. */
  nonce: string;
  /** Expiry of the nonce (UTC `Y-m-d H:i:s`), '' when unknown. */
  nonceExpiresUtc: string;
  createdAt: number;
  /** Not sent before this time (epoch ms): the sign-up's minimum fill time, a throttle's Retry-After. */
  notBefore: number;
  state: SubmissionState;
  attempts: number;
  /** When a tab started sending it; a claim older than the stale limit is taken over. */
  claimedAt?: number;
  /** True once the queued copy was stored while the network was away (the page says so). */
  queuedOffline: boolean;
  result?: unknown;
  /** Failed: the server's refusal. Queued again: the answer it waits out (throttle, unavailable). */
  error?: SubmissionError;
  finishedAt?: number;
}

export class VisitorDb extends Dexie {
  cache!: EntityTable<CacheEntry, 'key'>;
  drafts!: EntityTable<Draft, 'key'>;
  outbox!: EntityTable<Submission, 'id'>;

  constructor(name = VISITOR_DB_NAME) {
    super(name);
    this.version(1).stores({
      cache: 'key',
      drafts: 'key',
      outbox: '++id, state, [kind+targetId]',
    });
  }
}

let shared: VisitorDb | undefined;

/** The page's database (opened on first use). */
export function visitorDb(): VisitorDb {
  shared ??= new VisitorDb();
  return shared;
}
