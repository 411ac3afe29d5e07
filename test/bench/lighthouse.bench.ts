/**
 * Lighthouse (the `lighthouse` package, performance category, its default mobile settings:
 * Moto G Power screen, simulated slow 4G and 4× CPU slowdown) on Debian's Chromium against the
 * built PWA served by the real server, seeded with a published event and a booking type:
 * - performance score of /events, /events/{id}, /book/{id}, the cancel link of a sign-up, the
 *   manage link of a booking, /door and /login: at least 95, in the browser's language (English)
 *   and again with `?lang=de` and `?lang=ar` (another catalogue chunk, right to left: issue 28);
 * - total blocking time of each: under 200 ms;
 * - LCP and CLS beside them (information).
 * Each page is run RUNS times (default 3, SVC_LH_RUNS to change) in one browser, Lighthouse
 * clearing the origin's storage before each run; the figure is the median of the runs.
 * Lighthouse's CPU slowdown multiplies whatever the machine is doing besides: each run prints
 * the load average it started under.
 *
 * Run alone: `node --import tsx test/bench/lighthouse.bench.ts`; SVC_CLIENT_DIST=/tmp/x builds
 * and serves the PWA there instead of dist/client; SVC_LH_REPORT_DIR=/tmp/y keeps each run's JSON;
 * SVC_LH_ONLY=/book,?lang=de measures only the pages whose name holds every listed part.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import sharp from 'sharp';
import { loginAs } from '../helpers/http';
import { bookingBody, createHost, createType, futureStart, submitBooking } from '../helpers/booking';
import { signUp } from '../helpers/registration';
import { linkFromOutbox } from '../helpers/visitor-e2e';
import { CHROMIUM_PATH } from '../helpers/browser';
import { startTestServer } from '../helpers/server';
import { runWhenMain } from './support';
import type { BenchResult } from './types';

const SCORE_TARGET = 95;
const TBT_TARGET_MS = 200;
const RUNS = Math.max(1, Number(process.env.SVC_LH_RUNS ?? 3));
const REPORT_DIR = process.env.SVC_LH_REPORT_DIR;
// SVC_LH_ONLY=/events,?lang=ar measures only the pages whose name contains every listed part
const ONLY = (process.env.SVC_LH_ONLY ?? '').split(',').filter(Boolean);

// Debian's Chromium, quiet: nothing in the background that would compete with the page.
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

interface RunFigures {
  score: number;
  tbt: number;
  lcp: number;
  cls: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

/**
 * One Lighthouse run. A run that Lighthouse itself reports as broken (NO_NAVSTART, a lost trace:
 * no figures at all) is made again, at most twice; a run with figures is never repeated.
 */
async function measure(url: string, port: number) {
  for (let attempt = 1; ; attempt += 1) {
    const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] });
    if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
    const broken = result.lhr.runtimeError;
    if (!broken) return result;
    if (attempt === 3) throw new Error(`Lighthouse on ${url}: ${broken.code} ${broken.message}`);
    console.log(`${url}: Lighthouse failed to record (${broken.code}); running it again`);
  }
}

/** A 2400×1350 photo-like JPEG: a gradient with grain, so its variants weigh what a real cover's do. */
async function coverPhoto(): Promise<Buffer> {
  const width = 2400;
  const height = 1350;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const at = (y * width + x) * 3;
      const grain = ((x * 7919 + y * 104729) % 37) - 18;
      pixels[at] = Math.max(0, Math.min(255, Math.round((x / width) * 200) + grain));
      pixels[at + 1] = Math.max(0, Math.min(255, Math.round((y / height) * 160) + 40 + grain));
      pixels[at + 2] = Math.max(0, Math.min(255, 180 - Math.round((x / width) * 120) + grain));
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
}

export default async function run(): Promise<BenchResult[]> {
  const server = await startTestServer({ client: true, env: { SVC_JOBS: 'off' } });
  const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM_PATH, chromeFlags: CHROME_FLAGS });
  try {
    const admin = await loginAs(server.url, server.admin.email, server.admin.password);
    const event = await admin.api.post('/events', {
      title: 'Lighthouse summer meetup',
      startsUtc: '2099-06-01 18:00:00',
      status: 'published',
      description: 'An evening of talks and food. Bring a friend; the doors open half an hour before the start.',
    });
    if (event.status !== 201) throw new Error(`event create failed: ${event.status} ${JSON.stringify(event.body)}`);
    // a host, so a time can be booked and its manage link measured
    const type = await createType(admin.api, { title: 'Advice session', durationMinutes: 30, hosts: [await createHost(admin.api)] });
    // a second event and type carry a cover image, as an organizer's would (a photo-sized JPEG):
    // their pages are measured apart, so each figure says what it measures
    const covered = await admin.api.post('/events', {
      title: 'Lantern walk by the river',
      startsUtc: '2099-06-08 19:00:00',
      status: 'published',
      description: 'A slow walk along the river at dusk, with lanterns, music and hot tea at the end.',
    });
    if (covered.status !== 201) throw new Error(`event create failed: ${covered.status} ${JSON.stringify(covered.body)}`);
    const coveredType = await createType(admin.api, { title: 'Portfolio review', durationMinutes: 30, hosts: [await createHost(admin.api)] });
    for (const target of [`/svc/v1/events/${covered.body.id}/image`, `/svc/v1/booking-types/${coveredType.id}/image`]) {
      const uploaded = await fetch(`${server.url}${target}`, {
        method: 'PUT',
        headers: { cookie: admin.cookie, origin: server.url, 'content-type': 'image/jpeg' },
        body: new Blob([new Uint8Array(await coverPhoto())]),
      });
      if (uploaded.status !== 200) throw new Error(`cover upload failed: ${uploaded.status} ${await uploaded.text()}`);
    }
    // a sign-up and a booking, for the links their mails carry
    const email = 'lighthouse-visitor@example.test';
    const signup = await signUp(server, event.body.id, { email });
    if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${JSON.stringify(signup.body)}`);
    const booking = bookingBody(type.id as number, futureStart(3, 10));
    const booked = await submitBooking(server.url, booking);
    if (booked.status !== 201) throw new Error(`booking failed: ${booked.status} ${JSON.stringify(booked.body)}`);

    // the links' tokens are secrets: the figures name their pattern, not the token
    const paths: Array<[name: string, path: string]> = [
      ['/events', '/events'],
      ['/events/{id}', `/events/${event.body.id}`],
      ['/events/{id} with cover', `/events/${covered.body.id}`],
      ['/book/{id}', `/book/${type.id}`],
      ['/book/{id} with cover', `/book/${coveredType.id}`],
      ['/cancel/{token}', await linkFromOutbox(server, email, 'cancel')],
      ['/manage/{token}', await linkFromOutbox(server, String(booking.customerEmail), 'manage')],
      ['/door', '/door'],
      ['/login', '/login'],
    ];
    // each page in the browser's language (English), then linked in German and in Arabic
    const pages = ['', '?lang=de', '?lang=ar']
      .flatMap((query) => paths.map(([name, p]) => ({ name: `${name}${query}`, path: `${p}${query}` })))
      .filter(({ name }) => ONLY.every((part) => name.includes(part)));
    const results: BenchResult[] = [];
    if (REPORT_DIR) mkdirSync(REPORT_DIR, { recursive: true });
    console.log(`Lighthouse ${RUNS} run(s) per page, mobile default throttling; figures are medians`);
    for (const { name: page, path: pagePath } of pages) {
      const runs: RunFigures[] = [];
      for (let i = 0; i < RUNS; i += 1) {
        const startedUnder = load();
        const result = await measure(new URL(pagePath, server.url).href, chrome.port);
        const lhr = result.lhr;
        const figures: RunFigures = {
          score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          tbt: Math.round(lhr.audits['total-blocking-time']?.numericValue ?? NaN),
          lcp: Math.round(lhr.audits['largest-contentful-paint']?.numericValue ?? NaN),
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? NaN,
        };
        runs.push(figures);
        console.log(
          `${page} run ${i + 1}: score ${figures.score}, TBT ${figures.tbt} ms, LCP ${figures.lcp} ms, CLS ${figures.cls.toFixed(3)} (load ${startedUnder})`,
        );
        if (REPORT_DIR) writeFileSync(path.join(REPORT_DIR, `${page.replace(/\W+/g, '_')}-${i + 1}.json`), result.report as string);
      }
      const score = median(runs.map((r) => r.score));
      const tbt = median(runs.map((r) => r.tbt));
      results.push(
        { name: `${page} performance score (median of ${RUNS})`, value: score, unit: '', target: `≥ ${SCORE_TARGET}`, pass: score >= SCORE_TARGET },
        { name: `${page} total blocking time (median of ${RUNS})`, value: tbt, unit: 'ms', target: `< ${TBT_TARGET_MS} ms`, pass: tbt < TBT_TARGET_MS },
        { name: `${page} largest contentful paint (median of ${RUNS})`, value: median(runs.map((r) => r.lcp)), unit: 'ms', target: 'info', pass: true },
        {
          name: `${page} cumulative layout shift (median of ${RUNS})`,
          value: Math.round(median(runs.map((r) => r.cls)) * 1000) / 1000,
          unit: '',
          target: 'info',
          pass: true,
        },
      );
    }
    return results;
  } finally {
    chrome.kill();
    await server.close();
  }
}

runWhenMain(import.meta.url, run);
