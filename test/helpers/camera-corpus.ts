/**
 * The camera decode corpus: real ticket codes (24 base64url characters, as signup makes them,
 * encoded as the confirmation email encodes them) seen the ways a door's camera sees them — at
 * 10–55 % of a 16:9 frame's width (55 % is its full height), turned, in perspective, blurred, noisy, low-contrast, with glare,
 * JPEG-compressed, inverted (a dark-mode screenshot), shown on a phone screen (moiré), and some
 * of these at once. Frames are drawn in Chromium at bench/test time (nothing large is committed):
 * test/fixtures/camera-corpus/ holds the drawing code, the bench page and the generator script.
 *
 * `openCorpusPage` builds that page with Vite (the door's real scanner modules included, the
 * decoder's .wasm served from our own origin under the app's Content-Security-Policy) and opens it.
 */
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import QRCode from 'qrcode';
import type { Browser, Page } from 'playwright-core';
import { ROOT } from '../../server/build-client';
import { CONTENT_SECURITY_POLICY } from '../../server/http';
import { seededRandom } from '../bench/support';

export interface CorpusSpec {
  name: string;
  code: string;
  seed: number;
  /** The code (with its 2-module margin) as a share of the frame's width. */
  fraction: number;
  /** In-plane rotation, degrees. */
  angle?: number;
  /** Tilt about the horizontal / vertical axis, degrees (perspective). */
  tiltX?: number;
  tiltY?: number;
  /** The code's centre off the frame's centre, as a share of its width / height. */
  offsetX?: number;
  offsetY?: number;
  /** Gaussian blur radius, px. */
  blur?: number;
  /** Sensor noise, standard deviation in grey levels. */
  noise?: number;
  /** Grey levels of dark and light modules (low contrast: close together). */
  dark?: number;
  light?: number;
  /** A bright spot: centre x, y (share of the frame), radius (share of its width), strength 0–1. */
  glare?: [number, number, number, number];
  /** JPEG quality 0–1. */
  jpeg?: number;
  /** Light modules on dark (a dark-mode screenshot). */
  invert?: boolean;
  /** Shown on a phone screen: RGB subpixel stripes, a black bezel. */
  screen?: boolean;
}

export const FRAME_WIDTH = 1280;
export const FRAME_HEIGHT = 720;

/** A ticket code as signup makes one (randomToken(18): 18 bytes, base64url), from a seeded source. */
export function ticketCode(random: () => number): string {
  return Buffer.from(Array.from({ length: 18 }, () => Math.floor(random() * 256))).toString('base64url');
}

/** The conditions, each drawn with two different ticket codes. */
const CONDITIONS: Array<Omit<CorpusSpec, 'code' | 'seed' | 'name'> & { name: string }> = [
  { name: 'size 10 %', fraction: 0.1 },
  { name: 'size 20 %', fraction: 0.2, offsetX: 0.2 },
  { name: 'size 35 %', fraction: 0.35 },
  { name: 'size 50 %', fraction: 0.5, angle: 3 },
  // 70 % of a 16:9 frame's width is taller than the frame: the largest that fits is 55 % (98 % of its height)
  { name: 'size 55 % (the frame’s full height)', fraction: 0.55, angle: -2 },
  { name: 'rotated 20°', fraction: 0.3, angle: 20 },
  { name: 'rotated 45°', fraction: 0.3, angle: 45 },
  { name: 'upside down', fraction: 0.3, angle: 172 },
  { name: 'perspective, tilted back 40°', fraction: 0.3, tiltX: 40, angle: 5 },
  { name: 'perspective, turned 45°', fraction: 0.3, tiltY: 45 },
  { name: 'blurred 1.5 px', fraction: 0.3, blur: 1.5 },
  { name: 'blurred 3 px (out of focus)', fraction: 0.4, blur: 3 },
  { name: 'noisy σ 20', fraction: 0.25, noise: 20 },
  { name: 'noisy σ 40 (dark door)', fraction: 0.35, noise: 40, dark: 20, light: 120 },
  { name: 'low contrast', fraction: 0.3, dark: 110, light: 160 },
  { name: 'low contrast, dim', fraction: 0.3, dark: 40, light: 80, noise: 6 },
  { name: 'glare on a corner', fraction: 0.35, glare: [0.42, 0.38, 0.12, 0.8] },
  { name: 'glare across', fraction: 0.35, glare: [0.5, 0.5, 0.25, 0.5] },
  { name: 'JPEG q 0.3', fraction: 0.2, jpeg: 0.3 },
  { name: 'JPEG q 0.1', fraction: 0.3, jpeg: 0.1 },
  { name: 'inverted (dark mode)', fraction: 0.3, invert: true },
  { name: 'inverted, small', fraction: 0.15, invert: true, angle: 10 },
  { name: 'phone screen (moiré)', fraction: 0.3, screen: true },
  { name: 'phone screen, turned', fraction: 0.25, screen: true, angle: 12, tiltY: 20 },
  { name: 'small, turned, noisy', fraction: 0.15, angle: 30, noise: 15 },
  { name: 'perspective, blurred, JPEG', fraction: 0.3, tiltX: 30, blur: 1.2, jpeg: 0.4 },
  { name: 'dim, noisy, glare', fraction: 0.3, dark: 30, light: 110, noise: 15, glare: [0.55, 0.45, 0.1, 0.5] },
  { name: 'inverted phone screen in perspective', fraction: 0.3, invert: true, screen: true, tiltY: 25 },
  { name: 'held at arm’s length, turned', fraction: 0.12, angle: -15, tiltX: 15 },
  { name: 'close up, blurred', fraction: 0.5, blur: 2.5 },
];

/** The corpus: every condition with two ticket codes (60 frames), the same every run. */
export function corpusSpecs(seed = 18): CorpusSpec[] {
  const random = seededRandom(seed);
  return CONDITIONS.flatMap((c, i) => [0, 1].map((k) => ({ ...c, name: `${c.name} #${k + 1}`, code: ticketCode(random), seed: seed * 1000 + i * 2 + k })));
}

/** The QR modules of `code` exactly as the confirmation email draws it (error correction M). */
export function qrMatrix(code: string): { size: number; data: number[] } {
  const { size, data } = QRCode.create(code, { errorCorrectionLevel: 'M' }).modules;
  return { size, data: Array.from(data) };
}

const PAGE_DIR = path.join(ROOT, 'test/fixtures/camera-corpus');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
};

export interface CorpusPage {
  page: Page;
  close(): Promise<void>;
}

/** Builds the corpus page into `outDir` (Vite, the door's scanner modules bundled as the app bundles them). */
export async function buildCorpusPage(outDir: string): Promise<void> {
  const { build } = await import('vite');
  await build({
    configFile: false,
    root: PAGE_DIR,
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
}

/** Serves a built corpus page with the app's Content-Security-Policy; opens it in `browser`. */
export async function openCorpusPage(browser: Browser, outDir: string): Promise<CorpusPage> {
  const server: Server = createServer((req, res) => {
    const file = path.join(outDir, new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/$/, '/index.html'));
    if (!file.startsWith(outDir)) return void res.writeHead(404).end();
    readFile(file).then(
      (body) =>
        res
          .writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'content-security-policy': CONTENT_SECURITY_POLICY })
          .end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const context = await browser.newContext({ viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  page.on('pageerror', (e) => console.error('[corpus page]', e.message));
  await page.goto(`http://127.0.0.1:${port}/`);
  await page.waitForFunction(() => 'corpus' in window);
  return {
    page,
    async close() {
      await context.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
