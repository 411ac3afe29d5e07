import { createSignal, For, Show, type JSX } from 'solid-js';
import { addWindow, copyDay, removeWindow, updateWindow, validateWeek, weeklyHours, windowBar, type WeekModel } from '../weekly-windows';
import { WEEKDAYS, type Weekday } from '../../../shared/time';

const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/**
 * The weekly-window editor: a row per weekday that reads like a calendar strip (bars over
 * 24 hours), with its windows as time inputs below; several windows a day; copy a day to
 * weekdays or to every day.
 */
export function WeeklyEditor(props: { value: WeekModel; onChange: (week: WeekModel) => void; timezone: string }): JSX.Element {
  const errors = () => validateWeek(props.value);
  const [copied, setCopied] = createSignal<string | null>(null);
  const copy = (from: Weekday, to: readonly Weekday[], label: string) => {
    props.onChange(copyDay(props.value, from, to));
    setCopied(`${DAY_NAMES[from]} copied to ${label}.`);
  };
  return (
    <fieldset class="weekly-editor">
      <legend>Weekly availability ({props.timezone})</legend>
      <p class="field-hint">
        {weeklyHours(props.value).toLocaleString(undefined, { maximumFractionDigits: 2 })} hours a week. Times are in the booking type's time zone; 24:00 is the
        end of the day.
      </p>
      <p class="visually-hidden" role="status">
        {copied() ?? ''}
      </p>
      <For each={WEEKDAYS}>
        {(day) => (
          <div class="week-day" role="group" aria-labelledby={`day-${day}`}>
            <div class="week-day-head">
              <h3 id={`day-${day}`}>{DAY_NAMES[day]}</h3>
              <div class="day-bar" aria-hidden="true">
                <For each={props.value[day]}>
                  {(w) => {
                    const bar = () => windowBar(w);
                    return <Show when={bar()}>{(b) => <span class="day-bar-window" style={{ left: `${b().left}%`, width: `${b().width}%` }} />}</Show>;
                  }}
                </For>
              </div>
            </div>
            <Show when={props.value[day].length > 0} fallback={<p class="muted week-closed">Closed</p>}>
              <ul class="window-list">
                <For each={props.value[day]}>
                  {(w, i) => (
                    <li class="window-item">
                      <label for={`w-${day}-${i()}-from`} class="visually-hidden">
                        {DAY_NAMES[day]} window {i() + 1} from
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
                        {DAY_NAMES[day]} window {i() + 1} until
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
                        Remove
                        <span class="visually-hidden">
                          {' '}
                          {DAY_NAMES[day]} window {i() + 1}
                        </span>
                      </button>
                    </li>
                  )}
                </For>
              </ul>
            </Show>
            <Show when={errors()[day]}>
              <p class="form-error" role="alert">
                {DAY_NAMES[day]}: {errors()[day]}
              </p>
            </Show>
            <div class="button-row">
              <button type="button" class="button button-small button-quiet" onClick={() => props.onChange(addWindow(props.value, day))}>
                Add window<span class="visually-hidden"> on {DAY_NAMES[day]}</span>
              </button>
              <Show when={props.value[day].length > 0}>
                <button
                  type="button"
                  class="button button-small button-quiet"
                  onClick={() => copy(day, ['mon', 'tue', 'wed', 'thu', 'fri'], 'Monday to Friday')}
                >
                  Copy to weekdays<span class="visually-hidden"> from {DAY_NAMES[day]}</span>
                </button>
                <button type="button" class="button button-small button-quiet" onClick={() => copy(day, WEEKDAYS, 'every day')}>
                  Copy to all<span class="visually-hidden"> from {DAY_NAMES[day]}</span>
                </button>
              </Show>
            </div>
          </div>
        )}
      </For>
    </fieldset>
  );
}
