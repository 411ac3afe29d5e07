// Regenerates the PWA icons and favicon in client/public/ (run: node client/scripts/make-icons.mjs).
// Plain zlib-encoded PNGs so no image tool or package is needed: a white check mark
// (check-in) on the brand blue, anti-aliased by distance to the shapes.
import { deflateSync } from 'node:zlib';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const BRAND = [0x0b, 0x5c, 0xad]; // keep in sync with theme_color in vite.config.ts
const MARK = [0xff, 0xff, 0xff];
const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
function encodePng(size, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    raw[y * (size * 4 + 1)] = 0; // filter: none
    rgba.copy(raw, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function distToSegment(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
// Signed distance to a rounded square covering the unit square (negative inside).
function roundedSquareDist(px, py, radius) {
  const qx = Math.abs(px - 0.5) - (0.5 - radius);
  const qy = Math.abs(py - 0.5) - (0.5 - radius);
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - radius;
}

/**
 * @param size pixel size
 * @param scale mark size relative to the "any" icon (maskable icons keep it in the safe zone)
 * @param cornerRadius 0 = full-bleed square (maskable, apple-touch), else rounded corners
 */
function drawIcon(size, { scale = 1, cornerRadius = 0.18 } = {}) {
  const check = [
    [0.28, 0.53],
    [0.43, 0.68],
    [0.73, 0.36],
  ].map(([x, y]) => [0.5 + (x - 0.5) * scale, 0.5 + (y - 0.5) * scale]);
  const halfStroke = 0.06 * scale;
  const rgba = Buffer.alloc(size * size * 4);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const px = (x + 0.5) / size;
      const py = (y + 0.5) / size;
      // coverage in [0,1] from a signed distance in pixels: a one-pixel ramp is the anti-aliasing
      const bg = cornerRadius > 0 ? Math.min(1, Math.max(0, 0.5 - roundedSquareDist(px, py, cornerRadius) * size)) : 1;
      const d = Math.min(distToSegment(px, py, check[0], check[1]), distToSegment(px, py, check[1], check[2]));
      const mark = Math.min(1, Math.max(0, 0.5 - (d - halfStroke) * size));
      const i = (y * size + x) * 4;
      for (let c = 0; c < 3; c++) rgba[i + c] = Math.round(BRAND[c] * (1 - mark) + MARK[c] * mark);
      rgba[i + 3] = Math.round(255 * bg);
    }
  }
  return encodePng(size, rgba);
}

// An ICO file may embed a PNG image directly (supported by every current browser).
function encodeIco(png, size) {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header[6] = size;
  header[7] = size;
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18); // image offset
  return Buffer.concat([header, png]);
}

const outputs = {
  'icons/icon-192.png': drawIcon(192),
  'icons/icon-512.png': drawIcon(512),
  // maskable: full bleed, mark inside the 80 % safe circle
  'icons/maskable-512.png': drawIcon(512, { scale: 0.72, cornerRadius: 0 }),
  'icons/apple-touch-icon-180.png': drawIcon(180, { scale: 0.85, cornerRadius: 0 }),
  'favicon.ico': encodeIco(drawIcon(32, { cornerRadius: 0.2 }), 32),
};
for (const [name, data] of Object.entries(outputs)) {
  const file = join(publicDir, name);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, data);
  console.log(`${name}: ${data.length} bytes`);
}
