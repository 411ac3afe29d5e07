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
                fileParallelism: false,
                env: { CHROMIUM_PATH: chromium },
              },
            },
          ]
        : []),
    ],
  },
});
