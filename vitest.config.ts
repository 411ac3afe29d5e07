import { defineConfig } from 'vitest/config';
import { existsSync } from 'node:fs';

// Browser tests need a Chromium binary (Debian's, installed by .ci/run); without one
// `npm test` stays green on a machine with only Node and says what it left out.
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(chromium);
// PostgreSQL-only tests (concurrency, multi-instance) run when a server URL is given.
const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;

if (!haveChromium) console.warn(`[svc] ${chromium} not found: browser (e2e) tests are not run.`);
if (!pgUrl) console.warn('[svc] DATABASE_URL/TEST_DATABASE_URL not set: integration tests run on PGlite only.');

const shared = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  setupFiles: ['test/helpers/setup.ts'],
  // Builds the PWA once (when stale) before any file starts a server that serves it.
  globalSetup: ['test/helpers/global-setup.ts'],
};

export default defineConfig({
  test: {
    // Two files at a time: most integration tests wait on a database, a server or a timer, and the
    // default on a 2-core machine is one worker (every file in turn). Each file has its own
    // database (a scratch PostgreSQL database or an in-memory PGlite); the PostgreSQL project
    // still runs its files one at a time (below).
    maxWorkers: 2,
    projects: [
      { test: { ...shared, name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'] } },
      {
        test: {
          ...shared,
          name: 'pglite',
          include: ['test/integration/**/*.test.ts'],
          env: { SVC_TEST_DB: 'pglite' },
        },
      },
      ...(pgUrl
        ? [
            {
              test: {
                ...shared,
                name: 'postgres',
                include: ['test/integration/**/*.test.ts', 'test/postgres/**/*.test.ts'],
                // one PostgreSQL file at a time: transaction ids are cluster-wide, so a transaction
                // open in another file's database holds back the sync pull's horizon (the pull then
                // withholds changes it must return at once; see docs/decisions/009-checkin-sync.md)
                maxWorkers: 1,
                env: { SVC_TEST_DB: 'postgres', TEST_DATABASE_URL: pgUrl },
              },
            },
          ]
        : []),
      ...(haveChromium
        ? [
            {
              test: {
                ...shared,
                name: 'e2e',
                include: ['test/e2e/**/*.test.ts'],
                testTimeout: 120_000,
                hookTimeout: 180_000,
                // a poll waits for a page to show what it must (a cold admin page loads its chunk and
                // its catalogue first): the time it may take, under CI's load, before it counts as a failure
                expect: { poll: { timeout: 10_000 } },
                // one browser file at a time, after the other projects: a page under CI's load must
                // not share the two cores with a second browser or a PGlite file
                maxWorkers: 1,
                sequence: { groupOrder: 1 },
                env: { CHROMIUM_PATH: chromium },
              },
            },
          ]
        : []),
    ],
  },
});
