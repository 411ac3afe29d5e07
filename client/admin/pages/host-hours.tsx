/**
 * A host's own working hours (docs/api.md#host-hours): the weekly hours in their zone, and
 * exceptions by date (a day off, a vacation, special hours). A host opens their own; an
 * administrator anyone's.
 */
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { ready } from '../components/async-view';
import { SaveStatus, SelectField } from '../components/fields';
import { WeeklyEditor } from '../components/weekly-editor';
import { createSaveAction, viewerTimeZone } from '../forms';
import { getHostHours, saveHostHours, type HostHoursDto, type HostHoursInput } from '../host-hours-data';
import { weekFromWindows, weekIsValid, windowsFromWeek, clockToMinutes, type WeekModel } from '../weekly-windows';
import { errorMessage } from '../../ui/errors';
import { submitWith } from '../../ui/forms';
import { TimeZonePicker } from '../../ui/time-zone-picker';
import { parseUtcDate } from '../../../shared/time';
import type { RouteProps } from '../../router';
import { intlLocale, t, tx } from '../../i18n/i18n';

type Override = HostHoursInput['overrides'][number];
type OverrideKind = 'dayOff' | 'vacation' | 'special';

export default function AdminHostHoursPage(props: RouteProps): JSX.Element {
  const userId = () => Number(props.params.userId);
  const [hours, { refetch }] = createResource(userId, getHostHours);
  return (
    <AdminFrame title={t('admin.hostHours.title')} area="host-space">
      {() => (
        <Show
          when={ready(hours)}
          fallback={
            <Show
              when={hours.error}
              fallback={
                <p class="status-text" aria-busy="true">
                  {t('admin.hostHours.loading')}
                </p>
              }
            >
              <div class="notice notice-error" role="alert">
                <p>{t('admin.hostHours.loadFailed', { reason: errorMessage(hours.error) })}</p>
                <button type="button" class="button" onClick={() => void refetch()}>
                  {t('common.tryAgain')}
                </button>
              </div>
            </Show>
          }
        >
          {(loaded) => <HostHoursEditor hours={loaded()} />}
        </Show>
      )}
    </AdminFrame>
  );
}

/** "3 Aug 2026" in the reader's language, for a `Y-m-d` date. */
function dateText(day: string): string {
  return new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeZone: 'UTC' }).format(parseUtcDate(day)!);
}

function datesText(o: Override): string {
  return o.from === o.to ? dateText(o.from) : t('admin.hostHours.range', { from: dateText(o.from), to: dateText(o.to) });
}

function hoursText(o: Override): string {
  if (o.windows.length === 0) return t('admin.hostHours.unavailable');
  return new Intl.ListFormat(intlLocale(), { type: 'unit', style: 'short' }).format(o.windows.map(([from, to]) => `${from}–${to}`));
}

function HostHoursEditor(props: { hours: HostHoursDto }): JSX.Element {
  const [timezone, setTimezone] = createSignal(props.hours.stored ? props.hours.timezone : viewerTimeZone());
  const [week, setWeek] = createSignal<WeekModel>(weekFromWindows(props.hours.weekly));
  const [overrides, setOverrides] = createSignal<Override[]>(props.hours.overrides);
  const [stored, setStored] = createSignal(props.hours.stored);
  const saving = createSaveAction();

  const [kind, setKind] = createSignal<OverrideKind>('dayOff');
  const [from, setFrom] = createSignal('');
  const [to, setTo] = createSignal('');
  const [windowFrom, setWindowFrom] = createSignal('10:00');
  const [windowTo, setWindowTo] = createSignal('14:00');
  const [addError, setAddError] = createSignal<string | null>(null);

  const add = () => {
    setAddError(null);
    const last = kind() === 'vacation' ? to() : from();
    if (!parseUtcDate(from()) || !parseUtcDate(last)) return setAddError(t('admin.hostHours.dateInvalid'));
    if (last < from()) return setAddError(t('admin.hostHours.rangeInvalid'));
    let windows: Array<[string, string]> = [];
    if (kind() === 'special') {
      const start = clockToMinutes(windowFrom());
      const end = clockToMinutes(windowTo());
      if (Number.isNaN(start) || Number.isNaN(end) || start >= end) return setAddError(t('admin.hostHours.windowInvalid'));
      windows = [[windowFrom(), windowTo()]];
    }
    // a new exception replaces those it overlaps (one per date)
    const kept = overrides().filter((o) => o.to < from() || o.from > last);
    setOverrides([...kept, { from: from(), to: last, windows }].sort((a, b) => (a.from < b.from ? -1 : 1)));
    saving.reset();
  };

  const save = async () => {
    if (saving.busy()) return;
    if (!weekIsValid(week())) return saving.fail(t('admin.hostHours.fixWeek'));
    await saving.run(async () => {
      const saved = await saveHostHours(props.hours.userId, { timezone: timezone().trim(), weekly: windowsFromWeek(week()), overrides: overrides() });
      setOverrides(saved.overrides);
      setStored(true);
    });
  };

  return (
    <form class="form form-wide" onSubmit={submitWith(save)} aria-label={t('admin.hostHours.formLabel')}>
      <p class="muted">{t('admin.hostHours.lead')}</p>
      <Show when={!stored()}>
        <p class="notice">{t('admin.hostHours.notStored')}</p>
      </Show>
      <TimeZonePicker id="hh-timezone" label={t('admin.hostHours.timezone')} value={timezone()} onChange={setTimezone} />
      <WeeklyEditor value={week()} onChange={setWeek} timezone={timezone()} owner="host" />

      <fieldset class="field">
        <legend>{t('admin.hostHours.overrides')}</legend>
        <p class="field-hint">{t('admin.hostHours.overridesLead')}</p>
        <Show when={overrides().length > 0} fallback={<p class="muted">{t('admin.hostHours.noOverrides')}</p>}>
          <ul class="window-list">
            <For each={overrides()}>
              {(o) => (
                <li class="window-item">
                  <span>{t('admin.hostHours.override', { dates: datesText(o), hours: hoursText(o) })}</span>
                  <button
                    type="button"
                    class="button button-small button-quiet"
                    onClick={() => {
                      setOverrides(overrides().filter((x) => x !== o));
                      saving.reset();
                    }}
                  >
                    {tx('admin.hostHours.remove', { dates: datesText(o), hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                  </button>
                </li>
              )}
            </For>
          </ul>
        </Show>
        <SelectField
          id="hh-kind"
          label={t('admin.hostHours.kind')}
          value={kind()}
          options={[
            { value: 'dayOff', label: t('admin.hostHours.kindDayOff') },
            { value: 'vacation', label: t('admin.hostHours.kindVacation') },
            { value: 'special', label: t('admin.hostHours.kindSpecial') },
          ]}
          onChange={setKind}
        />
        <div class="field-row">
          <div class="field">
            <label for="hh-from">{kind() === 'vacation' ? t('admin.hostHours.from') : t('admin.hostHours.date')}</label>
            <input id="hh-from" type="date" value={from()} onInput={(e) => setFrom(e.currentTarget.value)} />
          </div>
          <Show when={kind() === 'vacation'}>
            <div class="field">
              <label for="hh-to">{t('admin.hostHours.to')}</label>
              <input id="hh-to" type="date" value={to()} min={from()} onInput={(e) => setTo(e.currentTarget.value)} />
            </div>
          </Show>
          <Show when={kind() === 'special'}>
            <div class="field">
              <label for="hh-window-from">{t('admin.hostHours.windowFrom')}</label>
              <input
                id="hh-window-from"
                class="input-time"
                type="text"
                inputmode="numeric"
                pattern="[0-2][0-9]:[0-5][0-9]"
                value={windowFrom()}
                onInput={(e) => setWindowFrom(e.currentTarget.value.trim())}
              />
            </div>
            <div class="field">
              <label for="hh-window-to">{t('admin.hostHours.windowTo')}</label>
              <input
                id="hh-window-to"
                class="input-time"
                type="text"
                inputmode="numeric"
                pattern="[0-2][0-9]:[0-5][0-9]"
                value={windowTo()}
                onInput={(e) => setWindowTo(e.currentTarget.value.trim())}
              />
            </div>
          </Show>
        </div>
        <Show when={addError()}>
          <p class="form-error" role="alert">
            {addError()}
          </p>
        </Show>
        <div class="button-row">
          <button type="button" class="button button-small" onClick={add}>
            {t('admin.hostHours.add')}
          </button>
        </div>
      </fieldset>

      <div class="button-row">
        <button type="submit" class="button" disabled={saving.busy()}>
          {t('admin.hostHours.save')}
        </button>
      </div>
      <SaveStatus state={saving.state()} error={saving.error()} />
    </form>
  );
}
