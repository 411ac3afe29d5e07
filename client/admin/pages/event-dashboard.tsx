import { createResource, createSignal, For, onCleanup, onMount, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { ArrivalsChart } from '../components/arrivals-chart';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { createConfirm } from '../components/confirm';
import { arrivalBars, arrivalsBeforeStart, chartEndMs } from '../arrivals';
import { deviceState } from '../device-state';
import {
  annulCheckin,
  arrivals,
  checkinCounts,
  getAttendee,
  getEvent,
  listCheckins,
  listDevices,
  updateEvent,
  type Arrivals,
  type CheckinCounts,
  type CheckinListItem,
  type DeviceDto,
  type EventDto,
} from '../data';
import { adminErrorMessage } from '../errors';
import { canEdit, type AdminUser } from '../session';
import { formatMoney, formatUtcDateTime, isoDateTime } from '../../ui/format';
import { ready } from '../components/async-view';
import { parseUtcString } from '../../../shared/time';
import { A, type RouteProps } from '../../router';
import { FormError } from '../../ui/form-error';
import { intlLocale, t, tx } from '../../i18n/i18n';

interface LiveData {
  counts: CheckinCounts;
  arrivals: Arrivals;
  conflicts: CheckinListItem[];
  recent: CheckinListItem[];
  devices: DeviceDto[] | null;
  asOfMs: number;
  refreshError: string | null;
}

/** How often the dashboard re-reads counts, chart, devices and conflicts. */
export const DASHBOARD_REFRESH_MS = 15_000;
const CHART_BARS = 36; // 3 hours of 5-minute bars

/** Why a check-in needs review, in the reader's words (read when drawn, so a language switch follows). */
function conflictText(conflict: string): string {
  switch (conflict) {
    case 'cancelled_before_scan':
      return t('admin.dashboard.conflict.cancelledBeforeScan');
    case 'cancelled':
      return t('admin.dashboard.conflict.cancelled');
    case 'waitlist':
      return t('admin.dashboard.conflict.waitlist');
    case 'deleted':
      return t('admin.dashboard.conflict.deleted');
    case 'again_elsewhere':
      return t('admin.dashboard.conflict.againElsewhere');
    case 'over_capacity':
      return t('admin.dashboard.conflict.overCapacity');
    default:
      return conflict;
  }
}

/** How a check-in was made, in the words staff use (docs/api.md#errors check-in sources). */
function sourceText(source: string): string {
  switch (source) {
    case 'scan':
      return t('admin.dashboard.source.scan');
    case 'manual':
      return t('admin.dashboard.source.manual');
    case 'search':
      return t('admin.dashboard.source.search');
    case 'walk_in':
      return t('admin.dashboard.source.walkIn');
    case 'rest':
      return t('admin.dashboard.source.rest');
    default:
      return source;
  }
}

/** Counts grouped the reader's way ("1,234", "1.234"); one formatter per locale. */
const numberFormats = new Map<string, Intl.NumberFormat>();
function formatCount(n: number): string {
  const tag = intlLocale();
  let format = numberFormats.get(tag);
  if (!format) numberFormats.set(tag, (format = new Intl.NumberFormat(tag)));
  return format.format(n);
}

/** The clock of "updated 14:05:09", in the reader's locale. */
const clock = (ms: number): string => new Date(ms).toLocaleTimeString(intlLocale());

export default function AdminEventDashboardPage(props: RouteProps): JSX.Element {
  const eventId = () => Number(props.params.id);
  return (
    <AdminFrame title={t('admin.dashboard.title')} area="dashboard">
      {(user) => <Dashboard eventId={eventId()} user={user} />}
    </AdminFrame>
  );
}

function Dashboard(props: { eventId: number; user: AdminUser }): JSX.Element {
  const [tick, setTick] = createSignal(0);
  const [event, { refetch: refetchEvent, mutate: setEvent }] = createResource(() => props.eventId, getEvent);
  const loadLive = async () => {
    const admin = props.user.role === 'administrator';
    const [counts, arrivalData, conflicts, recent, devices] = await Promise.all([
      checkinCounts(props.eventId),
      arrivals(props.eventId),
      listCheckins(props.eventId, { conflicts: true, perPage: 100 }),
      listCheckins(props.eventId, { perPage: 15 }),
      admin ? listDevices() : Promise.resolve(null),
    ]);
    return {
      counts,
      arrivals: arrivalData,
      conflicts: conflicts.items.filter((c) => !c.annulledUtc),
      recent: recent.items,
      devices: devices?.filter((d) => d.eventIds.includes(props.eventId)) ?? null,
      asOfMs: Date.now(),
    };
  };
  // a failed refresh keeps the last figures on screen with the reason; only a failed first load is an error page
  const [live, { refetch }] = createResource(
    () => tick() + 1,
    async (_tick, info: { value: LiveData | undefined }) => {
      try {
        return { ...(await loadLive()), refreshError: null };
      } catch (err) {
        if (!info.value) throw err;
        return { ...info.value, refreshError: adminErrorMessage(err) };
      }
    },
  );
  // the event's start, once loaded (no arrivals chart before it)
  const startsMs = () => {
    const ev = ready(event);
    return ev ? (parseUtcString(ev.startsUtc)?.getTime() ?? null) : null;
  };
  const confirm = createConfirm();
  const [publishError, setPublishError] = createSignal<string | null>(null);

  onMount(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') setTick((n) => n + 1);
    }, DASHBOARD_REFRESH_MS);
    onCleanup(() => clearInterval(timer));
  });

  const publish = async (ev: EventDto) => {
    setPublishError(null);
    try {
      setEvent(await updateEvent(ev.id, { status: 'published' }));
    } catch (err) {
      setPublishError(adminErrorMessage(err));
    }
  };

  const askUndo = (checkin: CheckinListItem, name: string) =>
    confirm.ask({
      title: t('admin.dashboard.undoTitle', { name }),
      detail: t('admin.dashboard.undoDetail', { when: formatUtcDateTime(checkin.scannedUtc) }),
      confirmLabel: t('admin.dashboard.undo'),
      action: () => annulCheckin(checkin.id),
      onDone: () => void refetch(),
    });

  return (
    <>
      <AsyncView resource={event} retry={() => void refetchEvent()} what={t('admin.dashboard.whatEvent')}>
        {(ev) => {
          return (
            <section class="event-head" aria-label={t('admin.dashboard.eventLabel')}>
              <h2>{ev().title}</h2>
              <p class="muted">
                <time datetime={isoDateTime(ev().startsUtc)}>{formatUtcDateTime(ev().startsUtc)}</time>
                {ev().venue ? ` · ${ev().venue}` : ''} ·{' '}
                <span class={`state state-${ev().status}`}>{ev().status === 'published' ? t('admin.events.published') : t('admin.events.draft')}</span> ·{' '}
                {ev().capacity == null
                  ? t('admin.dashboard.capacityUnlimited', { waitlist: ev().waitlist ? 'on' : 'off' })
                  : t('admin.dashboard.capacity', { capacity: ev().capacity, waitlist: ev().waitlist ? 'on' : 'off' })}
              </p>
              <div class="button-row">
                <A href={`/admin/events/${ev().id}/attendees`} class="button">
                  {t('admin.events.attendees')}
                </A>
                <Show when={canEdit(props.user.role)}>
                  <A href={`/admin/events/${ev().id}/edit`} class="button button-quiet">
                    {t('admin.dashboard.editEvent')}
                  </A>
                  <Show when={ev().status === 'draft'}>
                    <button type="button" class="button button-quiet" onClick={() => void publish(ev())}>
                      {t('admin.dashboard.publish')}
                    </button>
                  </Show>
                </Show>
              </div>
              <FormError message={publishError()} />
            </section>
          );
        }}
      </AsyncView>

      <AsyncView resource={live} retry={() => void refetch()} what={t('admin.dashboard.whatFigures')}>
        {(data) => {
          const bars = () =>
            arrivalBars(data().arrivals.buckets, {
              bucketMinutes: data().arrivals.bucketMinutes,
              count: CHART_BARS,
              endMs: chartEndMs(data().arrivals.buckets, data().asOfMs, CHART_BARS * 5 * 60_000),
            });
          return (
            <>
              <p class="status-text">
                {data().refreshError
                  ? t('admin.dashboard.liveRefreshFailed', { time: clock(data().asOfMs), reason: data().refreshError })
                  : t('admin.dashboard.live', { time: clock(data().asOfMs) })}
              </p>
              <section class="stats" aria-label={t('admin.dashboard.figuresLabel')}>
                <div class="stat">
                  <span class="stat-value">{formatCount(data().counts.seatsCheckedIn)}</span>
                  <span class="stat-label">{t('admin.dashboard.seatsCheckedIn')}</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{formatCount(data().counts.seatsGoing)}</span>
                  <span class="stat-label">{t('admin.dashboard.seatsGoing')}</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{data().counts.placesLeft == null ? t('admin.dashboard.noLimit') : formatCount(data().counts.placesLeft!)}</span>
                  <span class="stat-label">{t('admin.dashboard.placesLeft')}</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{formatCount(data().counts.seatsWaitlisted)}</span>
                  <span class="stat-label">{t('admin.dashboard.seatsWaitlisted')}</span>
                </div>
              </section>
              <section class="stats stats-secondary" aria-label={t('admin.dashboard.scansLabel')}>
                <div class="stat">
                  <span class="stat-value">{formatCount(data().counts.scans)}</span>
                  <span class="stat-label">{t('admin.dashboard.scans')}</span>
                </div>
                <div class="stat" classList={{ 'stat-warn': data().counts.conflicts > 0 }}>
                  <span class="stat-value">{formatCount(data().counts.conflicts)}</span>
                  <span class="stat-label">{t('admin.dashboard.conflicts')}</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{formatCount(data().counts.rejectedScans)}</span>
                  <span class="stat-label">{t('admin.dashboard.refusedScans')}</span>
                </div>
              </section>

              <Show when={data().counts.categories.length > 0}>
                <section class="section" aria-labelledby="categories-heading">
                  <h2 id="categories-heading">{t('admin.dashboard.perCategory')}</h2>
                  <DataTable
                    labelledBy="categories-heading"
                    columns={[
                      t('admin.dashboard.col.category'),
                      t('admin.dashboard.col.seatsCheckedIn'),
                      t('admin.dashboard.col.seatsGoing'),
                      t('admin.dashboard.col.sold'),
                      t('admin.dashboard.col.quota'),
                      // money figures come to administrators only (null for door staff)
                      ...(data().counts.categories.some((c) => c.revenueCents !== null)
                        ? [t('admin.dashboard.col.revenue'), t('admin.dashboard.col.atDoor')]
                        : []),
                    ]}
                    rows={data().counts.categories}
                  >
                    {(c) => (
                      <tr>
                        <td>{c.name ?? t('admin.dashboard.noCategory')}</td>
                        <td>{formatCount(c.seatsCheckedIn)}</td>
                        <td>{formatCount(c.seatsGoing)}</td>
                        <td>{formatCount(c.soldCount)}</td>
                        <td>{c.quota === null ? t('admin.dashboard.quotaNone') : formatCount(c.quota)}</td>
                        <Show when={c.revenueCents !== null && c.atDoorCents !== null}>
                          <td>{formatMoney(c.revenueCents ?? 0, data().counts.currency)}</td>
                          <td>{formatMoney(c.atDoorCents ?? 0, data().counts.currency)}</td>
                        </Show>
                      </tr>
                    )}
                  </DataTable>
                </section>
              </Show>

              <section class="section" aria-labelledby="arrivals-heading">
                <h2 id="arrivals-heading">{t('admin.dashboard.arrivals')}</h2>
                <Show
                  when={!arrivalsBeforeStart(data().arrivals.buckets, startsMs(), data().asOfMs)}
                  fallback={<p class="status-text">{t('admin.dashboard.arrivalsLater')}</p>}
                >
                  <ArrivalsChart bars={bars()} label={t('admin.dashboard.arrivals')} />
                </Show>
              </section>

              <Show when={data().devices}>
                {(devices) => (
                  <section class="section" aria-labelledby="devices-heading">
                    <div class="section-header">
                      <h2 id="devices-heading">{t('admin.dashboard.devices')}</h2>
                      <A href="/admin/devices">{t('admin.dashboard.manageDevices')}</A>
                    </div>
                    <Show when={devices().length > 0} fallback={<p class="status-text">{t('admin.dashboard.noDevices')}</p>}>
                      <ul class="device-list">
                        <For each={devices()}>
                          {(d) => (
                            <li>
                              <strong>
                                <bdi>{d.name}</bdi>
                              </strong>{' '}
                              · <span class={`state state-${deviceState(d).tone}`}>{deviceState(d).label}</span> ·{' '}
                              {t('admin.dashboard.lastSeen', { when: d.lastSeenUtc ? formatUtcDateTime(d.lastSeenUtc) : t('admin.dashboard.never') })} ·{' '}
                              {t('admin.dashboard.notSynced', { count: d.pendingCount == null ? '—' : formatCount(d.pendingCount) })}
                            </li>
                          )}
                        </For>
                      </ul>
                    </Show>
                  </section>
                )}
              </Show>

              <CheckinTable
                id="conflicts"
                title={t('admin.dashboard.conflictsTitle')}
                empty={t('admin.dashboard.noConflicts')}
                rows={data().conflicts}
                devices={data().devices}
                canUndo={canEdit(props.user.role)}
                onUndo={askUndo}
              />
              <CheckinTable
                id="recent"
                title={t('admin.dashboard.recentTitle')}
                empty={t('admin.dashboard.noCheckins')}
                rows={data().recent}
                devices={data().devices}
                canUndo={canEdit(props.user.role)}
                onUndo={askUndo}
              />
            </>
          );
        }}
      </AsyncView>
      {confirm.view()}
    </>
  );
}

/** An attendee's name, asked once per id; null when the attendee is gone (worded when drawn). */
const names = new Map<number, Promise<string | null>>();
function attendeeName(id: number): Promise<string | null> {
  let name = names.get(id);
  if (!name) {
    name = getAttendee(id).then(
      (a) => a.displayName || a.email,
      () => null,
    );
    names.set(id, name);
  }
  return name;
}

/** Which door (or signed-in person) made a check-in: two rows of one attendee must not look alike. */
function deviceLabel(row: CheckinListItem, devices: DeviceDto[] | null): string {
  if (row.deviceId === null) return row.source === 'rest' ? t('admin.dashboard.noDevice') : t('admin.dashboard.signedInStaff');
  return devices?.find((d) => d.id === row.deviceId)?.name ?? t('admin.dashboard.deviceNumber', { id: row.deviceId });
}

function CheckinTable(props: {
  id: string;
  title: string;
  empty: string;
  rows: CheckinListItem[];
  /** Door devices by id (administrators); staff see the device's number. */
  devices: DeviceDto[] | null;
  canUndo: boolean;
  onUndo: (checkin: CheckinListItem, name: string) => void;
}): JSX.Element {
  return (
    <section class="section" aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>{props.title}</h2>
      <Show when={props.rows.length > 0} fallback={<p class="status-text">{props.empty}</p>}>
        <DataTable
          labelledBy={`${props.id}-heading`}
          columns={[
            t('admin.dashboard.col.attendee'),
            t('admin.dashboard.col.scanned'),
            t('admin.dashboard.col.device'),
            t('admin.dashboard.col.source'),
            t('admin.dashboard.col.conflict'),
            t('admin.dashboard.col.action'),
          ]}
          rows={props.rows}
        >
          {(row) => {
            const [name] = createResource(() => row.attendeeId, attendeeName);
            const deleted = () => name.state === 'ready' && name() === null;
            const who = () =>
              deleted()
                ? t('admin.dashboard.attendeeDeleted', { id: row.attendeeId })
                : (name() ?? t('admin.dashboard.attendeeNumberInSentence', { id: row.attendeeId }));
            return (
              <tr classList={{ 'row-annulled': !!row.annulledUtc }}>
                <td>
                  <bdi>
                    {deleted()
                      ? t('admin.dashboard.attendeeDeleted', { id: row.attendeeId })
                      : (name() ?? t('admin.dashboard.attendeeNumber', { id: row.attendeeId }))}
                  </bdi>
                  <Show when={row.repeat}>
                    {' '}
                    <span class="badge badge-repeat" title={t('admin.dashboard.repeatTitle')}>
                      {t('admin.dashboard.repeat')}
                    </span>
                  </Show>
                </td>
                <td>
                  <time datetime={isoDateTime(row.scannedUtc)}>{formatUtcDateTime(row.scannedUtc)}</time>
                </td>
                <td>
                  <bdi>{deviceLabel(row, props.devices)}</bdi>
                </td>
                <td>{sourceText(row.source)}</td>
                <td>
                  {row.conflict ? (
                    <span class="flag-conflict">⚠ {conflictText(row.conflict)}</span>
                  ) : (
                    <span class="muted">{t('admin.dashboard.noConflict')}</span>
                  )}
                </td>
                <td>
                  <Show when={!row.annulledUtc} fallback={<span class="muted">{t('admin.dashboard.undone')}</span>}>
                    <Show when={props.canUndo}>
                      <button type="button" class="button button-small button-quiet" onClick={() => props.onUndo(row, who())}>
                        {tx('admin.dashboard.undoOf', { name: who(), h: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                    </Show>
                  </Show>
                </td>
              </tr>
            );
          }}
        </DataTable>
      </Show>
    </section>
  );
}
