import { directionsFor, type VenuePlace } from '../../../shared/directions';
import type { translator } from '../../i18n/translate';
import type { MailLink } from '../../mail/layout';

/**
 * A mail's "Where:" and "Directions:" lines for an event (docs/decisions/051-link-previews-and-directions.md):
 * the venue's name and address, then the OpenStreetMap link, named "Directions" in the HTML part
 * (its target is always OpenStreetMap, whatever the venue says); nothing when the event names no place.
 */
export function venueMail(tr: ReturnType<typeof translator>, place: VenuePlace): { lines: string[]; links: MailLink[] } {
  const where = [place.venue, place.venueAddress].filter(Boolean).join(', ');
  const directions = directionsFor(place);
  const line = directions ? tr('mail.directions', { url: directions.osm }) : null;
  return {
    lines: [...(where ? [tr('mail.where', { where })] : []), ...(line ? [line] : [])],
    links: line && directions ? [{ line, label: tr('mail.directionsLink'), url: directions.osm }] : [],
  };
}
