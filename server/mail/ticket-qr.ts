/**
 * The ticket's QR code as a PNG for the confirmation mail: the `qrcode` package lays out the
 * modules, and this file writes them as a 1-bit greyscale PNG (one deflate of a few hundred
 * bytes). The package's own PNG path writes RGBA and tries every row filter, about 5 ms a
 * ticket, which a sign-up rush pays on every request; this is the same image in a fraction of
 * that and under 1 KB.
 */
import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';

/** Quiet zone around the code, in modules, and pixels per module: as the mails always had them. */
export const QR_MARGIN = 2;
export const QR_SCALE = 6;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** The QR's module grid for a ticket code, error correction M: the PNG here and the PDF ticket (server/pdf/ticket-pdf.ts) draw the same code. */
export function ticketQrModules(text: string): { size: number; get(row: number, col: number): number } {
  return QRCode.create(text, { errorCorrectionLevel: 'M' }).modules;
}

/** Black modules on white, error correction M, 2-module margin, 6 px a module. */
export function ticketQrPng(text: string): Buffer {
  const modules = ticketQrModules(text);
  const count = modules.size;
  const side = (count + 2 * QR_MARGIN) * QR_SCALE;
  const rowBytes = Math.ceil(side / 8);
  // Each scanline: filter byte 0, then 1 bit a pixel (1 = white), most significant bit first.
  // A module row is drawn once and copied to its QR_SCALE scanlines.
  const stride = rowBytes + 1;
  const raw = Buffer.alloc(stride * side, 0xff);
  for (let y = 0; y < side; y += QR_SCALE) {
    const my = y / QR_SCALE - QR_MARGIN;
    const row = y * stride;
    raw[row] = 0;
    if (my >= 0 && my < count) {
      for (let mx = 0; mx < count; mx++) {
        if (modules.get(my, mx) !== 1) continue;
        for (let x = (mx + QR_MARGIN) * QR_SCALE, end = x + QR_SCALE; x < end; x++) {
          const at = row + 1 + (x >> 3);
          raw[at] = raw[at]! & ~(0x80 >> (x & 7));
        }
      }
    }
    for (let k = 1; k < QR_SCALE; k++) raw.copy(raw, row + k * stride, row, row + stride);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  // compression, filter and interlace methods: 0
  return Buffer.concat([PNG_SIGNATURE, chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
