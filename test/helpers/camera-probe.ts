/**
 * What the camera decoder saw, measured from outside the app (so it works on any version of
 * it): every time a video frame is drawn onto a canvas the probe records the video's frame size,
 * the size the video element is shown at, the part of the frame drawn (the scan region) and the
 * canvas it was drawn onto; the app's own `window.svcCamera` figures are added when present.
 */
import type { BrowserContext, Page } from 'playwright-core';

export interface CameraProbe {
  /** drawImage calls that took a video frame (one per decode attempt). */
  draws: number;
  /** Milliseconds from the first such call to the last. */
  spanMs: number;
  /** The last one: the frame, the element, the region of the frame and the canvas it went onto. */
  last: { videoWidth: number; videoHeight: number; clientWidth: number; clientHeight: number; region: number[]; canvas: number[] } | null;
  /** The app's own counters, when it keeps them (client/door/scanner/camera.ts). */
  app: unknown;
  /** Console errors and warnings of the page. */
  errors: string[];
}

/** From the next navigation on, records every video frame drawn onto a canvas. */
export async function installCameraProbe(target: Page | BrowserContext): Promise<void> {
  await target.addInitScript(() => {
    const w = window as unknown as { svcProbe: { draws: number; first: number; lastAt: number; last: unknown } };
    w.svcProbe = { draws: 0, first: 0, lastAt: 0, last: null };
    const original = CanvasRenderingContext2D.prototype.drawImage;
    CanvasRenderingContext2D.prototype.drawImage = function (this: CanvasRenderingContext2D, ...args: unknown[]) {
      const source = args[0];
      if (source instanceof HTMLVideoElement) {
        const p = w.svcProbe;
        const now = performance.now();
        if (p.draws++ === 0) p.first = now;
        p.lastAt = now;
        p.last = {
          videoWidth: source.videoWidth,
          videoHeight: source.videoHeight,
          clientWidth: source.clientWidth,
          clientHeight: source.clientHeight,
          region: (args.length >= 9 ? args.slice(1, 5) : [0, 0, source.videoWidth, source.videoHeight]).map((v) => Math.round(Number(v))),
          canvas: [this.canvas.width, this.canvas.height],
        };
      }
      return (original as (...a: unknown[]) => void).apply(this, args);
    } as typeof original;
  });
}

/** Collects console errors and warnings of a page, for the probe's report. */
export function collectConsole(page: Page): string[] {
  const lines: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') lines.push(`${m.type()}: ${m.text()}`.slice(0, 300));
  });
  return lines;
}

export async function readCameraProbe(page: Page, errors: string[] = []): Promise<CameraProbe> {
  const seen = await page
    .evaluate(() => {
      const w = window as unknown as { svcProbe?: { draws: number; first: number; lastAt: number; last: CameraProbe['last'] }; svcCamera?: unknown };
      const p = w.svcProbe;
      return { draws: p?.draws ?? 0, spanMs: p ? Math.round(p.lastAt - p.first) : 0, last: p?.last ?? null, app: w.svcCamera ?? null };
    })
    .catch(() => ({ draws: 0, spanMs: 0, last: null, app: null }));
  return { ...seen, errors };
}

export function describeProbe(p: CameraProbe): string {
  const rate = p.spanMs > 0 ? ((p.draws - 1) / (p.spanMs / 1000)).toFixed(1) : '0';
  return `${p.draws} frames drawn (${rate}/s); last: ${JSON.stringify(p.last)}; app: ${JSON.stringify(p.app)}; errors: ${JSON.stringify(p.errors)}`;
}
