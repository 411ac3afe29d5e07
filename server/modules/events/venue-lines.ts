import { directionsFor, type VenuePlace } from '../../../shared/directions';
import type { translator } from '../../i18n/translate';

/**
 * A mail's "Where:" and "Directions:" lines for an event (docs/decisions/051-link-previews-and-directions.md):
 * the venue's name and address, then the OpenStreetMap link; nothing when the event names no place.
 */
export function venueMailLines(tr: ReturnType<typeof translator>, place: VenuePlace): string[] {
  const where = [place.venue, place.venueAddress].filter(Boolean).join(', ');
  const directions = directionsFor(place);
  return [...(where ? [tr('mail.where', { where })] : []), ...(directions ? [tr('mail.directions', { url: directions.osm })] : [])];
}
