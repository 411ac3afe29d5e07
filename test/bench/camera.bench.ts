/**
 * The camera decode corpus (test/helpers/camera-corpus.ts: 60 frames of real ticket codes at
 * 10–55 % of a 1280×720 frame, turned, in perspective, blurred, noisy, low-contrast, with glare,
 * JPEG-compressed, inverted, on a phone screen) read by every decoder path in the same run, in
 * Chromium, each path opening "the camera" (the page's canvas) per frame and scanning in its own loop:
 * - html5-qrcode as the door configured it before: the whole view, its JS decoder (ZXing-js);
 * - html5-qrcode with a scan region and its experimental BarcodeDetector use (the browser's; where
 *   it has none, html5-qrcode falls back to its JS decoder);
 * - the same with ZXing-C++ (WebAssembly) put under it as BarcodeDetector;
 * - the browser's own BarcodeDetector, where present (Chromium on Linux has none: "absent");
 * - the door as shipped (client/door/scanner/camera.ts): whole frames at the camera's resolution,
 *   ZXing-C++ in WebAssembly (or the browser's BarcodeDetector where it reads QR codes).
 * Per path: decode rate (target ≥ 99 %) and time from opening the camera to the first decode,
 * p50 and p95 (target p95 < 300 ms); a frame not read within 2.5 s is a miss. Also the decoder
 * alone on the still frames (one detect per frame).
 *
 * Run alone: `node --import tsx test/bench/camera.bench.ts` (`SVC_CAMERA_PATHS=door,...` to pick paths).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser } from '../helpers/browser';
import { buildCorpusPage, corpusSpecs, FRAME_WIDTH, openCorpusPage, qrMatrix } from '../helpers/camera-corpus';
import { percentile, runWhenMain } from './support';
import type { BenchResult } from './types';

const RATE_TARGET = 99;
const P95_TARGET_MS = 300;
const TIMEOUT_MS = 2_500;

const PATHS = [
  { id: 'html5-qrcode', label: 'html5-qrcode as configured before (whole view, ZXing-js)' },
  { id: 'html5-qrcode-region-bd', label: 'html5-qrcode, scan region + experimental BarcodeDetector' },
  { id: 'html5-qrcode-region-polyfill', label: 'html5-qrcode, scan region + ZXing-C++ wasm as BarcodeDetector' },
  { id: 'door', label: 'door scanner (whole frames, ZXing-C++ wasm)' },
] as const;

const round = (v: number) => Math.round(v * 10) / 10;

interface RunResult {
  ms: number | null;
  drawsPerS: number;
  canvas: number[];
  region: number[];
  frame: number[];
}

export default async function run(): Promise<BenchResult[]> {
  const specs = corpusSpecs();
  const only = process.env.SVC_CAMERA_PATHS?.split(',');
  const paths = PATHS.filter((p) => !only || only.includes(p.id));
  const outDir = mkdtempSync(path.join(tmpdir(), 'svc-camera-bench-'));
  const browser = await launchBrowser();
  const results: BenchResult[] = [];
  try {
    await buildCorpusPage(outDir);
    const corpus = await openCorpusPage(browser, outDir);
    const { page } = corpus;
    const native = await page.evaluate(() => (window as unknown as { corpus: { nativeKind(): Promise<string> } }).corpus.nativeKind());
    console.log(`corpus: ${specs.length} frames, 1280×720; native BarcodeDetector: ${native}`);

    const times = new Map<string, number[]>(paths.map((p) => [p.id, []]));
    const misses = new Map<string, string[]>(paths.map((p) => [p.id, []]));
    const seenOnMiss = new Map<string, string[]>(paths.map((p) => [p.id, []]));
    const stills: Record<'zxing-wasm' | 'native', { ms: number[]; ok: number }> = { 'zxing-wasm': { ms: [], ok: 0 }, native: { ms: [], ok: 0 } };
    for (const spec of specs) {
      await page.evaluate(([qr, s]) => (window as unknown as { corpus: { render(q: unknown, s: unknown): Promise<void> } }).corpus.render(qr, s), [
        qrMatrix(spec.code),
        spec,
      ] as const);
      for (const kind of ['zxing-wasm', 'native'] as const) {
        const still = await page.evaluate(
          ([k, code]) => (window as unknown as { corpus: { still(k: string, c: string): Promise<{ ms: number; ok: boolean } | null> } }).corpus.still(k, code),
          [kind, spec.code] as const,
        );
        if (still) {
          stills[kind].ms.push(still.ms);
          if (still.ok) stills[kind].ok++;
        }
      }
      // the paths take turns on each frame, so a busy spell of the machine falls on all of them alike
      for (const p of paths) {
        const { ms, drawsPerS, canvas, region, frame } = await page.evaluate(
          ([id, code, timeout]) =>
            (window as unknown as { corpus: { run(p: string, c: string, t: number): Promise<RunResult> } }).corpus.run(id, code, timeout),
          [p.id, spec.code, TIMEOUT_MS] as const,
        );
        if (ms !== null) times.get(p.id)!.push(ms);
        else {
          misses.get(p.id)!.push(spec.name);
          // what the decoder saw: the canvas it read, the part of the camera frame drawn onto it, attempts a second
          seenOnMiss
            .get(p.id)!
            .push(
              `${spec.name}: ${drawsPerS} frames/s drawn, region ${region.join(',')} of ${frame.join('×')} onto ${canvas.join('×')} (code ${Math.round(spec.fraction * FRAME_WIDTH * (canvas[0]! / Math.max(1, region[2]!)))} px wide there)`,
            );
        }
      }
    }
    const doorDecoder = await page.evaluate(() => (window as unknown as { corpus: { doorDecoder(): string | null } }).corpus.doorDecoder());
    console.log(`the door scanner decoded with: ${doorDecoder}`);
    await corpus.close();

    for (const p of paths) {
      const t = times.get(p.id)!.sort((a, b) => a - b);
      const rate = (100 * t.length) / specs.length;
      // a frame never read counts as the timeout: the percentiles are over the whole corpus
      const all = [...t, ...misses.get(p.id)!.map(() => TIMEOUT_MS)].sort((a, b) => a - b);
      const p95 = percentile(all, 95);
      console.log(`${p.label}: read ${t.length}/${specs.length}; missed: ${misses.get(p.id)!.join('; ') || 'none'}`);
      for (const line of seenOnMiss.get(p.id)!.slice(0, 4)) console.log(`  saw on a miss — ${line}`);
      // the targets are the shipped path's; the others are measured beside it for comparison (decision 017)
      const shipped = p.id === 'door';
      results.push(
        {
          name: `camera ${p.id}: decode rate`,
          value: round(rate),
          unit: '%',
          target: shipped ? `≥ ${RATE_TARGET} %` : 'comparison (not shipped)',
          pass: !shipped || rate >= RATE_TARGET,
        },
        { name: `camera ${p.id}: first decode p50`, value: round(percentile(all, 50)), unit: 'ms', target: 'report', pass: true },
        {
          name: `camera ${p.id}: first decode p95`,
          value: round(p95),
          unit: 'ms',
          target: shipped ? `< ${P95_TARGET_MS} ms` : 'comparison (not shipped)',
          pass: !shipped || p95 < P95_TARGET_MS,
        },
      );
    }
    if (native === 'absent')
      results.push({ name: 'camera native BarcodeDetector: absent in this browser', value: 0, unit: 'paths', target: 'report', pass: true });
    for (const kind of ['zxing-wasm', 'native'] as const) {
      const s = stills[kind];
      if (!s.ms.length) continue;
      const sorted = [...s.ms].sort((a, b) => a - b);
      results.push(
        {
          name: `still frames ${kind}: decode rate`,
          value: round((100 * s.ok) / specs.length),
          unit: '%',
          target: `≥ ${RATE_TARGET} %`,
          pass: (100 * s.ok) / specs.length >= RATE_TARGET,
        },
        { name: `still frames ${kind}: detect p50`, value: round(percentile(sorted, 50)), unit: 'ms', target: 'report', pass: true },
        {
          name: `still frames ${kind}: detect p95`,
          value: round(percentile(sorted, 95)),
          unit: 'ms',
          target: `< ${P95_TARGET_MS} ms`,
          pass: percentile(sorted, 95) < P95_TARGET_MS,
        },
      );
    }
  } finally {
    await browser.close();
    rmSync(outDir, { recursive: true, force: true });
  }
  return results;
}

runWhenMain(import.meta.url, run);
