/**
 * PostgreSQL, a real HTTP server: the slot display cache is bounded by bytes, whatever the
 * workload. Cycling through many more distinct 30-day lists than fit (booking types × start days
 * × requester zones) keeps the bytes it reports — on the metrics endpoint and in its stats —
 * under its bound after every answer, and its entry count under what the bound allows.
 */
import { describe, expect, it } from 'vitest';
import { slotCacheOf, slotListBytes } from '../../server/modules/booking/slot.service';
import { toUtcDate } from '../../shared/time';
import { createScratchPostgres, TEST_DB_KIND } from '../helpers/db';
import { loginAs } from '../helpers/http';
import { ALL_DAY } from '../helpers/booking';
import { startServerOnDatabase } from '../helpers/second-server';

const admin = { email: 'admin@example.test', password: 'correct horse battery staple' };
const DAY = 86_400_000;
const TYPES = 2;
const START_DAYS = 25;
const ZONES = [
  'UTC',
  'Europe/Berlin',
  'Europe/London',
  'America/New_York',
  'America/Los_Angeles',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Australia/Sydney',
  'Africa/Nairobi',
  'America/Sao_Paulo',
  'Pacific/Auckland',
  'Asia/Singapore',
  'Europe/Helsinki',
  'America/Chicago',
  'Asia/Dubai',
  'America/Halifax',
  'Asia/Kathmandu',
  'Europe/Lisbon',
  'Pacific/Honolulu',
  'Asia/Seoul',
];
const READERS = 4;

/** `name value` lines of a Prometheus exposition, for the unlabelled series. */
function gauge(exposition: string, name: string): number {
  const line = exposition.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`${name} is not in the metrics`);
  return Number(line.slice(name.length + 1));
}

describe('slot cache bounded by bytes', () => {
  it(
    'cycling through 1,000 distinct 30-day slot lists never takes the cache past its byte bound, and its entries stay as few as the bound allows',
    { timeout: 120_000 },
    async () => {
      expect(TEST_DB_KIND, 'this file needs PostgreSQL (TEST_DATABASE_URL)').toBe('postgres');
      const scratch = await createScratchPostgres();
      const server = await startServerOnDatabase(scratch.url, { SVC_ADMIN_EMAIL: admin.email, SVC_ADMIN_PASSWORD: admin.password, SVC_JOBS: 'off' });
      try {
        const { api } = await loginAs(server.url, admin.email, admin.password);
        const host = (await api.post('/users', { email: 'host@example.test', displayName: 'Host', role: 'host', password: 'long enough password' })).body.id;
        const types: number[] = [];
        for (let i = 0; i < TYPES; i++) {
          const res = await api.post('/booking-types', {
            title: `Call ${i}`,
            status: 'published',
            durationMinutes: 60 + 15 * i,
            timezone: 'UTC',
            weeklyWindows: ALL_DAY,
            hosts: [host],
            maxAdvanceDays: 0,
          });
          expect(res.status).toBe(201);
          types.push(res.body.id);
        }
        const cache = slotCacheOf(server.server.ctx);
        const maxBytes = cache.stats().maxBytes;
        const firstDay = Math.floor(Date.now() / DAY) * DAY + 2 * DAY;
        const keys = types.flatMap((type) =>
          Array.from({ length: START_DAYS }, (_, d) => toUtcDate(firstDay + d * DAY)).flatMap((from) =>
            ZONES.map((tz) => ({ type, from, to: toUtcDate(Date.parse(`${from}T00:00:00Z`) + 29 * DAY), tz })),
          ),
        );
        expect(keys.length).toBe(1000);

        let maxSeenBytes = 0;
        let maxSeenEntries = 0;
        let smallestList = Infinity;
        let largestList = 0;
        const scrapes: Array<{ bytes: number; max: number }> = [];
        const scrape = async () => {
          const res = await api.get<string>('/metrics');
          expect(res.status).toBe(200);
          scrapes.push({ bytes: gauge(res.body, 'svc_slot_cache_bytes'), max: gauge(res.body, 'svc_slot_cache_max_bytes') });
        };
        let next = 0;
        await Promise.all(
          Array.from({ length: READERS }, async () => {
            while (next < keys.length) {
              const n = next++;
              const k = keys[n]!;
              const res = await api.get<{ slots: Parameters<typeof slotListBytes>[0] }>(
                `/booking-types/${k.type}/slots?from=${k.from}&to=${k.to}&tz=${encodeURIComponent(k.tz)}`,
              );
              expect(res.status).toBe(200);
              const bytes = slotListBytes(res.body.slots);
              smallestList = Math.min(smallestList, bytes);
              largestList = Math.max(largestList, bytes);
              const stats = cache.stats();
              maxSeenBytes = Math.max(maxSeenBytes, stats.bytes);
              maxSeenEntries = Math.max(maxSeenEntries, stats.entries);
              if (n % 100 === 99) await scrape();
            }
          }),
        );
        await scrape();

        // the workload was far larger than the bound (and the lists were the 30-day kind)
        expect(smallestList).toBeGreaterThan(100_000);
        expect(keys.length * smallestList).toBeGreaterThan(4 * maxBytes);
        // bytes: never past the bound, in the stats after each answer and on every scrape
        expect(maxSeenBytes).toBeLessThanOrEqual(maxBytes);
        expect(scrapes.length).toBeGreaterThanOrEqual(10);
        for (const s of scrapes) {
          expect(s.max).toBe(maxBytes);
          expect(s.bytes).toBeLessThanOrEqual(maxBytes);
        }
        // the cache is full, not merely idle: within one list of the bound
        expect(scrapes.at(-1)!.bytes).toBeGreaterThan(maxBytes - largestList);
        // entries: never more than the bound holds of the smallest list
        expect(maxSeenEntries).toBeLessThanOrEqual(Math.floor(maxBytes / smallestList));
        expect(cache.stats().entries).toBeLessThan(keys.length / 4);
        console.info(
          `slot cache over ${keys.length} distinct 30-day lists (${(smallestList / 1024).toFixed(0)}–${(largestList / 1024).toFixed(0)} KB each): at most ${(maxSeenBytes / 1_048_576).toFixed(1)} of ${(maxBytes / 1_048_576).toFixed(0)} MB, at most ${maxSeenEntries} entries`,
        );
      } finally {
        await server.close();
        await scratch.drop();
      }
    },
  );
});
