/**
 * Clips for Chromium's fake camera (`--use-file-for-fake-video-capture`), drawn in plain JS:
 * YUV4MPEG2 4:2:0, each frame different (fresh sensor noise), so the camera keeps delivering
 * new frames as a real one does. Chromium loops the file.
 */
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';
import { seededRandom } from '../bench/support';

export interface ClipOptions {
  width?: number;
  height?: number;
  frames?: number;
  /** Frames per second the fake camera plays at. */
  fps?: number;
}

/** Luma frames (one byte a pixel) as a Y4M file, without colour. */
export function writeLumaY4m(file: string, frames: Uint8Array[], width: number, height: number, fps = 15): void {
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`, 'ascii');
  const chroma = Buffer.alloc(Math.ceil(width / 2) * Math.ceil(height / 2) * 2, 128);
  const parts: Buffer[] = [header];
  for (const luma of frames) parts.push(Buffer.from('FRAME\n', 'ascii'), Buffer.from(luma.buffer, luma.byteOffset, luma.byteLength), chroma);
  writeFileSync(file, Buffer.concat(parts));
}

/** RGBA frames (e.g. a canvas's ImageData) as a Y4M file with colour (BT.601, full range). */
export function writeRgbaY4m(file: string, frames: Uint8ClampedArray[], width: number, height: number, fps = 15): void {
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F${fps}:1 Ip A1:1 C420jpeg\n`, 'ascii');
  const cw = width >> 1;
  const ch = height >> 1;
  const parts: Buffer[] = [header];
  for (const rgba of frames) {
    const y = Buffer.alloc(width * height);
    const u = Buffer.alloc(cw * ch);
    const v = Buffer.alloc(cw * ch);
    for (let i = 0, p = 0; i < width * height; i++, p += 4) y[i] = Math.round(0.299 * rgba[p]! + 0.587 * rgba[p + 1]! + 0.114 * rgba[p + 2]!);
    for (let cy = 0; cy < ch; cy++)
      for (let cx = 0; cx < cw; cx++) {
        const p = (cy * 2 * width + cx * 2) * 4;
        const r = rgba[p]!;
        const g = rgba[p + 1]!;
        const b = rgba[p + 2]!;
        u[cy * cw + cx] = Math.max(0, Math.min(255, Math.round(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)));
        v[cy * cw + cx] = Math.max(0, Math.min(255, Math.round(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)));
      }
    parts.push(Buffer.from('FRAME\n', 'ascii'), y, u, v);
  }
  writeFileSync(file, Buffer.concat(parts));
}

/**
 * A ticket's QR code (as the confirmation email encodes it: error correction M, 2-module margin)
 * the way a phone camera at a door sees it: `fraction` of the frame's width, turned by `angle`
 * degrees, on a grey background with a little sensor noise that differs in every frame.
 */
export function doorQrFrames(text: string, opts: ClipOptions & { fraction?: number; angle?: number; seed?: number } = {}): Uint8Array[] {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  const margin = 2;
  const modules = size + 2 * margin;
  const side = (opts.fraction ?? 0.35) * width;
  const angle = ((opts.angle ?? 8) * Math.PI) / 180;
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const random = seededRandom(opts.seed ?? 7);
  const cx = width / 2;
  const cy = height / 2;
  const base = new Uint8Array(width * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      // back into the code's own coordinates (module units), 2×2 supersampled
      let dark = 0;
      for (const [ox, oy] of [
        [0.25, 0.25],
        [0.75, 0.25],
        [0.25, 0.75],
        [0.75, 0.75],
      ] as const) {
        const dx = x + ox - cx;
        const dy = y + oy - cy;
        const u = ((cos * dx + sin * dy) / side + 0.5) * modules - margin;
        const v = ((-sin * dx + cos * dy) / side + 0.5) * modules - margin;
        const inCard = u >= -margin && v >= -margin && u < size + margin && v < size + margin;
        const mx = Math.floor(u);
        const my = Math.floor(v);
        if (mx >= 0 && my >= 0 && mx < size && my < size && data[my * size + mx] === 1) dark += 1;
        else if (!inCard) dark += 0.45; // the surroundings: a mid-grey room
      }
      base[y * width + x] = Math.round(225 - (dark / 4) * 190);
    }
  return Array.from({ length: opts.frames ?? 6 }, () => base.map((l) => Math.max(0, Math.min(255, l + Math.round((random() - 0.5) * 24)))));
}

/** The door clip: a ticket's QR code held up to the camera. */
export function writeDoorQrY4m(file: string, text: string, opts: ClipOptions & { fraction?: number; angle?: number } = {}): void {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  writeLumaY4m(file, doorQrFrames(text, { ...opts, width, height }), width, height, opts.fps);
}

/** A camera pointed at the room and no code: a noisy grey gradient. */
export function writeBlankY4m(file: string, opts: ClipOptions = {}): void {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  const random = seededRandom(11);
  const frames = Array.from({ length: opts.frames ?? 6 }, () => {
    const luma = new Uint8Array(width * height);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) luma[y * width + x] = Math.round(60 + (120 * (x + y)) / (width + height) + (random() - 0.5) * 24);
    return luma;
  });
  writeLumaY4m(file, frames, width, height, opts.fps);
}
