import { createSignal, For, Show, type JSX } from 'solid-js';
import { addWindow, copyDay, removeWindow, updateWindow, validateWeek, weeklyHours, windowBar, type DayProblem, type WeekModel } from '../weekly-windows';
import { WEEKDAYS, type Weekday } from '../../../shared/time';
import { intlLocale, t, tx } from '../../i18n/i18n';

/** A weekday's name in the reader's language, from Intl (1 January 2024 was a Monday). */
function dayName(day: Weekday): string {
  return new Intl.DateTimeFormat(intlLocale(), { weekday: 'long', timeZone: 'UTC' }).format(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(day)));
}

/** The week as the reader's locale starts it (Monday in most of Europe, Sunday in the US, Saturday in much of the Arab world). */
function localeWeek(): readonly Weekday[] {
  let firstDay: number;
  try {
    // getWeekInfo() in current engines, the weekInfo getter in older ones; Monday where neither is known
    const info = new Intl.Locale(intlLocale()) as Intl.Locale & { getWeekInfo?: () => { firstDay: number }; weekInfo?: { firstDay: number } };
    firstDay = info.getWeekInfo?.().firstDay ?? info.weekInfo?.firstDay ?? 1;
  } catch {
    firstDay = 1;
  }
  const start = (firstDay + 6) % 7; // Intl counts Monday = 1 … Sunday = 7; WEEKDAYS starts at Monday
  return [...WEEKDAYS.slice(start), ...WEEKDAYS.slice(0, start)];
}

function problemText(problem: DayProblem): string {
  if (problem.kind === 'format') return t('admin.weekly.problemFormat');
  if (problem.kind === 'order') return t('admin.weekly.problemOrder', { from: problem.from, to: problem.to });
  return t('admin.weekly.problemOverlap', { at: problem.at });
}

/**
 * The weekly-window editor: a row per weekday that reads like a calendar strip (bars over
 * 24 hours), with its windows as time inputs below; several windows a day; copy a day to
 * weekdays or to every day.
 */
export function WeeklyEditor(props: { value: WeekModel; onChange: (week: WeekModel) => void; timezone: string; owner?: 'type' | 'host' }): JSX.Element {
  const errors = () => validateWeek(props.value);
  const [copied, setCopied] = createSignal<string | null>(null);
  const copy = (from: Weekday, to: readonly Weekday[], toWeekdays: boolean) => {
    props.onChange(copyDay(props.value, from, to));
    setCopied(toWeekdays ? t('admin.weekly.copiedWeekdays', { day: dayName(from) }) : t('admin.weekly.copiedAll', { day: dayName(from) }));
  };
  return (
    <fieldset class="weekly-editor">
      <legend>{t('admin.weekly.legend', { timezone: props.timezone })}</legend>
      <p class="field-hint">
        {t(props.owner === 'host' ? 'admin.weekly.hoursHost' : 'admin.weekly.hours', { hours: Math.round(weeklyHours(props.value) * 100) / 100 })}
      </p>
      <p class="visually-hidden" role="status">
        {copied() ?? ''}
      </p>
      <For each={localeWeek()}>
        {(day) => (
          <div class="week-day" role="group" aria-labelledby={`day-${day}`}>
            <div class="week-day-head">
              <h3 id={`day-${day}`}>{dayName(day)}</h3>
              <div class="day-bar" aria-hidden="true">
                <For each={props.value[day]}>
                  {(w) => {
                    const bar = () => windowBar(w);
                    return (
                      <Show when={bar()}>
                        {(b) => <span class="day-bar-window" style={{ 'inset-inline-start': `${b().left}%`, width: `${b().width}%` }} />}
                      </Show>
                    );
                  }}
                </For>
              </div>
            </div>
            <Show when={props.value[day].length > 0} fallback={<p class="muted week-closed">{t('admin.weekly.closed')}</p>}>
              <ul class="window-list">
                <For each={props.value[day]}>
                  {(w, i) => (
                    <li class="window-item">
                      <label for={`w-${day}-${i()}-from`} class="visually-hidden">
                        {t('admin.weekly.from', { day: dayName(day), n: i() + 1 })}
                      </label>
                      <input
                        id={`w-${day}-${i()}-from`}
                        class="input-time"
                        type="text"
                        inputmode="numeric"
                        pattern="[0-2][0-9]:[0-5][0-9]"
                        placeholder="09:00"
                        value={w[0]}
                        onChange={(e) => props.onChange(updateWindow(props.value, day, i(), 0, e.currentTarget.value.trim()))}
                      />
                      <span aria-hidden="true">–</span>
                      <label for={`w-${day}-${i()}-to`} class="visually-hidden">
                        {t('admin.weekly.until', { day: dayName(day), n: i() + 1 })}
                      </label>
                      <input
                        id={`w-${day}-${i()}-to`}
                        class="input-time"
                        type="text"
                        inputmode="numeric"
                        pattern="[0-2][0-9]:[0-5][0-9]"
                        placeholder="17:00"
                        value={w[1]}
                        onChange={(e) => props.onChange(updateWindow(props.value, day, i(), 1, e.currentTarget.value.trim()))}
                      />
                      <button type="button" class="button button-small button-quiet" onClick={() => props.onChange(removeWindow(props.value, day, i()))}>
                        {tx('admin.weekly.remove', { day: dayName(day), n: i() + 1, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
            <Show when={errors()[day]}>
              <p class="form-error" role="alert">
                {t('admin.weekly.problem', { day: dayName(day), problem: problemText(errors()[day]!) })}
              </p>
            </Show>
            <div class="button-row">
              <button type="button" class="button button-small button-quiet" onClick={() => props.onChange(addWindow(props.value, day))}>
                {tx('admin.weekly.add', { day: dayName(day), hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
              </button>
              <Show when={props.value[day].length > 0}>
                <button type="button" class="button button-small button-quiet" onClick={() => copy(day, ['mon', 'tue', 'wed', 'thu', 'fri'], true)}>
                  {tx('admin.weekly.copyWeekdays', { day: dayName(day), hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                </button>
                <button type="button" class="button button-small button-quiet" onClick={() => copy(day, WEEKDAYS, false)}>
                  {tx('admin.weekly.copyAll', { day: dayName(day), hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                </button>
              </Show>
            </div>
          </div>
        )}
      </For>
    </fieldset>
  );
}
