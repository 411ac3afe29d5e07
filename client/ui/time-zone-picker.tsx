/**
 * A searchable time-zone choice (WAI-ARIA combobox with a listbox): the reader types a city, a
 * zone's name in their language, an IANA id or an offset (`+5:30`), moves with the arrow keys,
 * takes a zone with Enter or a tap, and Escape puts back the zone they had. Each option reads
 * "New York (Eastern Time)" with its UTC offset. The list is made when the field is first used
 * (labelling ~420 zones costs a few hundred milliseconds on a phone), in the reader's language.
 * Reusable: `value`, `onChange`, `label` (and an optional `hint`; `name` for a form read as FormData).
 */
import { createMemo, createSignal, createUniqueId, For, onMount, Show, type JSX } from 'solid-js';
import { intlLocale, t } from '../i18n/i18n';
import './time-zone-picker.css';
import { filterTimeZones, supportedTimeZones, timeZoneOption, timeZoneOptions, type TimeZoneOption } from './time-zones';

export interface TimeZonePickerProps {
  /** The chosen IANA id. */
  value: string;
  onChange(zone: string): void;
  label: string;
  hint?: string;
  id?: string;
  /** Focus the field when it appears (opened from a "Change" button). */
  autofocus?: boolean;
  /** In a form read as FormData: the chosen id is sent under this name. */
  name?: string;
  /** The form's own error marking: `aria-invalid` and the ids that describe the field. */
  invalid?: boolean;
  describedBy?: string;
}

/** Shown at most at once: the reader narrows by typing; the status line says how many match. */
const SHOWN = 60;

export function TimeZonePicker(props: TimeZonePickerProps): JSX.Element {
  const id = props.id ?? `tz-${createUniqueId()}`;
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const statusId = `${id}-status`;
  const [query, setQuery] = createSignal<string | null>(null);
  const [open, setOpen] = createSignal(false);
  const [active, setActive] = createSignal(0);
  let input: HTMLInputElement | undefined;

  // labelled in the reader's language, once per language (a language switch makes them again)
  const all = createMemo<TimeZoneOption[] | null>(
    (previous) => (open() || previous ? timeZoneOptions(supportedTimeZones([props.value]), intlLocale()) : null),
    null,
  );
  const current = createMemo(() => timeZoneOption(props.value, intlLocale(), Date.now()));
  const matches = createMemo(() => filterTimeZones(all() ?? [], query() ?? ''));
  const shown = () => matches().slice(0, SHOWN);
  const optionId = (i: number) => `${id}-opt-${i}`;

  const show = () => {
    if (open()) return;
    setOpen(true);
    const index = query() === null ? matches().findIndex((o) => o.id === props.value) : 0;
    setActive(Math.max(0, index));
    if (index >= SHOWN) setQuery(current().city);
  };
  const close = () => {
    setOpen(false);
    setQuery(null);
  };
  const choose = (option: TimeZoneOption | undefined) => {
    if (!option) return;
    close();
    if (option.id !== props.value) props.onChange(option.id);
  };
  const move = (delta: number) => {
    const count = shown().length;
    if (count === 0) return;
    const next = (active() + delta + count) % count;
    setActive(next);
    document.getElementById(optionId(next))?.scrollIntoView({ block: 'nearest' });
  };

  onMount(() => {
    if (props.autofocus) input?.focus();
  });

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open()) show();
      else move(event.key === 'ArrowDown' ? 1 : -1);
    } else if (event.key === 'Enter') {
      if (!open()) return;
      event.preventDefault();
      choose(shown()[active()]);
    } else if (event.key === 'Escape') {
      if (open()) event.preventDefault();
      close();
    }
  };

  return (
    <div class="tz-picker">
      <label for={id}>{props.label}</label>
      <input
        ref={input}
        id={id}
        type="text"
        role="combobox"
        autocomplete="off"
        spellcheck={false}
        aria-autocomplete="list"
        aria-expanded={open()}
        aria-controls={listId}
        aria-invalid={props.invalid ? 'true' : undefined}
        aria-describedby={[props.describedBy ?? '', props.hint ? hintId : '', open() ? statusId : ''].filter(Boolean).join(' ') || undefined}
        aria-activedescendant={open() && shown().length > 0 ? optionId(active()) : undefined}
        value={query() ?? `${current().label} · ${current().offset}`}
        onFocus={(e) => {
          if (query() === null) e.currentTarget.select();
        }}
        onClick={show}
        onInput={(e) => {
          setQuery(e.currentTarget.value);
          setActive(0);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onBlur={close}
      />
      <Show when={props.name}>{(name) => <input type="hidden" name={name()} value={props.value} />}</Show>
      <Show when={props.hint}>
        <p class="tz-hint" id={hintId}>
          {props.hint}
        </p>
      </Show>
      <Show when={open()}>
        <p class="tz-status" id={statusId} role="status">
          {matches().length === 0 ? t('tz.none') : t('tz.count', { count: matches().length })}
        </p>
      </Show>
      <ul class="tz-list" id={listId} role="listbox" aria-label={props.label} hidden={!open()}>
        <For each={open() ? shown() : []}>
          {(option, i) => (
            <li
              id={optionId(i())}
              role="option"
              aria-selected={i() === active()}
              classList={{ active: i() === active(), chosen: option.id === props.value }}
              // keep the focus in the field: the blur would close the list before the click lands
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(option)}
            >
              <span class="tz-label">{option.label}</span>{' '}
              <span class="tz-offset" dir="ltr">
                {option.offset}
              </span>
            </li>
          )}
        </For>
      </ul>
      <Show when={open() && matches().length > SHOWN}>
        <p class="tz-hint">{t('tz.more', { count: matches().length - SHOWN })}</p>
      </Show>
    </div>
  );
}
