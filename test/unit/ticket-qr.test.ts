import { describe, expect, it } from 'vitest';
import QRCode from 'qrcode';
import { PNG } from 'pngjs';
import { ticketQrPng } from '../../server/mail/ticket-qr';

/** A PNG's pixels as one letter each: 'x' dark, '.' light. */
function pixels(png: Buffer): { width: number; height: number; cells: string } {
  const image = PNG.sync.read(png);
  let cells = '';
  for (let i = 0; i < image.data.length; i += 4) cells += image.data[i]! < 128 ? 'x' : '.';
  return { width: image.width, height: image.height, cells };
}

describe('ticket QR image', () => {
  it('is pixel for pixel the image the qrcode package draws (error correction M, margin 2, scale 6), as a valid 1-bit PNG', async () => {
    for (const code of ['tkt_4mQ9xVb2hLr7Z0sPeWc1Ny8TgKd3Fu6', 'a', 'x'.repeat(120)]) {
      const ours = ticketQrPng(code);
      const theirs = await QRCode.toBuffer(code, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 6 });
      expect(pixels(ours)).toEqual(pixels(theirs));
      expect(ours[24]).toBe(1); // IHDR bit depth
    }
  });

  it('is small enough to mail with every ticket', () => {
    expect(ticketQrPng('tkt_4mQ9xVb2hLr7Z0sPeWc1Ny8TgKd3Fu6').length).toBeLessThan(1024);
  });
});
