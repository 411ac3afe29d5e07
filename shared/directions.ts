/**
 * Directions to an event's venue (docs/decisions/051-link-previews-and-directions.md): an
 * OpenStreetMap link anyone can open, and a `geo:` URI a phone hands to its own maps app. The
 * coordinates win when the venue has them; else the address (or, without one, the venue's name)
 * is searched. No map tiles or scripts of anyone else's are loaded: these are plain links.
 */
export interface VenuePlace {
  venue: string;
  /** Optional: a copy of an event saved on a phone before these fields existed has none. */
  venueAddress?: string;
  venueLat?: number | null;
  venueLon?: number | null;
}

export interface Directions {
  /** https://www.openstreetmap.org/… (a marker on the point, or a search). */
  osm: string;
  /** geo:lat,lon (or geo:0,0?q=address), for phones. */
  geo: string;
}

/** The zoom a single building is shown at. */
const STREET_ZOOM = 17;

/** Six decimals are ~0.1 m: enough, and no float noise in the link. */
const coordinate = (n: number) => String(Number(n.toFixed(6)));

/** The links for a venue, or null when it names no place at all. */
export function directionsFor(place: VenuePlace): Directions | null {
  if (typeof place.venueLat === 'number' && typeof place.venueLon === 'number') {
    const lat = coordinate(place.venueLat);
    const lon = coordinate(place.venueLon);
    return {
      osm: `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=${STREET_ZOOM}/${lat}/${lon}`,
      geo: `geo:${lat},${lon}`,
    };
  }
  const query = (place.venueAddress || place.venue || '').trim();
  if (!query) return null;
  return {
    osm: `https://www.openstreetmap.org/search?query=${encodeURIComponent(query)}`,
    geo: `geo:0,0?q=${encodeURIComponent(query)}`,
  };
}
