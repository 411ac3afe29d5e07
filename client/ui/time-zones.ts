/**
 * The time-zone picker's logic, kept pure so it is tested without a page: every zone the
 * platform knows (`Intl.supportedValuesOf('timeZone')`) as a person reads it — its city, the
 * zone's generic name in the reader's language ("New York (Eastern Time)", German "New York
 * (Nordamerikanische Ostküstenzeit)") and its UTC offset now — and a filter over city, name, IANA
 * id and offset. See docs/decisions/027-languages.md (time zones).
 */
import { zoneCity } from '../../shared/time-format';

export interface TimeZoneOption {
  /** The IANA id (`America/New_York`): what is stored and sent. */
  id: string;
  /** `New York`; the id itself for a zone without a city (`UTC`). */
  city: string;
  /** The zone's generic name in the reader's language (`Eastern Time`), '' when Intl has none. */
  name: string;
  /** Minutes ahead of UTC at the moment the list was made. */
  offsetMinutes: number;
  /** `UTC−05:00`: the same in every language, so it also sorts and searches the same. */
  offset: string;
  /** `New York (Eastern Time)`. */
  label: string;
  /** Lower-case, accent-free words the filter looks in. */
  haystack: string;
}

/**
 * Cities whose zone id keeps an old spelling in some engines' canonical list (Chromium and Node
 * list `Asia/Calcutta`): shown and found by the name people use today, the id itself unchanged.
 */
const RENAMED_CITIES: Record<string, string> = {
  'Asia/Calcutta': 'Kolkata',
  'Asia/Saigon': 'Ho Chi Minh',
  'Asia/Katmandu': 'Kathmandu',
  'Asia/Rangoon': 'Yangon',
  'Europe/Kiev': 'Kyiv',
  'America/Godthab': 'Nuuk',
  'Atlantic/Faeroe': 'Faroe',
};

/** Every zone this browser knows, with `extra` (the detected or stored one, UTC) always included. */
export function supportedTimeZones(extra: readonly string[] = []): string[] {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return [...new Set([...zones, ...extra, 'UTC'])];
}

function part(format: Intl.DateTimeFormat, ms: number, type: Intl.DateTimeFormatPartTypes): string | undefined {
  return format.formatToParts(ms).find((p) => p.type === type)?.value;
}

/** How far `zone` is ahead of UTC at `ms`, in minutes (from its wall clock, which every engine has). */
export function zoneOffsetMinutes(zone: string, ms: number): number {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    hourCycle: 'h23',
  });
  const p = Object.fromEntries(format.formatToParts(ms).map((x) => [x.type, x.value]));
  const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute));
  return Math.round((wall - Math.floor(ms / 60_000) * 60_000) / 60_000);
}

/** `UTC+05:30`, `UTC−05:00`, `UTC±00:00` (a real minus sign, read the same way in every language). */
export function formatOffset(minutes: number): string {
  const sign = minutes > 0 ? '+' : minutes < 0 ? '−' : '±';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** Lower case without accents, `_` and `/` as spaces: "São_Paulo" and "sao paulo" meet. */
export function normalizeSearch(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[_/]/g, ' ').replace(/−/g, '-');
}

/** One zone as the reader reads it, at `ms`, in `locale`. */
export function timeZoneOption(id: string, locale: string, ms: number): TimeZoneOption {
  let name = '';
  let offsetMinutes = 0;
  try {
    name = part(new Intl.DateTimeFormat(locale, { timeZone: id, timeZoneName: 'longGeneric' }), ms, 'timeZoneName') ?? '';
    offsetMinutes = zoneOffsetMinutes(id, ms);
  } catch {
    // an id this engine cannot format still appears, by its id, at UTC's place
  }
  // a generic name that is only an offset ("GMT+03:00") says nothing the offset does not
  if (/^(GMT|UTC)([+\-−]|$)/.test(name)) name = '';
  const city = RENAMED_CITIES[id] ?? (zoneCity(id) || id);
  const offset = formatOffset(offsetMinutes);
  const label = name && name !== city ? `${city} (${name})` : city;
  const hours = `${offsetMinutes < 0 ? '-' : '+'}${Math.floor(Math.abs(offsetMinutes) / 60)}`;
  const haystack = normalizeSearch([city, name, id, offset, `utc${hours}`, `gmt${hours}`].join(' '));
  return { id, city, name, offsetMinutes, offset, label, haystack };
}

/** Every zone in `ids` labelled in `locale`, sorted by offset, then city in the reader's collation. */
export function timeZoneOptions(ids: readonly string[], locale: string, ms = Date.now()): TimeZoneOption[] {
  const collator = new Intl.Collator(locale);
  return ids.map((id) => timeZoneOption(id, locale, ms)).sort((a, b) => a.offsetMinutes - b.offsetMinutes || collator.compare(a.city, b.city));
}

/** `+5:30`, `utc-5`, `GMT+1`, `-05:00` as minutes, or null when the query is not an offset. */
export function parseOffsetQuery(query: string): number | null {
  const match = /^(?:utc|gmt)?\s*([+\-−])\s*(\d{1,2})(?::?(\d{2}))?$/i.exec(query.trim());
  if (!match) return null;
  const minutes = Number(match[2]) * 60 + Number(match[3] ?? 0);
  return match[1] === '+' ? minutes : -minutes;
}

/**
 * The options matching what the reader typed: every word must appear in the city, the generic
 * name, the id or the offset; an offset typed (`+5:30`, `UTC-5`) matches zones at that offset.
 * A city (or an id) that starts with the query comes first, then the others in their order.
 */
export function filterTimeZones(options: readonly TimeZoneOption[], query: string): TimeZoneOption[] {
  const q = normalizeSearch(query.trim());
  if (!q) return [...options];
  const offset = parseOffsetQuery(q);
  if (offset !== null) return options.filter((o) => o.offsetMinutes === offset);
  const words = q.split(/\s+/);
  const matches = options.filter((o) => words.every((w) => o.haystack.includes(w)));
  const starts = (o: TimeZoneOption) => normalizeSearch(o.city).startsWith(q) || normalizeSearch(o.id).startsWith(q);
  return [...matches.filter(starts), ...matches.filter((o) => !starts(o))];
}
