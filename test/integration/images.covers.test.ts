import sharp from 'sharp';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../server/db/client';
import { createType } from '../helpers/booking';
import { apiClient, loginAs } from '../helpers/http';
import { createEvent } from '../helpers/registration';
import { useTestServer } from '../helpers/test-server';

// Cover images and the logo (docs/api.md#images, docs/decisions/049-cover-images.md).
const { server: srv, admin, db } = useTestServer({ env: { SVC_JOBS: 'off' } });

async function put(path: string, bytes: Uint8Array, type = 'image/jpeg', cookie = admin.cookie) {
  const res = await fetch(`${srv.url}/svc/v1${path}`, {
    method: 'PUT',
    headers: { cookie, origin: new URL(srv.url).origin, 'content-type': type },
    body: new Blob([new Uint8Array(bytes)]),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const picture = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3366aa' } });
const variantCount = async () => (await queryRows<{ n: number }>(db(), sql`select count(*)::int as n from svc_image_variants`))[0]!.n;

describe('cover images', () => {
  it('a JPEG with GPS EXIF becomes WebP variants 320/640/1280 wide without any EXIF, served same-origin with a year of immutable cache and an ETag that answers 304', async () => {
    const event = await createEvent(admin.api, { title: 'Harbour walk' });
    const jpeg = await picture(1600, 1000)
      .jpeg()
      .withExif({
        IFD0: { Make: 'SecretCam' },
        IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 3000/100', GPSLongitudeRef: 'E', GPSLongitude: '2/1 17/1 4000/100' },
      })
      .toBuffer();
    const exif = (await sharp(jpeg).metadata()).exif!;
    // the GPS IFD pointer (tag 0x8825, little-endian) is in the original
    expect(exif.includes(Buffer.from([0x25, 0x88]))).toBe(true);

    const stored = await put(`/events/${event.id}/image`, jpeg);
    expect(stored.status).toBe(200);
    const hash = /^\/media\/([0-9a-f]{32})-1280\.webp$/.exec(stored.body.url)?.[1];
    expect(hash).toBeDefined();
    expect(stored.body).toEqual({
      url: `/media/${hash}-1280.webp`,
      srcset: `/media/${hash}-320.webp 320w, /media/${hash}-640.webp 640w, /media/${hash}-1280.webp 1280w`,
      width: 1280,
      height: 800,
    });
    // the event answers it, to administrators and the public alike
    expect((await admin.api.get(`/events/${event.id}`)).body.image).toEqual(stored.body);
    expect((await apiClient(srv.url).get(`/events/${event.id}`)).body.image).toEqual(stored.body);

    for (const [width, height] of [
      [320, 200],
      [640, 400],
      [1280, 800],
    ] as const) {
      const served = await fetch(`${srv.url}/media/${hash}-${width}.webp`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toBe('image/webp');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('content-security-policy')).toContain("img-src 'self'");
      const bytes = Buffer.from(await served.arrayBuffer());
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', width, height]);
      expect(meta.exif).toBeUndefined();
      expect(bytes.includes(Buffer.from('SecretCam'))).toBe(false);
      const etag = served.headers.get('etag')!;
      expect(etag).toMatch(/^"[0-9a-f]{32}-\d+-webp"$/);
      const again = await fetch(`${srv.url}/media/${hash}-${width}.webp`, { headers: { 'if-none-match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
    // one JPEG at the largest width, for link previews that read no WebP
    const jpg = await fetch(`${srv.url}/media/${hash}-1280.jpg`);
    expect(jpg.headers.get('content-type')).toBe('image/jpeg');
    expect((await sharp(Buffer.from(await jpg.arrayBuffer())).metadata()).exif).toBeUndefined();
    expect((await fetch(`${srv.url}/media/${hash}-999.webp`)).status).toBe(404);
    expect((await fetch(`${srv.url}/media/not-a-hash.webp`)).status).toBe(404);
  });

  it('a text file sent as image/png is refused 415 naming the image, and the cover there was stays', async () => {
    const event = await createEvent(admin.api);
    const png = await picture(800, 600).png().toBuffer();
    const first = await put(`/events/${event.id}/image`, png, 'image/png');
    expect(first.status).toBe(200);
    const before = await variantCount();

    const refused = await put(`/events/${event.id}/image`, Buffer.from('just some text pretending to be a picture\n'), 'image/png');
    expect(refused.status).toBe(415);
    expect(refused.body.code).toBe('svc_unsupported_media_type');
    expect(refused.body.data.params).toHaveProperty('image');
    // JPEG magic bytes followed by garbage: sniffed as JPEG, unreadable by the decoder
    const forged = await put(`/events/${event.id}/image`, Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 7)]));
    expect(forged.status).toBe(415);
    // a real image declared as something else
    expect((await put(`/events/${event.id}/image`, png, 'application/octet-stream')).status).toBe(415);
    expect((await put(`/events/${event.id}/image`, new Uint8Array(0))).status).toBe(400);
    expect((await put(`/events/${event.id}/image`, await picture(10, 400).png().toBuffer(), 'image/png')).body.data.params.image).toMatch(/at least 16/);

    expect((await admin.api.get(`/events/${event.id}`)).body.image).toEqual(first.body);
    expect(await variantCount()).toBe(before);
  });

  it('an upload over 8 MB is refused 413 svc_payload_too_large and stores nothing', async () => {
    const event = await createEvent(admin.api);
    const before = await variantCount();
    const big = Buffer.alloc(8 * 1024 * 1024 + 1, 0);
    big.set([0xff, 0xd8, 0xff]);
    const refused = await put(`/events/${event.id}/image`, big);
    expect(refused.status).toBe(413);
    expect(refused.body.code).toBe('svc_payload_too_large');
    expect((await admin.api.get(`/events/${event.id}`)).body.image).toBeNull();
    expect(await variantCount()).toBe(before);
  });

  it('an image narrower than 320 pixels gets one variant at its own width; a replaced cover’s variants are removed, a shared one’s kept', async () => {
    const a = await createEvent(admin.api);
    const b = await createEvent(admin.api);
    const small = await picture(200, 100).webp().toBuffer();
    const one = await put(`/events/${a.id}/image`, small, 'image/webp');
    expect(one.body).toMatchObject({ width: 200, height: 100 });
    expect(one.body.srcset).toMatch(/^\/media\/[0-9a-f]{32}-200\.webp 200w$/);
    // the same picture on another event shares its variants
    expect((await put(`/events/${b.id}/image`, small, 'image/webp')).body).toEqual(one.body);

    const other = await put(`/events/${a.id}/image`, await picture(700, 700).jpeg().toBuffer());
    expect(other.body.srcset.split(', ').map((s: string) => s.split(' ')[1])).toEqual(['320w', '640w']);
    // b still names the small picture
    expect((await fetch(`${srv.url}${one.body.url}`)).status).toBe(200);
    expect((await admin.api.delete(`/events/${b.id}/image`)).status).toBe(204);
    expect((await fetch(`${srv.url}${one.body.url}`)).status).toBe(404);
    expect((await admin.api.get(`/events/${b.id}`)).body.image).toBeNull();
    // removing twice is fine
    expect((await admin.api.delete(`/events/${b.id}/image`)).status).toBe(204);
    expect((await fetch(`${srv.url}${other.body.url}`)).status).toBe(200);
  });

  it('booking types carry a cover, one and in the list; unknown ids answer 404', async () => {
    const type = await createType(admin.api, { title: 'Portrait session' });
    const stored = await put(`/booking-types/${type.id}/image`, await picture(900, 600).jpeg().toBuffer());
    expect(stored.status).toBe(200);
    expect(stored.body).toMatchObject({ width: 640, height: 427 });
    expect((await admin.api.get(`/booking-types/${type.id}`)).body.image).toEqual(stored.body);
    expect((await admin.api.get('/booking-types')).body.find((t: { id: number }) => t.id === type.id).image).toEqual(stored.body);
    expect((await admin.api.delete(`/booking-types/${type.id}/image`)).status).toBe(204);
    expect((await admin.api.get(`/booking-types/${type.id}`)).body.image).toBeNull();
    expect((await put('/booking-types/999999/image', await picture(100, 100).jpeg().toBuffer())).status).toBe(404);
    expect((await put('/events/999999/image', await picture(100, 100).jpeg().toBuffer())).status).toBe(404);
  });

  it('the organization logo is stored and removed through its own route, and the identity carries it at once', async () => {
    const logo = await put('/settings/organization/logo', await picture(400, 100).png().toBuffer(), 'image/png');
    expect(logo.status).toBe(200);
    expect(logo.body).toMatchObject({ width: 320, height: 80 });
    expect((await fetch(`${srv.url}${logo.body.url}`)).status).toBe(200);
    // the organization as Settings and every page read it (the identity is kept in memory: a new logo reaches it at once)
    expect((await admin.api.get('/settings/organization')).body.logo).toEqual(logo.body);
    expect((await admin.api.delete('/settings/organization/logo')).status).toBe(204);
    expect((await admin.api.get('/settings/organization')).body.logo).toBeNull();
    expect((await fetch(`${srv.url}${logo.body.url}`)).status).toBe(404);
  });

  it('only administrators may change images: anonymous callers 401, staff 403', async () => {
    const event = await createEvent(admin.api);
    const jpeg = await picture(100, 100).jpeg().toBuffer();
    const anonymous = await fetch(`${srv.url}/svc/v1/events/${event.id}/image`, { method: 'PUT', headers: { 'content-type': 'image/jpeg' }, body: jpeg });
    expect(anonymous.status).toBe(401);
    const email = `images-staff-${process.pid}@example.test`;
    expect((await admin.api.post('/users', { email, displayName: 'Sam Staff', role: 'staff', password: 'long enough password' })).status).toBe(201);
    const staff = await loginAs(srv.url, email, 'long enough password');
    expect((await put(`/events/${event.id}/image`, jpeg, 'image/jpeg', staff.cookie)).status).toBe(403);
    expect((await put('/settings/organization/logo', jpeg, 'image/jpeg', staff.cookie)).status).toBe(403);
    expect((await staff.api.delete(`/events/${event.id}/image`)).status).toBe(403);
    expect((await admin.api.get(`/events/${event.id}`)).body.image).toBeNull();
  });
});
