import { For, Show, type JSX } from 'solid-js';
import type { EventDto } from '../data';
import { formatUtcDateTime } from '../../ui/format';
import { t } from '../../i18n/i18n';

/**
 * Which events a staff user may work on: every event (null) or the ticked ones. A fieldset
 * of two radios and, for "only these", one checkbox per event (keyboard and screen-reader
 * friendly; no custom widget).
 */
export function EventPicker(props: {
  id: string;
  legend: string;
  /** undefined while the events load (or when they could not be loaded). */
  events: EventDto[] | undefined;
  value: number[] | null;
  onChange: (value: number[] | null) => void;
}): JSX.Element {
  const chosen = () => props.value ?? [];
  const toggle = (id: number, on: boolean) => {
    const next = on ? [...chosen().filter((x) => x !== id), id] : chosen().filter((x) => x !== id);
    props.onChange(next.sort((a, b) => a - b));
  };
  return (
    <fieldset class="field event-picker" id={props.id}>
      <legend>{props.legend}</legend>
      <div class="field-check">
        <input id={`${props.id}-all`} type="radio" name={`${props.id}-scope`} checked={props.value === null} onChange={() => props.onChange(null)} />
        <label for={`${props.id}-all`}>{t('admin.picker.allEvents')}</label>
      </div>
      <div class="field-check">
        <input id={`${props.id}-some`} type="radio" name={`${props.id}-scope`} checked={props.value !== null} onChange={() => props.onChange(chosen())} />
        <label for={`${props.id}-some`}>{t('admin.picker.onlyThese')}</label>
      </div>
      <Show when={props.value !== null}>
        <Show when={props.events} fallback={<p class="status-text">{t('admin.picker.loading')}</p>}>
          {(events) => (
            <Show when={events().length > 0} fallback={<p class="status-text">{t('admin.picker.noEvents')}</p>}>
              {/* role=list: Safari drops the list role of a list styled without bullets */}
              <ul class="event-picker-list" role="list">
                <For each={events()}>
                  {(event) => (
                    <li class="field-check">
                      <input
                        id={`${props.id}-e${event.id}`}
                        type="checkbox"
                        checked={chosen().includes(event.id)}
                        onChange={(e) => toggle(event.id, e.currentTarget.checked)}
                      />
                      <label for={`${props.id}-e${event.id}`}>
                        <bdi>{event.title}</bdi> <span class="muted">({formatUtcDateTime(event.startsUtc)})</span>
                      </label>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
          )}
        </Show>
        <Show when={chosen().length === 0}>
          <p class="field-hint">{t('admin.picker.noneTicked')}</p>
        </Show>
      </Show>
    </fieldset>
  );
}
