/**
 * Link previews, search and directions (docs/decisions/051-link-previews-and-directions.md): a
 * published event's or booking type's page, fetched as curl does, carries its own title,
 * description, Open Graph and Twitter tags, canonical link and (events) schema.org Event JSON-LD
 * that a schema.org validator accepts; drafts and unknown ids get the generic shell; hostile
 * titles stay inert; the venue's coordinates are range-checked and give the mails' Directions link.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { queryRows } from '../../server/db/client';
import { useTestServer } from '../helpers/test-server';
import { createEvent, signUp, uniqueEmail } from '../helpers/registration';
import { createType } from '../helpers/booking';
import { validateStructuredData } from '../helpers/structured-data';

const PUBLIC_URL = 'https://tickets.example.org';
const { server: srv, admin, db } = useTestServer({ client: true, env: { SVC_JOBS: 'off', SVC_PUBLIC_URL: PUBLIC_URL } });

/** The page as `curl` sees it: no cookie, no script, plain text. */
async function curl(path: string): Promise<string> {
  const res = await fetch(`${srv.url}${path}`, { headers: { 'accept-encoding': 'identity', 'user-agent': 'curl/8' } });
  expect(res.status).toBe(200);
  return res.text();
}

const meta = (html: string, key: string) => new RegExp(`<meta (?:property|name)="${key.replace(/[.:]/g, '\\$&')}" content="([^"]*)"`).exec(html)?.[1] ?? null;
const jsonLdBlocks = (html: string) => [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

describe('an event page’s preview', () => {
  it('curl of a published event shows its own og:title, an absolute og:image that exists, and JSON-LD a schema.org validator accepts as an Event', async () => {
    const event = await createEvent(admin.api, {
      title: 'Harbour concert',
      description: 'Strings and brass by the water.\nBring a blanket.',
      startsUtc: '2099-06-01 17:00:00',
      endsUtc: '2099-06-01 19:30:00',
      timezone: 'Europe/Berlin',
      venue: 'Old harbour stage',
      venueAddress: 'Hafenstraße 1, 20459 Hamburg',
      venueLat: 53.5436,
      venueLon: 9.9717,
      capacity: 40,
      priceCents: 1250,
      signupOpensUtc: '2099-05-01 08:00:00',
    });
    const html = await curl(`/events/${event.id}`);

    expect(html).toMatch(/<title>Harbour concert<\/title>/);
    expect(meta(html, 'description')).toBe('Strings and brass by the water. Bring a blanket.');
    expect(meta(html, 'og:title')).toBe('Harbour concert');
    expect(meta(html, 'og:type')).toBe('website');
    expect(meta(html, 'og:url')).toBe(`${PUBLIC_URL}/events/${event.id}`);
    expect(meta(html, 'og:locale')).toBe('en_US');
    expect(meta(html, 'og:site_name')).toBe('svc');
    expect(meta(html, 'twitter:card')).toBe('summary');
    expect(meta(html, 'twitter:title')).toBe('Harbour concert');
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/events/${event.id}" />`);
    const image = meta(html, 'og:image')!;
    expect(image.startsWith(`${PUBLIC_URL}/`)).toBe(true);
    expect(meta(html, 'twitter:image')).toBe(image);
    // the picture is one the server has: same path on this server answers a PNG
    const picture = await fetch(`${srv.url}${new URL(image).pathname}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/png');

    const blocks = jsonLdBlocks(html);
    expect(blocks).toHaveLength(1);
    const ld = JSON.parse(blocks[0]!);
    const { jsonld, issues } = await validateStructuredData(html);
    expect(issues).toEqual([]);
    expect(Object.keys(jsonld)).toEqual(['Event']);
    // Google's required (name, startDate, location) and recommended properties for an Event
    for (const property of ['name', 'startDate', 'location', 'offers', 'image', 'description', 'endDate', 'eventStatus', 'organizer']) {
      expect(ld, property).toHaveProperty(property);
    }
    expect(ld).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'Event',
      name: 'Harbour concert',
      // 17:00 UTC in Berlin's summer time
      startDate: '2099-06-01T19:00:00+02:00',
      endDate: '2099-06-01T21:30:00+02:00',
      eventStatus: 'https://schema.org/EventScheduled',
      eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
      image: [image],
      url: `${PUBLIC_URL}/events/${event.id}`,
      location: {
        '@type': 'Place',
        name: 'Old harbour stage',
        address: { '@type': 'PostalAddress', streetAddress: 'Hafenstraße 1, 20459 Hamburg' },
        geo: { '@type': 'GeoCoordinates', latitude: 53.5436, longitude: 9.9717 },
      },
      organizer: { '@type': 'Organization', name: 'svc', url: PUBLIC_URL },
      offers: {
        '@type': 'Offer',
        price: '12.50',
        priceCurrency: 'USD',
        availability: 'https://schema.org/PreOrder',
        url: `${PUBLIC_URL}/events/${event.id}`,
        validFrom: '2099-05-01T10:00:00+02:00',
      },
    });
  });

  it('an event without a venue is an online event at its page; seats all taken make it SoldOut; a free one costs 0', async () => {
    const event = await createEvent(admin.api, {
      title: 'Web talk',
      startsUtc: '2099-01-10 12:00:00',
      timezone: 'America/New_York',
      capacity: 1,
      waitlist: false,
    });
    const signed = await signUp(srv, event.id, { email: uniqueEmail('full') });
    expect(signed.status).toBe(201);
    const html = await curl(`/events/${event.id}`);
    const ld = JSON.parse(jsonLdBlocks(html)[0]!);
    expect((await validateStructuredData(html)).issues).toEqual([]);
    expect(ld.startDate).toBe('2099-01-10T07:00:00-05:00');
    expect(ld).not.toHaveProperty('endDate');
    expect(ld.eventAttendanceMode).toBe('https://schema.org/OnlineEventAttendanceMode');
    expect(ld.location).toEqual({ '@type': 'VirtualLocation', url: `${PUBLIC_URL}/events/${event.id}` });
    expect(ld.offers).toMatchObject({ price: '0.00', availability: 'https://schema.org/SoldOut' });
    // no description of its own: the time and place stand in
    expect(meta(html, 'og:description')).toMatch(/2099/);
  });

  it('an evil title and description stay inert: escaped in every tag, the JSON-LD cannot end its script, and both read back unchanged', async () => {
    const evil = `</script><script>alert(1)</script>"><img src=x onerror=alert(2)>&amp;'`;
    const event = await createEvent(admin.api, { title: evil, description: `<!-- ${evil}`, venue: '</script>' });
    const html = await curl(`/events/${event.id}`);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<!--');
    // the shell's own script, the organization's data block, the JSON-LD block and nothing else
    expect(html.match(/<script\b/g)).toHaveLength(3);
    expect(decode(meta(html, 'og:title')!)).toBe(evil);
    expect(decode(/<title>([^<]*)<\/title>/.exec(html)![1]!)).toBe(evil);
    const ld = JSON.parse(jsonLdBlocks(html)[0]!);
    expect(ld.name).toBe(evil);
    expect(ld.location.name).toBe('</script>');
  });

  it('a draft and an unknown id get the generic shell: no title, tag or JSON-LD of the event leaks', async () => {
    const draft = await createEvent(admin.api, { title: 'Secret launch party', status: 'draft' });
    const generic = await curl('/events');
    for (const path of [`/events/${draft.id}`, '/events/999999', '/events/0', '/events/99999999999']) {
      const html = await curl(path);
      expect(html, path).not.toContain('Secret launch party');
      expect(html, path).not.toContain('og:title');
      expect(html, path).not.toContain('application/ld+json');
      expect(html, path).toBe(generic);
    }
  });

  it('the page speaks the reader’s language: og:locale and the description’s fallback in German, with the same JSON-LD', async () => {
    const event = await createEvent(admin.api, { title: 'Sommerfest', startsUtc: '2099-07-04 16:00:00', timezone: 'Europe/Berlin', venue: 'Stadtpark' });
    const res = await fetch(`${srv.url}/events/${event.id}`, { headers: { 'accept-language': 'de' } });
    const html = await res.text();
    expect(html).toContain('<html lang="de" dir="ltr">');
    expect(meta(html, 'og:locale')).toBe('de_DE');
    expect(meta(html, 'og:description')).toMatch(/Stadtpark$/);
    expect(meta(html, 'og:description')).toMatch(/Juli|Sa\./);
  });
});

describe('a booking page’s preview', () => {
  it('a published booking type’s page carries its own title and tags; a draft’s the generic ones', async () => {
    const type = await createType(admin.api, { title: 'Bike fitting', description: 'One hour with a mechanic.' });
    const html = await curl(`/book/${type.id}`);
    expect(html).toMatch(/<title>Bike fitting<\/title>/);
    expect(meta(html, 'og:title')).toBe('Bike fitting');
    expect(meta(html, 'og:description')).toBe('One hour with a mechanic.');
    expect(meta(html, 'og:url')).toBe(`${PUBLIC_URL}/book/${type.id}`);
    expect(meta(html, 'og:image')!.startsWith(`${PUBLIC_URL}/`)).toBe(true);
    expect(html).toContain(`<link rel="canonical" href="${PUBLIC_URL}/book/${type.id}" />`);

    const draft = await createType(admin.api, { title: 'Hidden fitting', status: 'draft' });
    const hidden = await curl(`/book/${draft.id}`);
    expect(hidden).not.toContain('Hidden fitting');
    expect(hidden).not.toContain('og:title');
  });
});

describe('the venue’s place and directions', () => {
  it('refuses a latitude beyond ±90, a longitude beyond ±180 and half a point, naming the field, and stores nothing', async () => {
    const event = await createEvent(admin.api, { title: 'Range check' });
    for (const [patch, field] of [
      [{ venueLat: 90.5, venueLon: 0 }, 'venueLat'],
      [{ venueLat: 0, venueLon: -180.01 }, 'venueLon'],
      [{ venueLat: 10 }, 'venueLon'],
      [{ venueLon: 10 }, 'venueLat'],
      [{ venueAddress: 'x'.repeat(301) }, 'venueAddress'],
    ] as const) {
      const res = await admin.api.patch(`/events/${event.id}`, patch);
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(JSON.stringify(res.body), JSON.stringify(patch)).toContain(field);
    }
    const stored = await admin.api.get(`/events/${event.id}`);
    expect(stored.body).toMatchObject({ venueAddress: '', venueLat: null, venueLon: null });
    const saved = await admin.api.patch(`/events/${event.id}`, { venueLat: -33.8568, venueLon: 151.2153, venueAddress: 'Bennelong Point, Sydney' });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ venueLat: -33.8568, venueLon: 151.2153, venueAddress: 'Bennelong Point, Sydney' });
    // and clears both at once
    const cleared = await admin.api.patch(`/events/${event.id}`, { venueLat: null, venueLon: null });
    expect(cleared.body).toMatchObject({ venueLat: null, venueLon: null });
  });

  it('the confirmation mail carries the Directions link: OpenStreetMap at the coordinates, else a search for the address', async () => {
    const pinned = await createEvent(admin.api, { title: 'Pinned', venue: 'Town hall', venueAddress: 'Markt 1', venueLat: 48.1374, venueLon: 11.5755 });
    const searched = await createEvent(admin.api, { title: 'Searched', venue: 'Town hall', venueAddress: 'Markt 1, München' });
    const a = uniqueEmail('pinned');
    const b = uniqueEmail('searched');
    expect((await signUp(srv, pinned.id, { email: a })).status).toBe(201);
    expect((await signUp(srv, searched.id, { email: b })).status).toBe(201);
    const textTo = async (to: string) =>
      (await queryRows<{ text: string }>(db(), sql`select text from svc_outbox where to_address = ${to} order by id limit 1`))[0]!.text;
    const pinnedText = await textTo(a);
    expect(pinnedText).toContain('Where: Town hall, Markt 1');
    expect(pinnedText).toContain('Directions: https://www.openstreetmap.org/?mlat=48.1374&mlon=11.5755#map=17/48.1374/11.5755');
    expect(await textTo(b)).toContain('Directions: https://www.openstreetmap.org/search?query=Markt%201%2C%20M%C3%BCnchen');
  });
});

describe('a preview with a cover image and the organization’s name', () => {
  it('shows the cover as a large JPEG og:image the server serves, preloads the page’s own cover, and names the organization as the site and the organizer', async () => {
    const event = await createEvent(admin.api, { title: 'Lantern walk', startsUtc: '2099-07-01 19:00:00', timezone: 'Europe/Berlin' });
    const jpeg = await sharp({ create: { width: 1600, height: 900, channels: 3, background: '#aa6633' } })
      .jpeg()
      .toBuffer();
    const upload = await fetch(`${srv.url}/svc/v1/events/${event.id}/image`, {
      method: 'PUT',
      headers: { cookie: admin.cookie, origin: new URL(srv.url).origin, 'content-type': 'image/jpeg' },
      body: new Blob([new Uint8Array(jpeg)]),
    });
    expect(upload.status).toBe(200);
    const named = await admin.api.put('/settings/organization', { name: 'Stadtwerk Kultur' });
    expect(named.status).toBe(200);

    const html = await curl(`/events/${event.id}`);
    const image = meta(html, 'og:image')!;
    expect(image).toMatch(new RegExp(`^${PUBLIC_URL}/media/[0-9a-f]+-1280\\.jpg$`));
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    // the cover is the page's largest paint: the shell fetches it before the script that draws it
    expect(html).toMatch(
      /<link rel="preload" as="image" href="\/media\/[0-9a-f]+-1280\.webp" imagesrcset="[^"]+ 320w, [^"]+ 640w, [^"]+ 1280w" imagesizes="\(min-width: 48rem\) 48rem, 100vw" fetchpriority="high" \/>/,
    );
    const picture = await fetch(`${srv.url}${new URL(image).pathname}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get('content-type')).toBe('image/jpeg');
    expect(meta(html, 'og:site_name')).toBe('Stadtwerk Kultur');
    const ld = JSON.parse(jsonLdBlocks(html)[0]!);
    expect([ld.image].flat()).toEqual([image]);
    expect(ld.organizer.name).toBe('Stadtwerk Kultur');
    const { issues } = await validateStructuredData(html);
    expect(issues).toEqual([]);
  });
});
