import { createMemo, createRenderEffect, For, Show, type JSX } from 'solid-js';
import type { WebhookCatalogueDto } from '../../../shared/webhooks';
import { t } from '../../i18n/i18n';

/**
 * The catalogue's families, in the order the picker shows them; `ping` is left out (it always arrives).
 * `slug` names the inputs' ids (the same in every language); the words are read when drawn.
 */
const GROUPS = [
  {
    prefix: 'attendee.',
    slug: 'attendees',
    name: () => t('admin.picker.group.attendees'),
    all: () => t('admin.picker.all.attendees'),
    summary: () => t('admin.picker.summary.attendees'),
  },
  {
    prefix: 'booking.',
    slug: 'bookings',
    name: () => t('admin.picker.group.bookings'),
    all: () => t('admin.picker.all.bookings'),
    summary: () => t('admin.picker.summary.bookings'),
  },
  {
    prefix: 'order.',
    slug: 'orders',
    name: () => t('admin.picker.group.orders'),
    all: () => t('admin.picker.all.orders'),
    summary: () => t('admin.picker.summary.orders'),
  },
] as const;

export interface EventTypeGroup {
  slug: string;
  name: string;
  all: string;
  /** The whole family mid-sentence ("all attendee events"). */
  summary: string;
  entries: WebhookCatalogueDto;
}

/** The catalogue as the picker shows it: one group per family, each in catalogue order, named in the reader's language. */
export function groupEventTypes(catalogue: WebhookCatalogueDto): EventTypeGroup[] {
  return GROUPS.map((g) => ({
    slug: g.slug,
    name: g.name(),
    all: g.all(),
    summary: g.summary(),
    entries: catalogue.filter((e) => e.type.startsWith(g.prefix)),
  })).filter((g) => g.entries.length > 0);
}

/** "all attendee events, booking.created": a whole family by its name, the rest one by one. */
export function summarizeEventTypes(events: readonly string[], catalogue: WebhookCatalogueDto | undefined): string {
  if (!catalogue) return events.join(', ');
  const chosen = new Set(events);
  const parts: string[] = [];
  const covered = new Set<string>();
  for (const group of groupEventTypes(catalogue)) {
    if (group.entries.every((e) => chosen.has(e.type))) {
      parts.push(group.summary);
      for (const e of group.entries) covered.add(e.type);
    }
  }
  parts.push(...events.filter((e) => !covered.has(e)));
  return parts.join(', ');
}

/**
 * Which catalogue events an endpoint receives: a fieldset per family with a "whole family"
 * checkbox (mixed — `indeterminate`, which has no attribute — while only some are ticked) and one checkbox per event, named by its type and
 * described in words. Plain inputs, so keyboards and screen readers need nothing special.
 */
export function EventTypePicker(props: {
  id: string;
  legend: string;
  catalogue: WebhookCatalogueDto;
  value: readonly string[];
  onChange: (value: string[]) => void;
  hint?: string;
  error?: string | null;
}): JSX.Element {
  const groups = createMemo(() => groupEventTypes(props.catalogue));
  const chosen = () => new Set(props.value);
  const order = () => props.catalogue.map((e) => e.type);
  const emit = (next: Set<string>) => props.onChange(order().filter((t) => next.has(t)));

  const toggle = (type: string, on: boolean) => {
    const next = chosen();
    if (on) next.add(type);
    else next.delete(type);
    emit(next);
  };
  const toggleGroup = (group: EventTypeGroup, on: boolean) => {
    const next = chosen();
    for (const e of group.entries) {
      if (on) next.add(e.type);
      else next.delete(e.type);
    }
    emit(next);
  };
  const ticked = (group: EventTypeGroup) => group.entries.filter((e) => chosen().has(e.type)).length;
  const describedBy = () => [props.hint ? `${props.id}-hint` : '', props.error ? `${props.id}-error` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <fieldset class="field event-type-picker" id={props.id} aria-describedby={describedBy()} aria-invalid={props.error ? 'true' : undefined}>
      <legend>{props.legend}</legend>
      <Show when={props.hint}>
        <p id={`${props.id}-hint`} class="field-hint">
          {props.hint}
        </p>
      </Show>
      <Show when={props.error}>
        <p id={`${props.id}-error`} class="form-error">
          {props.error}
        </p>
      </Show>
      <For each={groups()}>
        {(group) => {
          const groupId = `${props.id}-${group.slug}`;
          return (
            <fieldset class="event-type-group">
              <legend>{group.name}</legend>
              <div class="field field-check event-type-all">
                <input
                  id={`${groupId}-all`}
                  type="checkbox"
                  ref={(input) => createRenderEffect(() => (input.indeterminate = ticked(group) > 0 && ticked(group) < group.entries.length))}
                  checked={ticked(group) === group.entries.length}
                  onChange={(e) => toggleGroup(group, e.currentTarget.checked)}
                />
                <label for={`${groupId}-all`}>{group.all}</label>
              </div>
              {/* role=list: Safari drops the list role of a list styled without bullets */}
              <ul class="check-list event-type-list" role="list">
                <For each={group.entries}>
                  {(entry) => {
                    const inputId = `${props.id}-${entry.type.replace(/[^a-z0-9]+/gi, '-')}`;
                    return (
                      <li>
                        <input
                          id={inputId}
                          type="checkbox"
                          value={entry.type}
                          checked={chosen().has(entry.type)}
                          aria-describedby={`${inputId}-what`}
                          onChange={(e) => toggle(entry.type, e.currentTarget.checked)}
                        />
                        <div>
                          <label for={inputId}>
                            <code>{entry.type}</code>
                          </label>
                          <p id={`${inputId}-what`} class="field-hint">
                            {entry.description}
                          </p>
                        </div>
                      </li>
                    );
                  }}
                </For>
              </ul>
            </fieldset>
          );
        }}
      </For>
    </fieldset>
  );
}
