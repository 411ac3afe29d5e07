/**
 * "Directions" to an event's venue (docs/decisions/051-link-previews-and-directions.md): an
 * OpenStreetMap link, and on phones (coarse pointer) a `geo:` link their maps app opens. Plain
 * links: no map tiles or scripts from elsewhere, so the content policy stays as it is.
 */
import { createMemo, Show, type JSX } from 'solid-js';
import { directionsFor, type VenuePlace } from '../../../shared/directions';
import { t } from '../../i18n/i18n';

export function DirectionsLinks(props: { place: VenuePlace }): JSX.Element {
  const links = createMemo(() => directionsFor(props.place));
  return (
    <Show when={links()}>
      {(l) => (
        <span class="v-directions">
          <a href={l().osm} target="_blank" rel="noopener noreferrer" data-directions="osm">
            {t('event.directions')}
          </a>
          <a href={l().geo} class="v-directions-geo" data-directions="geo">
            {t('event.directionsApp')}
          </a>
        </span>
      )}
    </Show>
  );
}
