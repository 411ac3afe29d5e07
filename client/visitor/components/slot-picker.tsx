/**
 * The time zone as one changeable line, a month calendar with the days that have free times
 * marked, and the day's free times as big buttons in the visitor's zone (Cal.com / Calendly
 * style). Slots are cached per type, zone and month in `svc-visitor` and marked with their age
 * when shown from the cache. A "just taken" notice sits beside the times, focused and in view.
 */
import { createEffect, createMemo, createSignal, For, on, Show, type JSX } from 'solid-js';
import { fetchMonthSlots, slotsCacheKey, takeAheadSlots, type Slot } from '../booking';
import { createCachedResource } from '../cache';
import { addMonths, dayInWords, dayInZone, monthGrid, monthInWords, slotClock, weekdayNames, zoneInWords } from '../time';
import { utcMs } from '../../../shared/time';
import { t, tx } from '../../i18n/i18n';
import { TimeZonePicker } from '../../ui/time-zone-picker';
import { createLater } from '../../ui/later';
import { AgeNote, ErrorState } from './states';

export interface SlotPickerHandle {
  refresh(): Promise<void>;
}

export interface SlotPickerProps {
  typeId: number;
  tz: string;
  onTzChange(tz: string): void;
  selected: string | null;
  onSelect(slot: Slot | null): void;
  /** Seats the visitor needs; slots with fewer left are not offered. */
  quantity: number;
  /** A start to leave out (the booking's own time when rescheduling). */
  exclude?: string;
  ref?: (handle: SlotPickerHandle) => void;
  idPrefix: string;
  /** Seats one booking of the type can take: "N seats left" is only shown when it is more than one
   * (on a one-to-one type the count is the number of free hosts, which is not the visitor's business). */
  seatsPerSlot?: number;
  /** Shown beside the times, focused and scrolled into view when it appears ("just taken"). */
  notice?: string | null;
  /** Called once the first month's times are drawn, or their fetch failed: the picker has its height. */
  onSettled?: () => void;
}

export function SlotPicker(props: SlotPickerProps): JSX.Element {
  const startMonth = () => {
    const day = props.selected ? dayInZone(utcMs(props.selected), props.tz) : dayInZone(Date.now(), props.tz);
    return { year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)) };
  };
  const [month, setMonth] = createSignal(startMonth());
  const [day, setDay] = createSignal<string | null>(props.selected ? dayInZone(utcMs(props.selected), props.tz) : null);
  const [choosingZone, setChoosingZone] = createSignal(false);
  let noticeEl: HTMLParagraphElement | undefined;
  createEffect(
    on(
      () => props.notice,
      (notice) => {
        if (!notice) return;
        // after the fresh times render, so the notice and the list beside it are what is in view
        requestAnimationFrame(() => {
          noticeEl?.scrollIntoView({ block: 'center' });
          noticeEl?.focus({ preventScroll: true });
        });
      },
    ),
  );
  const thisMonth = () => {
    const today = dayInZone(Date.now(), props.tz);
    return { year: Number(today.slice(0, 4)), month: Number(today.slice(5, 7)) };
  };

  const resource = createCachedResource(
    () => slotsCacheKey(props.typeId, props.tz, month().year, month().month),
    (key) => takeAheadSlots(key) ?? fetchMonthSlots(props.typeId, props.tz, month().year, month().month),
  );
  props.ref?.({ refresh: () => resource.refresh() });

  const byDay = createMemo(() => {
    const map = new Map<string, Slot[]>();
    const prefix = `${month().year}-${String(month().month).padStart(2, '0')}-`;
    const now = Date.now();
    for (const slot of resource.value() ?? []) {
      if (slot.capacity_left < props.quantity || slot.start_utc === props.exclude) continue;
      if (utcMs(slot.start_utc) <= now) continue; // a stored copy may hold times already past
      const key = dayInZone(utcMs(slot.start_utc), props.tz);
      if (!key.startsWith(prefix)) continue;
      const list = map.get(key) ?? [];
      list.push(slot);
      map.set(key, list);
    }
    return map;
  });

  // Keep a day with free times chosen: the selected slot's, else the first one of the month.
  createEffect(
    on([byDay, () => resource.loading()], ([map]) => {
      const current = day();
      if (current && map.has(current)) return;
      if (resource.loading() && resource.value() === undefined) return;
      const first = [...map.keys()].sort()[0] ?? null;
      setDay(first);
    }),
  );

  // A new zone moves the calendar to the selected time's (or today's) month and day in that zone.
  createEffect(
    on(
      () => props.tz,
      () => {
        setMonth(startMonth());
        setDay(props.selected ? dayInZone(utcMs(props.selected), props.tz) : null);
      },
      { defer: true },
    ),
  );

  const daySlots = () => (day() ? (byDay().get(day()!) ?? []) : []);
  // the day's times are drawn in the task after the month (docs/decisions/019-fast-first-paint.md)
  const timesDrawn = createLater(() => resource.value() !== undefined);
  let settled = false;
  createEffect(() => {
    if (settled || (!timesDrawn() && (resource.loading() || resource.value() !== undefined))) return;
    settled = true;
    props.onSettled?.();
  });
  const atFirstMonth = () => month().year * 12 + month().month <= thisMonth().year * 12 + thisMonth().month;
  // functions, so a language switch renames them
  const weekdays = () => weekdayNames('short');
  const weekdaysLong = () => weekdayNames('long');

  const go = (delta: number) => {
    setMonth(addMonths(month().year, month().month, delta));
    setDay(null);
  };

  return (
    <div class="v-stack">
      <div class="v-tz">
        <p class="v-tz-line" id={`${props.idPrefix}-tz-line`}>
          {tx('slots.timesIn', { zone: zoneInWords(props.tz), b: (chunks) => <strong>{chunks}</strong> })}
          {' · '}
          <button
            type="button"
            class="v-link-button"
            id={`${props.idPrefix}-tz-change`}
            aria-expanded={choosingZone()}
            aria-controls={`${props.idPrefix}-tz-choice`}
            onClick={() => setChoosingZone(!choosingZone())}
          >
            {tx('slots.changeZone', { sr: (chunks) => <span class="v-sr-only">{chunks}</span> })}
          </button>
        </p>
        <Show when={choosingZone()}>
          <div class="v-tz-choice" id={`${props.idPrefix}-tz-choice`}>
            <TimeZonePicker
              id={`${props.idPrefix}-tz`}
              label={t('slots.yourZone')}
              hint={t('slots.detected')}
              value={props.tz}
              autofocus
              onChange={(zone) => {
                props.onTzChange(zone);
                setChoosingZone(false);
                document.getElementById(`${props.idPrefix}-tz-change`)?.focus();
              }}
            />
          </div>
        </Show>
      </div>

      <AgeNote resource={resource} what="times" />

      <div class="v-picker-body">
        <section class="v-cal" aria-labelledby={`${props.idPrefix}-month`}>
          <div class="v-cal-head">
            <button type="button" class="button button-quiet v-cal-nav" onClick={() => go(-1)} disabled={atFirstMonth()} aria-label={t('slots.previousMonth')}>
              {/* a bidi-mirrored glyph: it points the other way, and the buttons swap sides, in a right-to-left page */}
              <span aria-hidden="true">‹</span>
            </button>
            <h3 id={`${props.idPrefix}-month`} aria-live="polite">
              {monthInWords(month().year, month().month)}
            </h3>
            <button type="button" class="button button-quiet v-cal-nav" onClick={() => go(1)} aria-label={t('slots.nextMonth')}>
              <span aria-hidden="true">›</span>
            </button>
          </div>
          <table>
            <thead>
              <tr>
                <For each={weekdays()}>
                  {(name, i) => (
                    <th scope="col">
                      <abbr title={weekdaysLong()[i()]}>{name}</abbr>
                    </th>
                  )}
                </For>
              </tr>
            </thead>
            <tbody>
              <For each={monthGrid(month().year, month().month)}>
                {(week) => (
                  <tr>
                    <For each={week}>
                      {(cell) => (
                        <td>
                          <Show when={cell}>
                            {(d) => {
                              const count = () => byDay().get(d())?.length ?? 0;
                              return (
                                <button
                                  type="button"
                                  class="v-day"
                                  data-day={d()}
                                  classList={{ 'has-slots': count() > 0 }}
                                  disabled={count() === 0}
                                  aria-pressed={day() === d()}
                                  aria-label={t('slots.dayLabel', { day: dayInWords(d()), count: count() })}
                                  onClick={() => setDay(d())}
                                >
                                  {Number(d().slice(8))}
                                </button>
                              );
                            }}
                          </Show>
                        </td>
                      )}
                    </For>
                  </tr>
                )}
              </For>
            </tbody>
          </table>
        </section>

        <div class="v-slot-area">
          <Show when={props.notice}>
            <p class="notice notice-error v-taken" role="alert" tabindex="-1" ref={noticeEl}>
              {props.notice}
            </p>
          </Show>
          <Show when={resource.error() && resource.value() === undefined}>
            <ErrorState message={resource.error()!} onRetry={() => void resource.refresh()} />
          </Show>
          <Show when={resource.loading() && resource.value() === undefined}>
            <p class="status-text" role="status">
              {t('slots.loading')}
            </p>
          </Show>
          <Show when={resource.value() !== undefined && byDay().size === 0}>
            <p class="status-text" role="status">
              {t('slots.noneInMonth', { month: monthInWords(month().year, month().month) })}
            </p>
          </Show>

          <Show when={timesDrawn() && day() && daySlots().length > 0}>
            <section aria-labelledby={`${props.idPrefix}-day`}>
              <h3 id={`${props.idPrefix}-day`}>{t('slots.freeOn', { day: dayInWords(day()!) })}</h3>
              <ul class="v-slots">
                <For each={daySlots()}>
                  {(slot) => (
                    <li>
                      <button
                        type="button"
                        class="v-slot"
                        data-start={slot.start_utc}
                        aria-pressed={props.selected === slot.start_utc}
                        onClick={() => props.onSelect(props.selected === slot.start_utc ? null : slot)}
                      >
                        {slotClock(slot.start_utc, props.tz)}
                        <Show when={(props.seatsPerSlot ?? 1) > 1}>
                          <small>{t('slots.seatsLeft', { count: slot.capacity_left })}</small>
                        </Show>
                      </button>
                    </li>
                  )}
                </For>
              </ul>
            </section>
          </Show>
        </div>
      </div>
    </div>
  );
}
