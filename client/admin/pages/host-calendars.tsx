/**
 * A host's connected calendars (docs/api.md#host-calendars, docs/decisions/041-external-calendars.md):
 * the calendars whose busy time blocks their slots, each with its status (an unreachable one
 * stands out and says that its last known busy time still blocks), "Refresh now" and "Remove";
 * and a form to connect a CalDAV calendar or an ICS address. A host opens their own; an
 * administrator anyone's, from the Hosts list.
 */
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { CheckboxField, SelectField, TextField } from '../components/fields';
import { createConfirm } from '../components/confirm';
import { adminErrorMessage } from '../errors';
import { viewerTimeZone } from '../forms';
import {
  addHostCalendar,
  calendarFieldErrors,
  listHostCalendars,
  refreshCalendar,
  removeCalendar,
  shownAddress,
  type CalendarField,
  type HostCalendarDto,
  type HostCalendarInput,
} from '../host-calendars-data';
import { FormError } from '../../ui/form-error';
import { submitWith } from '../../ui/forms';
import { TimeZonePicker } from '../../ui/time-zone-picker';
import { CALENDAR_PASSWORD_MAX, CALENDAR_URL_MAX, CALENDAR_USERNAME_MAX, type HostCalendarKind } from '../../../shared/host-calendars';
import { parseUtcString } from '../../../shared/time';
import type { RouteProps } from '../../router';
import { intlLocale, t, tx } from '../../i18n/i18n';

type Confirm = ReturnType<typeof createConfirm>;

export default function HostCalendarsPage(props: RouteProps): JSX.Element {
  return (
    <AdminFrame title={t('admin.hostCalendars.title')} area="host-space">
      {() => <HostCalendars userId={Number(props.params.userId)} />}
    </AdminFrame>
  );
}

/** "27 Nov 2026, 14:05" in the reader's language and zone. */
function whenText(utc: string | null): string {
  const date = utc ? parseUtcString(utc) : null;
  return date ? new Intl.DateTimeFormat(intlLocale(), { dateStyle: 'medium', timeStyle: 'short' }).format(date) : (utc ?? '');
}

function HostCalendars(props: { userId: number }): JSX.Element {
  const [calendars, { refetch, mutate }] = createResource(() => props.userId, listHostCalendars);
  const confirm = createConfirm();
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);

  return (
    <>
      <p class="lead">{t('admin.hostCalendars.lead')}</p>
      <section aria-labelledby="calendars-heading">
        <h2 id="calendars-heading">{t('admin.hostCalendars.heading')}</h2>
        <ActionNoticeView notice={notice()} />
        <AsyncView
          resource={calendars}
          retry={() => void refetch()}
          what={t('admin.hostCalendars.title')}
          isEmpty={(list) => list.length === 0}
          empty={<p class="status-text">{t('admin.hostCalendars.empty')}</p>}
        >
          {(list) => (
            <ul class="calendar-list">
              <For each={list()}>
                {(calendar) => (
                  <CalendarItem
                    calendar={calendar}
                    confirm={confirm}
                    onRemoved={() => {
                      setNotice({ ok: true, text: t('admin.hostCalendars.removed', { address: shownAddress(calendar.url) }) });
                      mutate((all) => (all ?? []).filter((c) => c.id !== calendar.id));
                    }}
                  />
                )}
              </For>
            </ul>
          )}
        </AsyncView>
      </section>
      <ConnectForm
        userId={props.userId}
        onAdded={(made) => {
          setNotice({ ok: true, text: t('admin.hostCalendars.added', { address: shownAddress(made.url) }) });
          mutate((all) => [...(all ?? []), made]);
        }}
      />
      {confirm.view()}
    </>
  );
}

function StatusBadge(props: { calendar: HostCalendarDto }): JSX.Element {
  return (
    <span class={`calendar-status calendar-status-${props.calendar.status}`}>
      {props.calendar.status === 'ok'
        ? t('admin.hostCalendars.status.ok')
        : props.calendar.status === 'unreachable'
          ? t('admin.hostCalendars.status.unreachable')
          : t('admin.hostCalendars.status.pending')}
    </span>
  );
}

/**
 * One calendar. A refresh updates it here, not in the page's list: the item (and the focus on its
 * button, and the announcement of the result) stays where it is.
 */
function CalendarItem(props: { calendar: HostCalendarDto; confirm: Confirm; onRemoved: () => void }): JSX.Element {
  // the list item's first state; a refresh replaces it here
  const [calendar, setCalendar] = createSignal(props.calendar);
  const [busy, setBusy] = createSignal(false);
  const [result, setResult] = createSignal<ActionNotice | null>(null);
  const address = () => shownAddress(calendar().url);
  const hidden = (chunks: JSX.Element[]) => <span class="visually-hidden">{chunks}</span>;

  const refresh = async () => {
    if (busy()) return;
    setBusy(true);
    setResult(null);
    try {
      const next = await refreshCalendar(calendar().id);
      setCalendar(next);
      setResult(
        next.status === 'ok'
          ? { ok: true, text: t('admin.hostCalendars.refreshed', { count: next.busyCount }) }
          : { ok: false, text: t('admin.hostCalendars.refreshFailed') },
      );
    } catch (err) {
      setResult({ ok: false, text: adminErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <li class="calendar-item" classList={{ 'calendar-item-unreachable': calendar().status === 'unreachable' }}>
      <div class="calendar-head">
        <h3>{calendar().kind === 'caldav' ? t('admin.hostCalendars.kindCaldav') : t('admin.hostCalendars.kindIcs')}</h3>
        <StatusBadge calendar={calendar()} />
      </div>
      <p class="calendar-address">
        <bdi dir="ltr">{address()}</bdi>
      </p>
      <Show when={calendar().username}>{(name) => <p class="muted">{t('admin.hostCalendars.signedInAs', { username: name() })}</p>}</Show>
      <Show when={calendar().status === 'unreachable'}>
        <div class="notice notice-error calendar-problem" role="note">
          <p>
            {calendar().lastRefreshedUtc
              ? t('admin.hostCalendars.unreachableAt', { when: whenText(calendar().lastRefreshedUtc) })
              : t('admin.hostCalendars.unreachable')}
          </p>
          <p>
            {calendar().lastSuccessUtc
              ? t('admin.hostCalendars.stillBlocks', { when: whenText(calendar().lastSuccessUtc) })
              : t('admin.hostCalendars.neverRead')}
          </p>
          <Show when={calendar().lastError}>{(why) => <p class="muted">{t('admin.hostCalendars.detail', { detail: why() })}</p>}</Show>
        </div>
      </Show>
      <Show when={calendar().status === 'ok' && calendar().lastSuccessUtc}>
        {(when) => <p class="muted">{t('admin.hostCalendars.lastRead', { when: whenText(when()), count: calendar().busyCount })}</p>}
      </Show>
      <p class="muted">
        {calendar().writeBack ? t('admin.hostCalendars.writesBookings') : t('admin.hostCalendars.readOnly')}{' '}
        {t('admin.hostCalendars.zone', { zone: calendar().timezone })}
      </p>
      <div class="button-row">
        <button type="button" class="button button-small" aria-disabled={busy()} onClick={() => void refresh()}>
          {busy() ? t('admin.hostCalendars.refreshing') : tx('admin.hostCalendars.refresh', { address: address(), hidden })}
        </button>
        <button
          type="button"
          class="button button-small button-quiet button-danger-text"
          onClick={() =>
            props.confirm.ask({
              title: t('admin.hostCalendars.removeTitle', { address: address() }),
              detail: t('admin.hostCalendars.removeDetail'),
              confirmLabel: t('admin.hostCalendars.removeConfirm'),
              action: () => removeCalendar(calendar().id),
              onDone: props.onRemoved,
              describeError: adminErrorMessage,
            })
          }
        >
          {tx('admin.hostCalendars.remove', { address: address(), hidden })}
        </button>
      </div>
      <ActionNoticeView notice={result()} />
    </li>
  );
}

function ConnectForm(props: { userId: number; onAdded: (made: HostCalendarDto) => void }): JSX.Element {
  const [kind, setKind] = createSignal<HostCalendarKind>('caldav');
  const [url, setUrl] = createSignal('');
  const [username, setUsername] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [writeBack, setWriteBack] = createSignal(false);
  const [ownZone, setOwnZone] = createSignal(false);
  const [zone, setZone] = createSignal(viewerTimeZone());
  const [saving, setSaving] = createSignal(false);
  const [errors, setErrors] = createSignal<Partial<Record<CalendarField, string>>>({});
  const [formError, setFormError] = createSignal<string | null>(null);
  const caldav = () => kind() === 'caldav';

  const connect = async () => {
    if (saving()) return;
    setErrors({});
    setFormError(null);
    if (url().trim() === '') {
      setErrors({ url: t('admin.hostCalendars.error.urlRequired') });
      return;
    }
    const input: HostCalendarInput = { kind: kind(), url: url().trim() };
    // user name, app password and write-back belong to CalDAV; what was typed there is not sent with an ICS address
    if (caldav()) {
      if (username().trim() !== '') input.username = username().trim();
      if (password() !== '') input.password = password();
      if (writeBack()) input.writeBack = true;
    }
    if (ownZone()) input.timezone = zone();
    setSaving(true);
    try {
      const made = await addHostCalendar(props.userId, input);
      props.onAdded(made);
      setUrl('');
      setUsername('');
      setPassword('');
      setWriteBack(false);
    } catch (err) {
      const byField = calendarFieldErrors(err);
      setErrors(byField);
      if (Object.keys(byField).length === 0) setFormError(adminErrorMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section aria-labelledby="connect-heading" class="calendar-connect">
      <h2 id="connect-heading">{t('admin.hostCalendars.connectHeading')}</h2>
      <form class="form" onSubmit={submitWith(connect)} novalidate>
        <SelectField
          id="hc-kind"
          label={t('admin.hostCalendars.kind')}
          value={kind()}
          onChange={(next) => {
            setKind(next);
            setErrors({});
          }}
          options={[
            { value: 'caldav', label: t('admin.hostCalendars.kindCaldav') },
            { value: 'ics', label: t('admin.hostCalendars.kindIcs') },
          ]}
          hint={caldav() ? t('admin.hostCalendars.helpCaldav') : t('admin.hostCalendars.helpIcs')}
        />
        <TextField
          id="hc-url"
          label={t('admin.hostCalendars.url')}
          type="url"
          inputMode="url"
          autocomplete="off"
          spellcheck={false}
          maxLength={CALENDAR_URL_MAX}
          value={url()}
          onInput={setUrl}
          error={errors().url}
          hint={caldav() ? t('admin.hostCalendars.urlHintCaldav') : t('admin.hostCalendars.urlHintIcs')}
        />
        <Show when={caldav()}>
          <TextField
            id="hc-username"
            label={t('admin.hostCalendars.username')}
            autocomplete="off"
            spellcheck={false}
            maxLength={CALENDAR_USERNAME_MAX}
            value={username()}
            onInput={setUsername}
            error={errors().username}
          />
          <TextField
            id="hc-password"
            label={t('admin.hostCalendars.password')}
            type="password"
            autocomplete="off"
            maxLength={CALENDAR_PASSWORD_MAX}
            value={password()}
            onInput={setPassword}
            error={errors().password}
            hint={t('admin.hostCalendars.passwordHint')}
          />
          <CheckboxField
            id="hc-writeback"
            label={t('admin.hostCalendars.writeBack')}
            checked={writeBack()}
            onChange={setWriteBack}
            error={errors().writeBack}
            hint={t('admin.hostCalendars.writeBackHint')}
          />
        </Show>
        <CheckboxField
          id="hc-own-zone"
          label={t('admin.hostCalendars.ownZone')}
          checked={ownZone()}
          onChange={setOwnZone}
          hint={t('admin.hostCalendars.ownZoneHint')}
        />
        <Show when={ownZone()}>
          <TimeZonePicker
            id="hc-zone"
            label={t('admin.hostCalendars.zoneLabel')}
            value={zone()}
            onChange={setZone}
            invalid={Boolean(errors().timezone)}
            describedBy={errors().timezone ? 'hc-zone-error' : undefined}
          />
          <Show when={errors().timezone}>
            <p id="hc-zone-error" class="form-error">
              {errors().timezone}
            </p>
          </Show>
        </Show>
        <FormError message={formError()} />
        <div class="button-row">
          <button type="submit" class="button" aria-disabled={saving()}>
            {saving() ? t('admin.hostCalendars.connecting') : t('admin.hostCalendars.connect')}
          </button>
        </div>
      </form>
    </section>
  );
}
