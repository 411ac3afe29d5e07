/**
 * Whether the people a door's name search finds are already in: the cached list's check-ins
 * plus this device's own scans the list does not carry yet, undos taken back out.
 */
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AttendeeTuple, DownloadResult } from '../../shared/checkin';
import { applyDownloadPage } from '../../client/door/db/attendee-cache';
import { openDoorDb, type DoorDb } from '../../client/door/db/door-db';
import { searchWithPresence } from '../../client/door/db/lookup-status';
import { lookupScan, recordScan, undoScan } from '../../client/door/db/scans';
import { attendeeTuple, codeHash, DOOR_EVENT } from '../helpers/door-cache';

const EVENT = DOOR_EVENT;
const hash = codeHash;
const tuple = (id: number, name: string, count = 0, last: string | null = null): AttendeeTuple =>
  attendeeTuple(id, { name, count, last, lastDevice: last ? 'South door' : null });

let db: DoorDb;
beforeEach(async () => {
  db = openDoorDb(`door-presence-${randomUUID()}`);
  const page: DownloadResult = {
    cursor: '100:0',
    event: EVENT,
    attendees: [tuple(1, 'Ann Harbour'), tuple(2, 'Ben Harbour', 1, '2030-06-01 18:05:00'), tuple(3, 'Cy Harbour')],
    nextAfterId: 3,
    hasMore: false,
  };
  await applyDownloadPage(db, 7, page, Date.now());
});
afterEach(async () => {
  await db.delete();
});

async function scanHere(id: number, scannedMs: number): Promise<string> {
  const lookup = await lookupScan(db, { codeHash: hash(id) }, EVENT.id, 'North door');
  const clientId = randomUUID();
  await recordScan(db, { clientId, eventId: EVENT.id, codeHash: hash(id), lookup, source: 'scan', scannedMs });
  return clientId;
}

const presence = async (query: string) =>
  Object.fromEntries((await searchWithPresence(db, EVENT.id, query)).map((f) => [f.attendee.displayName, f.isIn ? (f.inSinceUtc ?? 'in') : 'not in']));

describe('who a name search finds is in', () => {
  it('is in since the server’s last check-in, or since this device’s unsynced scan; not in otherwise', async () => {
    await scanHere(1, Date.parse('2030-06-01T18:20:00Z'));
    expect(await presence('harb')).toEqual({ 'Ann Harbour': '2030-06-01 18:20:00', 'Ben Harbour': '2030-06-01 18:05:00', 'Cy Harbour': 'not in' });
  });

  it('a later scan here moves the time on; an undone scan takes the person back out', async () => {
    await scanHere(2, Date.parse('2030-06-01T18:30:00Z'));
    const undone = await scanHere(3, Date.now());
    expect(await undoScan(db, undone)).toBe('dropped');
    expect(await presence('harb')).toEqual({ 'Ann Harbour': 'not in', 'Ben Harbour': '2030-06-01 18:30:00', 'Cy Harbour': 'not in' });
  });

  it('answers nothing under 2 characters or without an event', async () => {
    expect(await searchWithPresence(db, EVENT.id, 'h')).toEqual([]);
    expect(await searchWithPresence(db, null, 'harb')).toEqual([]);
  });
});
