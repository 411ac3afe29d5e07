import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { generateSlots, type Slot } from '../../shared/booking/slots';
import { SlotCache, slotListBytes } from '../../server/modules/booking/slot.service';
import { ALL_DAY, slotRules } from '../helpers/booking';

/** A real 750-slot list (30 days of 15-minute slots, three hosts), as the display path caches it. */
function bigList(fromDay = '2026-03-02'): Slot[] {
  return generateSlots({
    rules: slotRules({
      durationMinutes: 15,
      slotIntervalMinutes: 15,
      timezone: 'Europe/Berlin',
      weeklyWindows: ALL_DAY as never,
      hosts: [1, 2, 3],
    }),
    bookingTypeId: 1,
    busy: [],
    fromDay,
    toDay: '2026-04-01',
    nowMs: Date.UTC(2026, 0, 1),
    requesterTz: 'America/New_York',
  });
}

const entry = (slots: Slot[], expiresMs = Infinity) => ({ version: 1, epoch: 1, expiresMs, slots });

describe('slot cache bounded by bytes', () => {
  it('holds at most its byte budget under a cycling workload of distinct lists, evicting the least recently used', () => {
    const list = bigList();
    const size = slotListBytes(list);
    const cache = new SlotCache(10 * size);
    for (let i = 0; i < 1000; i++) {
      cache.set(`k${i}`, entry(list));
      expect(cache.stats().bytes).toBeLessThanOrEqual(10 * size);
    }
    expect(cache.stats().entries).toBe(10);
    // the ten most recent remain; reading one makes it the newest, so the next insert evicts another
    expect(cache.get('k990', 0)).toBeDefined();
    expect(cache.get('k989', 0)).toBeUndefined();
    cache.set('k1000', entry(list));
    expect(cache.get('k990', 0)).toBeDefined();
    expect(cache.get('k991', 0)).toBeUndefined();
  });

  it('drops an expired entry on read, and stores nothing larger than the whole budget', () => {
    const list = bigList();
    const cache = new SlotCache(2 * slotListBytes(list));
    cache.set('old', entry(list, 1000));
    expect(cache.get('old', 999)).toBeDefined();
    expect(cache.get('old', 1000)).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
    const tiny = new SlotCache(1000);
    tiny.set('big', entry(list));
    expect(tiny.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('its size estimate is within a factor of two of what the lists really take on the heap', () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    const kept: Slot[][] = [];
    let estimated = 0;
    for (let i = 0; i < 40; i++) {
      const list = bigList();
      kept.push(list);
      estimated += slotListBytes(list);
    }
    gc();
    const actual = process.memoryUsage().heapUsed - before;
    expect(kept).toHaveLength(40);
    expect(estimated / actual).toBeGreaterThan(0.5);
    expect(estimated / actual).toBeLessThan(2);
  });
});
