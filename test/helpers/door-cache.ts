/** What the door's IndexedDB tests share: one event as the server sends it, and attendee tuples with made-up code hashes. */
import type { AttendeeTuple, SyncEvent } from '../../shared/checkin';

export const DOOR_EVENT: SyncEvent = {
  id: 1,
  title: 'Gala',
  startsUtc: '2030-06-01 18:00:00',
  endsUtc: null,
  timezone: 'UTC',
  venue: '',
  status: 'published',
  capacity: null,
};

/** A 64-hex-digit stand-in for SHA-256(ticket code), distinct per number. */
export const codeHash = (n: number): string => n.toString(16).padStart(64, '0');

export interface TupleFields {
  eventId: number;
  name: string;
  email: string;
  status: string;
  quantity: number;
  count: number;
  last: string | null;
  lastDevice: string | null;
}

/** An attendee as a download or pull page carries it: going, one seat, never checked in, unless told otherwise. */
export function attendeeTuple(id: number, over: Partial<TupleFields> = {}): AttendeeTuple {
  return [
    id,
    over.eventId ?? DOOR_EVENT.id,
    over.name ?? `Guest ${id}`,
    over.email ?? `guest${id}@example.test`,
    over.status ?? 'going',
    over.quantity ?? 1,
    codeHash(id),
    over.count ?? 0,
    over.last ?? null,
    over.lastDevice ?? null,
  ];
}
