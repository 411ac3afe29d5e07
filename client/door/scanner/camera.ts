/**
 * The camera scanner. html5-qrcode is the camera component: its camera layer asks for the
 * camera, shows the video and applies the torch. The decoding is ours, on whole frames at the
 * camera's own resolution, by the decoder in decoder.ts (the browser's BarcodeDetector, else
 * ZXing-C++ in WebAssembly). This module is imported only when the camera first opens, so it,
 * html5-qrcode and the decoder are chunks of their own — never in the app shell.
 *
 * Why not html5-qrcode's own scanning loop: it draws each frame onto a canvas the size the video
 * is *shown* at (about 330 px wide on a phone), measured once, at the video's first `playing`
 * event — a distant ticket shrinks below a readable size, a box that changes size after that
 * reads a cut-off part of each frame, and if that event is missed it never scans at all while
 * the camera looks open. Its JS decoder also takes hundreds of milliseconds a frame on a busy
 * phone. Here frames are counted as they arrive and a watchdog tells the volunteer what to do
 * (docs/decisions, camera decoder).
 */
import type { Decoder } from './decoder';

/** What the volunteer should be told: nothing, no code found for a while, or no frames at all. */
export type CameraHint = 'none' | 'no-code' | 'stalled';

export interface CameraScanner {
  /** Which decoder reads the frames. */
  kind: Decoder['kind'] | 'html5-qrcode';
  /** Whether the running camera has a torch the page may switch. */
  hasTorch(): boolean;
  setTorch(on: boolean): Promise<void>;
  stop(): Promise<void>;
}

export interface CameraOptions {
  /** 'environment' (back) or 'user' (front). */
  facingMode?: 'environment' | 'user';
  onCode(text: string): void;
  onHint?(hint: CameraHint): void;
}

/** The counters the watchdog works from, also on `window.svcCamera` for tests and support. */
export interface CameraStats {
  decoder: string;
  /** Video frames seen, decode attempts, frames with a code, decoder restarts, failed attempts. */
  frames: number;
  attempts: number;
  decodes: number;
  restarts: number;
  errors: number;
  /** The camera's frame size (what the decoder reads: the whole frame). */
  frameWidth: number;
  frameHeight: number;
  lastError: string | null;
}

/** No code read for this long while frames arrive: tell the volunteer, restart the decoder. */
export const NO_CODE_MS = 5_000;
/** No new frame for this long: the camera stalled. */
export const STALL_MS = 4_000;
/** At most this many decode attempts a second (one at a time: a slow phone simply does fewer). */
const MAX_ATTEMPTS_PER_S = 15;

const VIDEO_CONSTRAINTS = (facingMode: 'environment' | 'user'): MediaTrackConstraints => ({
  facingMode,
  width: { ideal: 1280 },
  height: { ideal: 720 },
});

type FrameVideo = HTMLVideoElement & { requestVideoFrameCallback?(cb: () => void): number };

/** Opens the camera in `container` and calls `onCode` with every decoded QR payload. */
export async function openCamera(container: HTMLElement, opts: CameraOptions): Promise<CameraScanner> {
  const facingMode = opts.facingMode ?? 'environment';
  const { loadDecoder } = await import('./decoder');
  let decoder: Decoder;
  try {
    decoder = await loadDecoder();
  } catch (err) {
    // no WebAssembly, or its module could not load: html5-qrcode's own decoder still reads codes
    console.warn('[svc] camera decoder', err);
    return startHtml5QrcodeScanning(container, facingMode, opts.onCode);
  }
  const { CameraFactory } = await import('html5-qrcode/esm/camera/factories');
  const camera = await (await CameraFactory.failIfNotSupported()).create(VIDEO_CONSTRAINTS(facingMode));
  container.replaceChildren();
  const rendered = await camera.render(container, {}, { onRenderSurfaceReady: () => {} });
  const video = rendered.getSurface() as FrameVideo;
  video.setAttribute('aria-hidden', 'true');
  // html5-qrcode fixes the video's width in px when it creates it; the box sizes it instead
  video.style.removeProperty('width');

  const stats: CameraStats = {
    decoder: decoder.kind,
    frames: 0,
    attempts: 0,
    decodes: 0,
    restarts: 0,
    errors: 0,
    frameWidth: 0,
    frameHeight: 0,
    lastError: null,
  };
  (window as unknown as { svcCamera?: CameraStats }).svcCamera = stats;

  let stopped = false;
  let busy = false;
  let lastFrameAt = performance.now();
  let lastTime = -1;
  let lastReadAt = performance.now();
  let lastAttemptAt = 0;
  let hint: CameraHint = 'none';
  const setHint = (next: CameraHint) => {
    if (next === hint) return;
    hint = next;
    opts.onHint?.(next);
  };

  const decode = async () => {
    busy = true;
    lastAttemptAt = performance.now();
    stats.attempts++;
    stats.frameWidth = video.videoWidth;
    stats.frameHeight = video.videoHeight;
    try {
      const codes = await decoder.detect(video);
      if (stopped) return;
      if (codes.length) {
        stats.decodes++;
        lastReadAt = performance.now();
        setHint('none');
        for (const code of codes) opts.onCode(code);
      }
    } catch (err) {
      // a frame the decoder could not take (e.g. not yet decodable); the next one may be
      stats.errors++;
      stats.lastError = String((err as Error)?.message ?? err).slice(0, 200);
    } finally {
      busy = false;
    }
  };

  // a new frame: counted, and read if the decoder is free and not over its rate
  const onFrame = () => {
    if (stopped) return;
    lastFrameAt = performance.now();
    stats.frames++;
    if (hint === 'stalled') setHint('none');
    if (!busy && video.readyState >= 2 && performance.now() - lastAttemptAt >= 1000 / MAX_ATTEMPTS_PER_S) void decode();
  };
  const watchFrames = () => {
    if (stopped) return;
    if (video.requestVideoFrameCallback) {
      video.requestVideoFrameCallback(() => {
        onFrame();
        watchFrames();
      });
    }
  };
  watchFrames();

  const tick = setInterval(() => {
    if (stopped) return;
    const now = performance.now();
    // without requestVideoFrameCallback: a frame is new when the video's clock moved
    if (!video.requestVideoFrameCallback && video.readyState >= 2 && video.currentTime !== lastTime) {
      lastTime = video.currentTime;
      onFrame();
    }
    if (now - lastFrameAt > STALL_MS) setHint('stalled');
    else if (now - lastReadAt > NO_CODE_MS) {
      setHint('no-code');
      void restartDecoder();
      lastReadAt = now; // the next restart (and hint check) is another 5 s away
    }
  }, 1000 / MAX_ATTEMPTS_PER_S);
  if (video.paused) void video.play().catch(() => {});

  // a fresh decoder instance: whatever state the old one was in (a wedged promise, a lost
  // WebAssembly instance) is dropped; the hint stays until a code is read
  const restartDecoder = async () => {
    stats.restarts++;
    try {
      decoder = await loadDecoder();
      busy = false;
    } catch (err) {
      stats.lastError = String((err as Error)?.message ?? err).slice(0, 200);
    }
  };

  const torch = () => {
    try {
      return rendered.getCapabilities().torchFeature();
    } catch {
      return null;
    }
  };

  return {
    kind: decoder.kind,
    hasTorch: () => torch()?.isSupported() ?? false,
    async setTorch(on) {
      await torch()?.apply(on);
    },
    async stop() {
      stopped = true;
      clearInterval(tick);
      const stream = video.srcObject as MediaStream | null;
      try {
        // html5-qrcode's close waits for a video track to stop: with none it would never answer
        if (stream?.getVideoTracks().length) await rendered.close();
      } finally {
        for (const track of stream?.getTracks() ?? []) track.stop();
        container.replaceChildren();
      }
    },
  };
}

/** The fallback when no decoder loads: html5-qrcode scanning with its own decoder. */
async function startHtml5QrcodeScanning(container: HTMLElement, facingMode: 'environment' | 'user', onCode: (text: string) => void): Promise<CameraScanner> {
  const { Html5Qrcode, Html5QrcodeSupportedFormats } = await import('html5-qrcode');
  if (!container.id) container.id = `camera-${Math.random().toString(36).slice(2)}`;
  const scanner = new Html5Qrcode(container.id, {
    verbose: false,
    formatsToSupport: [Html5QrcodeSupportedFormats.QR_CODE],
    useBarCodeDetectorIfSupported: true,
  });
  // html5-qrcode takes exactly one constraint key here; the resolution goes in videoConstraints
  await scanner.start(
    { facingMode },
    { fps: 12, videoConstraints: VIDEO_CONSTRAINTS(facingMode) },
    (text) => onCode(text),
    () => {},
  );
  return {
    kind: 'html5-qrcode',
    hasTorch: () => {
      try {
        return scanner.getRunningTrackCameraCapabilities().torchFeature().isSupported();
      } catch {
        return false;
      }
    },
    async setTorch(on) {
      await scanner.getRunningTrackCameraCapabilities().torchFeature().apply(on);
    },
    async stop() {
      try {
        await scanner.stop();
      } finally {
        scanner.clear();
      }
    },
  };
}
