/**
 * Link previews and search (docs/decisions/051-link-previews-and-directions.md): the `<head>` of a
 * published event's or booking type's page, made on the server for crawlers and chat apps that
 * run no script: title, description, canonical link, Open Graph, Twitter card and, for an event,
 * schema.org `Event` JSON-LD. A draft, an unknown id and every other page get the generic shell.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Locale } from '../../shared/i18n/locales';
import { formatWhen } from '../../shared/time-format';
import { toUtcString, utcMs } from '../../shared/time';
import { formatOffset, zoneOffsetAt } from '../../shared/booking/tz';
import { directionsFor } from '../../shared/directions';
import type { EventSignupState } from '../../shared/events';
import { events } from '../modules/events/events.sql';
import { attendees } from '../modules/attendees/attendees.sql';
import { orders } from '../modules/orders/payments.sql';
import { bookingTypes } from '../modules/booking/booking.sql';
import { toEventDto, type EventLiveFacts } from '../modules/events/events.service';
import type { EventRow } from '../modules/events/events.repository';
import { settingsService } from '../modules/settings/settings.service';
import { escapeHtml, scriptSafeJson } from '../../shared/html';
import { readOrganization } from '../modules/settings/organization.service';
import { displayName } from '../../shared/organization';
import { COVER_SIZES, imageDto, mediaPath, type StoredImage } from '../../shared/images';

/** What the shell gets for one page: its `<title>` text and the tags that go before `</head>`. */
export interface PageHead {
  title: string;
  description: string;
  tags: string;
}

/** The app icon every preview shows until a page has a picture of its own: an existing same-origin PNG. */
const APP_ICON_PATH = '/icons/icon-512.png';

/**
 * The absolute URL of the picture a page's preview shows (og:image, twitter:image, JSON-LD image):
 * the page's cover as JPEG (every platform reads it; WebP not everywhere), else the app's icon.
 */
export function previewImageUrl(publicUrl: string, cover: StoredImage | null | undefined): string {
  if (!cover || cover.widths.length === 0) return `${publicUrl}${APP_ICON_PATH}`;
  return `${publicUrl}${mediaPath(cover.hash, cover.widths[cover.widths.length - 1]!, 'jpg')}`;
}

/** The longest description a preview carries: the platforms cut around here anyway. */
const DESCRIPTION_MAX = 200;

/** Open Graph wants language_TERRITORY. */
const OG_LOCALES: Record<Locale, string> = {
  en: 'en_US',
  de: 'de_DE',
  fr: 'fr_FR',
  es: 'es_ES',
  it: 'it_IT',
  nl: 'nl_NL',
  'pt-BR': 'pt_BR',
  ar: 'ar_AR',
};

const EVENT_PAGE = /^\/events\/(\d{1,10})\/?$/;
const BOOKING_PAGE = /^\/book\/(\d{1,10})\/?$/;
const MAX_ID = 2_147_483_647;

/** `2026-12-01T19:00:00+01:00`: the instant on the event's own clock, with that clock's offset. */
export function zonedIso(utc: string, zone: string): string {
  const ms = utcMs(utc);
  const offset = zoneOffsetAt(zone, ms);
  return `${new Date(ms + offset).toISOString().slice(0, 19)}${formatOffset(offset)}`;
}

/** The description a preview shows: the text's start on one line, cut at a word, or `fallback` when there is none. */
function shortDescription(text: string, fallback: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return fallback;
  if (flat.length <= DESCRIPTION_MAX) return flat;
  const cut = flat.slice(0, DESCRIPTION_MAX - 1);
  const atWord = cut.lastIndexOf(' ');
  return `${(atWord > DESCRIPTION_MAX / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

/** Minor units of a currency (JPY 0, EUR 2, KWD 3) as Intl knows them. */
function fractionDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

/** Integer minor units as the decimal schema.org's `price` wants: 1250 EUR cents → "12.50". */
export function decimalPrice(cents: number, currency: string): string {
  const digits = fractionDigits(currency);
  return (cents / 10 ** digits).toFixed(digits);
}

/** What sign-up's state says to a search engine about tickets. */
const AVAILABILITY: Record<EventSignupState, string> = {
  open: 'https://schema.org/InStock',
  not_yet_open: 'https://schema.org/PreOrder',
  full_waitlist: 'https://schema.org/SoldOut',
  full: 'https://schema.org/SoldOut',
  closed: 'https://schema.org/SoldOut',
};

/** The meta tags both kinds of page carry. */
function previewTags(p: {
  title: string;
  description: string;
  url: string;
  image: string;
  large: boolean;
  type: string;
  locale: Locale;
  siteName: string;
}): string {
  const tag = (attr: 'property' | 'name', key: string, content: string) => `<meta ${attr}="${key}" content="${escapeHtml(content)}" />`;
  return [
    `<link rel="canonical" href="${escapeHtml(p.url)}" />`,
    tag('property', 'og:type', p.type),
    tag('property', 'og:title', p.title),
    tag('property', 'og:description', p.description),
    tag('property', 'og:url', p.url),
    tag('property', 'og:image', p.image),
    tag('property', 'og:locale', OG_LOCALES[p.locale]),
    tag('property', 'og:site_name', p.siteName),
    tag('name', 'twitter:card', p.large ? 'summary_large_image' : 'summary'),
    tag('name', 'twitter:title', p.title),
    tag('name', 'twitter:description', p.description),
    tag('name', 'twitter:image', p.image),
  ].join('\n    ');
}

/** The schema.org Event for a published event (Google's required and recommended properties). */
export function eventJsonLd(
  row: EventRow,
  live: EventLiveFacts,
  page: { url: string; image: string; description: string; publicUrl: string; siteName: string },
) {
  const dto = toEventDto(row, live);
  const directions = directionsFor(row);
  const hasPlace = Boolean(row.venue || row.venueAddress || row.venueLat !== null);
  const location = hasPlace
    ? {
        '@type': 'Place',
        name: row.venue || row.venueAddress,
        ...(row.venueAddress ? { address: { '@type': 'PostalAddress', streetAddress: row.venueAddress } } : { address: row.venue }),
        ...(row.venueLat !== null && row.venueLon !== null ? { geo: { '@type': 'GeoCoordinates', latitude: row.venueLat, longitude: row.venueLon } } : {}),
        ...(directions ? { hasMap: directions.osm } : {}),
      }
    : { '@type': 'VirtualLocation', url: page.url };
  return {
    '@context': 'https://schema.org',
    '@type': 'Event',
    name: row.title,
    description: page.description,
    url: page.url,
    image: [page.image],
    startDate: zonedIso(row.startsUtc, row.timezone),
    ...(row.endsUtc ? { endDate: zonedIso(row.endsUtc, row.timezone) } : {}),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: hasPlace ? 'https://schema.org/OfflineEventAttendanceMode' : 'https://schema.org/OnlineEventAttendanceMode',
    location,
    organizer: { '@type': 'Organization', name: page.siteName, url: page.publicUrl },
    offers: {
      '@type': 'Offer',
      url: page.url,
      price: decimalPrice(row.priceCents, live.currency),
      priceCurrency: live.currency,
      availability: AVAILABILITY[dto.signupState],
      validFrom: zonedIso(row.signupOpensUtc ?? row.createdUtc, row.timezone),
    },
  };
}

/**
 * The head of one page, or null for the generic shell. An event costs one query by primary key
 * (the row with its seats taken) beside the currency setting; a booking type one by primary key.
 */
export function pageHead(ctx: Pick<AppContext, 'db' | 'hooks' | 'env' | 'logger'>) {
  const { publicUrl } = ctx.env;
  return async (urlPath: string, locale: Locale): Promise<PageHead | null> => {
    const eventId = idOf(EVENT_PAGE, urlPath);
    const typeId = eventId === null ? idOf(BOOKING_PAGE, urlPath) : null;
    if (eventId === null && typeId === null) return null;
    try {
      return eventId !== null ? await eventHead(eventId, locale) : await bookingHead(typeId!, locale);
    } catch (err) {
      // the page still opens with the generic head; its scripts read the data themselves
      ctx.logger.warn({ err, urlPath }, 'page preview not read; the generic shell is served');
      return null;
    }
  };

  async function eventHead(id: number, locale: Locale): Promise<PageHead | null> {
    const [found, currency, organization] = await Promise.all([
      ctx.db
        .select({
          row: events,
          // the sign-up's seat rule (events.repository.ts seatsTaken), in the same query
          seatsTaken: sql<number>`(select coalesce(sum(a.quantity), 0) from ${attendees} a
                where a.event_id = ${events}.id and a.status in ('going', ''))::int
            + (select coalesce(sum(o.quantity), 0) from ${orders} o
                where o.event_id = ${events}.id and o.status = 'pending_payment')::int`.mapWith(Number),
        })
        .from(events)
        .where(and(eq(events.id, id), eq(events.status, 'published'))),
      settingsService(ctx).currency(),
      readOrganization(ctx.db),
    ]);
    const hit = found[0];
    if (!hit) return null;
    const { row, seatsTaken } = hit;
    const url = `${publicUrl}/events/${row.id}`;
    const image = previewImageUrl(publicUrl, row.coverImage);
    const siteName = displayName(organization);
    const when = formatWhen({ startUtc: row.startsUtc, endUtc: row.endsUtc, zone: row.timezone, locale }).place;
    const description = shortDescription(row.description, [when, row.venue].filter(Boolean).join(' · '));
    const live = { seatsTaken, currency, nowUtc: toUtcString(Date.now()) };
    const jsonLd = eventJsonLd(row, live, { url, image, description, publicUrl, siteName });
    const tags = [
      previewTags({ title: row.title, description, url, image, large: row.coverImage !== null, type: 'website', locale, siteName }),
      `<script type="application/ld+json">${scriptSafeJson(jsonLd)}</script>`,
      coverPreload(row.coverImage, COVER_SIZES.page),
    ];
    return { title: row.title, description, tags: tags.join('\n    ') };
  }

  async function bookingHead(id: number, locale: Locale): Promise<PageHead | null> {
    const [[row], organization] = await Promise.all([
      ctx.db
        .select({ id: bookingTypes.id, title: bookingTypes.title, description: bookingTypes.description, coverImage: bookingTypes.coverImage })
        .from(bookingTypes)
        .where(and(eq(bookingTypes.id, id), eq(bookingTypes.status, 'published'))),
      readOrganization(ctx.db),
    ]);
    if (!row) return null;
    const url = `${publicUrl}/book/${row.id}`;
    const image = previewImageUrl(publicUrl, row.coverImage);
    const description = shortDescription(row.description, row.title);
    const tags = previewTags({
      title: row.title,
      description,
      url,
      image,
      large: row.coverImage !== null,
      type: 'website',
      locale,
      siteName: displayName(organization),
    });
    return { title: row.title, description, tags: [tags, coverPreload(row.coverImage, COVER_SIZES.half)].join('\n    ') };
  }
}

/**
 * The page's cover fetched with the shell, before the script that draws it: it is the page's
 * largest paint. The same variants and sizes as the page's `<img>` (client/visitor/components/cover-image.tsx).
 */
function coverPreload(cover: StoredImage | null, sizes: string): string {
  const image = imageDto(cover);
  if (!image) return '';
  return `<link rel="preload" as="image" href="${escapeHtml(image.url)}" imagesrcset="${escapeHtml(image.srcset)}" imagesizes="${escapeHtml(sizes)}" fetchpriority="high" />`;
}

function idOf(pattern: RegExp, urlPath: string): number | null {
  const id = pattern.exec(urlPath)?.[1];
  return id && Number(id) >= 1 && Number(id) <= MAX_ID ? Number(id) : null;
}
