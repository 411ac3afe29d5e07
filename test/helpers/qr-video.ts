/**
 * A QR code as a video file for Chromium's fake camera (`--use-file-for-fake-video-capture`):
 * YUV4MPEG2, 4:2:0, a few identical frames (Chromium loops the file).
 */
import { writeFileSync } from 'node:fs';
import QRCode from 'qrcode';

export function writeQrY4m(file: string, text: string, opts: { width?: number; height?: number; frames?: number } = {}): void {
  const width = opts.width ?? 640;
  const height = opts.height ?? 480;
  const frames = opts.frames ?? 5;
  const { size, data } = QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
  const quiet = 4;
  const scale = Math.floor(Math.min(width, height) / (size + 2 * quiet) / 1.15);
  const side = (size + 2 * quiet) * scale;
  const left = Math.floor((width - side) / 2);
  const top = Math.floor((height - side) / 2);

  const luma = Buffer.alloc(width * height, 235); // white
  for (let y = 0; y < side; y++) {
    const my = Math.floor(y / scale) - quiet;
    for (let x = 0; x < side; x++) {
      const mx = Math.floor(x / scale) - quiet;
      const dark = mx >= 0 && my >= 0 && mx < size && my < size && data[my * size + mx] === 1;
      if (dark) luma[(top + y) * width + left + x] = 16;
    }
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2) * 2, 128); // U and V: no colour
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`, 'ascii');
  const frame = Buffer.concat([Buffer.from('FRAME\n', 'ascii'), luma, chroma]);
  writeFileSync(file, Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]));
}
