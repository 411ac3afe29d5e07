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
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { ready } from '../components/async-view';
import { parseUtcString } from '../../../shared/time';
import { A, type RouteProps } from '../../router';
import { FormError } from '../../ui/form-error';

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

const CONFLICT_TEXT: Record<string, string> = {
  cancelled_before_scan: 'Cancelled before the scan',
  cancelled: 'Cancelled on the server',
  waitlist: 'On the waitlist',
  deleted: 'Attendee deleted',
  again_elsewhere: 'Let in at two doors',
  over_capacity: 'Walk-in over capacity',
};

/** How a check-in was made, in the words staff use (docs/api.md#errors check-in sources). */
const SOURCE_TEXT: Record<string, string> = {
  scan: 'Door: camera scan',
  manual: 'Door: typed code',
  search: 'Door: name search',
  walk_in: 'Door: walk-in',
  rest: 'Admin',
};

export default function AdminEventDashboardPage(props: RouteProps): JSX.Element {
  const eventId = () => Number(props.params.id);
  return (
    <AdminFrame title="Event dashboard" area="dashboard">
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
      title: `Undo the check-in of ${name}?`,
      detail: `Scanned ${formatUtcDateTime(checkin.scannedUtc)}. The row is kept, marked as undone, and no longer counts.`,
      confirmLabel: 'Undo check-in',
      action: () => annulCheckin(checkin.id),
      onDone: () => void refetch(),
    });

  return (
    <>
      <AsyncView resource={event} retry={() => void refetchEvent()} what="The event">
        {(ev) => {
          return (
            <section class="event-head" aria-label="Event">
              <h2>{ev().title}</h2>
              <p class="muted">
                <time datetime={isoDateTime(ev().startsUtc)}>{formatUtcDateTime(ev().startsUtc)}</time>
                {ev().venue ? ` · ${ev().venue}` : ''} · <span class={`state state-${ev().status}`}>{ev().status === 'published' ? 'Published' : 'Draft'}</span>{' '}
                · capacity {ev().capacity ?? 'unlimited'}
                {ev().waitlist ? ', waitlist on' : ''}
              </p>
              <div class="button-row">
                <A href={`/admin/events/${ev().id}/attendees`} class="button">
                  Attendees
                </A>
                <Show when={canEdit(props.user.role)}>
                  <A href={`/admin/events/${ev().id}/edit`} class="button button-quiet">
                    Edit event
                  </A>
                  <Show when={ev().status === 'draft'}>
                    <button type="button" class="button button-quiet" onClick={() => void publish(ev())}>
                      Publish
                    </button>
                  </Show>
                </Show>
              </div>
              <FormError message={publishError()} />
            </section>
          );
        }}
      </AsyncView>

      <AsyncView resource={live} retry={() => void refetch()} what="Check-in figures">
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
                Live · updated {new Date(data().asOfMs).toLocaleTimeString()}
                {data().refreshError ? ` · refresh failed, showing the last figures: ${data().refreshError}` : ''}
              </p>
              <section class="stats" aria-label="Check-in figures, in seats">
                <div class="stat">
                  <span class="stat-value">{data().counts.seatsCheckedIn}</span>
                  <span class="stat-label">seats checked in</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{data().counts.seatsGoing}</span>
                  <span class="stat-label">seats going</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{data().counts.placesLeft ?? 'No limit'}</span>
                  <span class="stat-label">places left</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{data().counts.seatsWaitlisted}</span>
                  <span class="stat-label">seats on the waitlist</span>
                </div>
              </section>
              <section class="stats stats-secondary" aria-label="Scans">
                <div class="stat">
                  <span class="stat-value">{data().counts.scans}</span>
                  <span class="stat-label">scans (re-entries included)</span>
                </div>
                <div class="stat" classList={{ 'stat-warn': data().counts.conflicts > 0 }}>
                  <span class="stat-value">{data().counts.conflicts}</span>
                  <span class="stat-label">conflicts</span>
                </div>
                <div class="stat">
                  <span class="stat-value">{data().counts.rejectedScans}</span>
                  <span class="stat-label">refused scans</span>
                </div>
              </section>

              <section class="section" aria-labelledby="arrivals-heading">
                <h2 id="arrivals-heading">Arrivals</h2>
                <Show
                  when={!arrivalsBeforeStart(data().arrivals.buckets, startsMs(), data().asOfMs)}
                  fallback={<p class="status-text">Arrivals appear here once the event starts.</p>}
                >
                  <ArrivalsChart bars={bars()} label="Arrivals" />
                </Show>
              </section>

              <Show when={data().devices}>
                {(devices) => (
                  <section class="section" aria-labelledby="devices-heading">
                    <div class="section-header">
                      <h2 id="devices-heading">Door devices</h2>
                      <A href="/admin/devices">Manage devices</A>
                    </div>
                    <Show when={devices().length > 0} fallback={<p class="status-text">No door device follows this event.</p>}>
                      <ul class="device-list">
                        <For each={devices()}>
                          {(d) => (
                            <li>
                              <strong>{d.name}</strong> · <span class={`state state-${deviceState(d).tone}`}>{deviceState(d).label}</span> · last seen{' '}
                              {d.lastSeenUtc ? formatUtcDateTime(d.lastSeenUtc) : 'never'} · not yet synced: {d.pendingCount ?? '—'}
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
                title="Conflicts to review"
                empty="No conflicts."
                rows={data().conflicts}
                devices={data().devices}
                canUndo={canEdit(props.user.role)}
                onUndo={askUndo}
              />
              <CheckinTable
                id="recent"
                title="Latest check-ins"
                empty="No check-ins yet."
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

const names = new Map<number, Promise<string>>();
function attendeeName(id: number): Promise<string> {
  let name = names.get(id);
  if (!name) {
    name = getAttendee(id).then(
      (a) => a.displayName || a.email,
      () => `Attendee #${id} (deleted)`,
    );
    names.set(id, name);
  }
  return name;
}

/** Which door (or signed-in person) made a check-in: two rows of one attendee must not look alike. */
function deviceLabel(row: CheckinListItem, devices: DeviceDto[] | null): string {
  if (row.deviceId === null) return row.source === 'rest' ? 'No device' : 'Signed-in staff';
  return devices?.find((d) => d.id === row.deviceId)?.name ?? `Device #${row.deviceId}`;
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
        <DataTable labelledBy={`${props.id}-heading`} columns={['Attendee', 'Scanned', 'Device', 'Source', 'Conflict', 'Action']} rows={props.rows}>
          {(row) => {
            const [name] = createResource(() => row.attendeeId, attendeeName);
            const who = () => name() ?? `attendee #${row.attendeeId}`;
            return (
              <tr classList={{ 'row-annulled': !!row.annulledUtc }}>
                <td>
                  {name() ?? `Attendee #${row.attendeeId}`}
                  <Show when={row.repeat}>
                    {' '}
                    <span class="badge badge-repeat" title="Re-entry: an earlier check-in of this attendee stands">
                      Repeat
                    </span>
                  </Show>
                </td>
                <td>
                  <time datetime={isoDateTime(row.scannedUtc)}>{formatUtcDateTime(row.scannedUtc)}</time>
                </td>
                <td>{deviceLabel(row, props.devices)}</td>
                <td>{SOURCE_TEXT[row.source] ?? row.source}</td>
                <td>{row.conflict ? <span class="flag-conflict">⚠ {CONFLICT_TEXT[row.conflict] ?? row.conflict}</span> : <span class="muted">None</span>}</td>
                <td>
                  <Show when={!row.annulledUtc} fallback={<span class="muted">Undone</span>}>
                    <Show when={props.canUndo}>
                      <button type="button" class="button button-small button-quiet" onClick={() => props.onUndo(row, who())}>
                        Undo check-in<span class="visually-hidden"> of {who()}</span>
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
