import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import type { ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { createConfirm } from '../components/confirm';
import { PairingQr } from '../components/pairing-qr';
import { SaveButtons, TextField } from '../components/fields';
import {
  createDevice,
  listDevices,
  listEvents,
  listTicketCategories,
  newPairingCode,
  revokeDevice,
  setDeviceCategories,
  setDeviceWalkIns,
  type DeviceDto,
  type DevicePairing,
} from '../data';
import { deviceState } from '../device-state';
import { adminErrorMessage } from '../errors';
import { createSaveAction } from '../forms';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';
import { intlLocale, t, tx } from '../../i18n/i18n';
import { formatRelativeUtc } from '../relative-time';

export default function AdminDevicesPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.devices.title')} area="devices">
      {() => <Devices />}
    </AdminFrame>
  );
}

function Devices(): JSX.Element {
  const [devices, { refetch }] = createResource(listDevices);
  const [events] = createResource(listEvents);
  const [pairing, setPairing] = createSignal<{ name: string; pairing: DevicePairing } | null>(null);
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const confirm = createConfirm();
  const [editing, setEditing] = createSignal<DeviceDto | null>(null);

  const eventTitle = (id: number) => ready(events)?.find((e) => e.id === id)?.title ?? t('admin.devices.eventNumber', { id });
  // the names on the devices' check-in lists
  const [listed] = createResource(() => {
    const ids = [...new Set((ready(devices) ?? []).filter((d) => d.categoryIds !== null).flatMap((d) => d.eventIds))];
    return ids.length > 0 ? ids.slice(0, 500) : null;
  }, listTicketCategories);
  const listNames = (d: DeviceDto) =>
    d.categoryIds === null
      ? t('admin.devices.allTickets')
      : new Intl.ListFormat(intlLocale(), { style: 'narrow', type: 'unit' }).format(
          d.categoryIds.map((id) => ready(listed)?.find((c) => c.id === id)?.name ?? t('admin.devices.categoryNumber', { id })),
        );

  const toggleWalkIns = async (d: DeviceDto, allowed: boolean) => {
    setNotice(null);
    try {
      await setDeviceWalkIns(d.id, allowed);
      setNotice({ ok: true, text: allowed ? t('admin.devices.walkInsOn', { name: d.name }) : t('admin.devices.walkInsOff', { name: d.name }) });
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    }
    void refetch();
  };

  const repair = async (d: DeviceDto) => {
    setNotice(null);
    try {
      setPairing({ name: d.name, pairing: await newPairingCode(d.id) });
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    }
  };

  return (
    <>
      <Show when={pairing()}>
        {(p) => (
          <section class="notice pairing" aria-labelledby="pairing-heading">
            <h2 id="pairing-heading">{t('admin.devices.pairHeading', { name: p().name })}</h2>
            <p>
              {tx('admin.devices.pairHow', {
                until: formatUtcDateTime(p().pairing.pairingExpiresUtc),
                b: (chunks) => <strong>{chunks}</strong>,
                time: (chunks) => <time datetime={isoDateTime(p().pairing.pairingExpiresUtc)}>{chunks}</time>,
              })}
            </p>
            <PairingQr url={p().pairing.pairingUrl} code={p().pairing.pairingCode} />
            <p>{tx('admin.devices.pairingCode', { code: p().pairing.pairingCode, c: (chunks) => <code class="pairing-code">{chunks}</code> })}</p>
            <button type="button" class="button button-quiet" onClick={() => setPairing(null)}>
              {t('admin.devices.done')}
            </button>
          </section>
        )}
      </Show>
      <Show when={notice()}>
        {(n) => (
          <p class={n().ok ? 'notice notice-ok' : 'notice notice-error'} role={n().ok ? 'status' : 'alert'}>
            {n().text}
          </p>
        )}
      </Show>
      <section aria-labelledby="device-list-heading">
        <h2 id="device-list-heading">{t('admin.devices.heading')}</h2>
        <AsyncView
          resource={devices}
          retry={() => void refetch()}
          what={t('admin.devices.heading')}
          isEmpty={(l) => l.length === 0}
          empty={<p class="status-text">{t('admin.devices.empty')}</p>}
        >
          {(list) => (
            <DataTable
              labelledBy="device-list-heading"
              columns={[
                t('admin.devices.col.name'),
                t('admin.devices.col.events'),
                t('admin.devices.col.categories'),
                t('admin.devices.col.lastSeen'),
                t('admin.devices.col.pending'),
                t('admin.devices.col.state'),
                t('admin.devices.col.walkIns'),
                t('admin.devices.col.actions'),
              ]}
              rows={list()}
            >
              {(d) => (
                <tr>
                  <td>{d.name}</td>
                  <td>{new Intl.ListFormat(intlLocale(), { style: 'narrow', type: 'unit' }).format(d.eventIds.map(eventTitle))}</td>
                  <td>
                    {listNames(d)}{' '}
                    <Show when={!d.revokedUtc}>
                      <button type="button" class="button button-small button-quiet" onClick={() => setEditing(d)}>
                        {tx('admin.devices.changeList', { name: d.name, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                    </Show>
                  </td>
                  <td>
                    <Show when={d.lastSeenUtc} fallback={<span class="muted">{t('admin.devices.never')}</span>}>
                      {(seen) => (
                        <time datetime={isoDateTime(seen())} title={formatUtcDateTime(seen())}>
                          {formatRelativeUtc(seen())}
                        </time>
                      )}
                    </Show>
                  </td>
                  <td>
                    {d.pendingCount === null || d.pendingCount === undefined ? <span class="muted">—</span> : d.pendingCount.toLocaleString(intlLocale())}
                  </td>
                  <td>
                    <span class={`state state-${deviceState(d).tone}`}>{deviceState(d).label}</span>
                  </td>
                  <td>
                    <label class="walk-ins-toggle">
                      <input
                        type="checkbox"
                        checked={d.walkIns}
                        disabled={d.revokedUtc !== null}
                        onChange={(e) => void toggleWalkIns(d, e.currentTarget.checked)}
                      />
                      {tx('admin.devices.walkInsAllowed', { name: d.name, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                    </label>
                  </td>
                  <td class="cell-actions">
                    <Show when={!d.revokedUtc}>
                      <button type="button" class="button button-small button-quiet" onClick={() => void repair(d)}>
                        {tx('admin.devices.pairingCodeButton', { name: d.name, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                      <button
                        type="button"
                        class="button button-small button-quiet button-danger-text"
                        onClick={() =>
                          confirm.ask({
                            title: t('admin.devices.revokeTitle', { name: d.name }),
                            detail:
                              d.pendingCount && d.pendingCount > 0
                                ? t('admin.devices.revokePending', { count: d.pendingCount })
                                : t('admin.devices.revokeDetail'),
                            confirmLabel: t('admin.devices.revokeConfirm'),
                            action: () => revokeDevice(d.id),
                            onDone: () => {
                              setNotice({ ok: true, text: t('admin.devices.revoked', { name: d.name }) });
                              void refetch();
                            },
                          })
                        }
                      >
                        {tx('admin.devices.revokeButton', { name: d.name, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                    </Show>
                  </td>
                </tr>
              )}
            </DataTable>
          )}
        </AsyncView>
      </section>
      <Show when={editing()} keyed>
        {(d) => (
          <ListEditor
            device={d}
            eventTitle={eventTitle}
            onClose={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              setNotice({ ok: true, text: t('admin.devices.listSaved', { name: d.name }) });
              void refetch();
            }}
          />
        )}
      </Show>
      <NewDevice
        events={ready(events) ?? []}
        onCreated={(name, p) => {
          setPairing({ name, pairing: p });
          void refetch();
        }}
      />
      {confirm.view()}
    </>
  );
}

/** One device's check-in list: the categories of its events, none ticked = every ticket. */
function ListEditor(props: { device: DeviceDto; eventTitle: (id: number) => string; onClose: () => void; onSaved: () => void }): JSX.Element {
  const [categories] = createResource(() => props.device.eventIds, listTicketCategories);
  const [chosen, setChosen] = createSignal<number[]>(props.device.categoryIds ?? []);
  const saving = createSaveAction();
  const submit = () =>
    saving.run(async () => {
      const ids = chosen().filter((id) => (ready(categories) ?? []).some((c) => c.id === id));
      await setDeviceCategories(props.device.id, ids.length > 0 ? ids : null);
      props.onSaved();
    });
  return (
    <section class="section" aria-labelledby="list-editor-heading">
      <h2 id="list-editor-heading">{t('admin.devices.listHeading', { name: props.device.name })}</h2>
      <form class="form form-wide" onSubmit={submitWith(submit)}>
        <fieldset class="field" aria-describedby="le-categories-hint">
          <legend>{t('admin.devices.checkinList')}</legend>
          <p id="le-categories-hint" class="field-hint">
            {t('admin.devices.checkinListHint')}
          </p>
          <Show when={(ready(categories) ?? []).length > 0} fallback={<p class="status-text">{t('admin.devices.noCategories')}</p>}>
            <ul class="check-list">
              <For each={ready(categories) ?? []}>
                {(c) => (
                  <li>
                    <input
                      id={`le-category-${c.id}`}
                      type="checkbox"
                      checked={chosen().includes(c.id)}
                      onChange={(e) => setChosen(e.currentTarget.checked ? [...chosen(), c.id] : chosen().filter((x) => x !== c.id))}
                    />
                    <label for={`le-category-${c.id}`}>{t('admin.devices.categoryOfEvent', { category: c.name, event: props.eventTitle(c.eventId) })}</label>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </fieldset>
        <SaveButtons action={saving} label={t('admin.devices.saveList')}>
          <button type="button" class="button button-quiet" onClick={() => props.onClose()}>
            {t('admin.devices.cancelList')}
          </button>
        </SaveButtons>
      </form>
    </section>
  );
}

function NewDevice(props: { events: Array<{ id: number; title: string }>; onCreated: (name: string, pairing: DevicePairing) => void }): JSX.Element {
  const [name, setName] = createSignal('');
  const [eventIds, setEventIds] = createSignal<number[]>([]);
  // the check-in list: categories of the chosen events (none ticked = every ticket)
  const [categoryIds, setCategoryIds] = createSignal<number[]>([]);
  const [categories] = createResource(() => (eventIds().length > 0 ? [...eventIds()] : null), listTicketCategories);
  const eventTitle = (id: number) => props.events.find((e) => e.id === id)?.title ?? t('admin.devices.eventNumber', { id });
  const offered = () => (eventIds().length > 0 ? (ready(categories) ?? []).filter((c) => eventIds().includes(c.eventId)) : []);
  const saving = createSaveAction();
  const submit = async () => {
    if (saving.busy()) return;
    if (eventIds().length === 0) return saving.fail(t('admin.devices.chooseEvent'));
    await saving.run(async () => {
      const chosen = categoryIds().filter((id) => offered().some((c) => c.id === id));
      const created = await createDevice({ name: name().trim(), eventIds: eventIds(), categoryIds: chosen.length > 0 ? chosen : null });
      setName('');
      setEventIds([]);
      setCategoryIds([]);
      props.onCreated(created.name, created.pairing);
    });
  };
  return (
    <section class="section" aria-labelledby="new-device-heading">
      <h2 id="new-device-heading">{t('admin.devices.addHeading')}</h2>
      <form class="form form-wide" onSubmit={submitWith(submit)}>
        <TextField id="nd-name" label={t('admin.devices.name')} value={name()} onInput={setName} required hint={t('admin.devices.nameHint')} />
        <fieldset class="field">
          <legend>{t('admin.devices.events')}</legend>
          <Show when={props.events.length > 0} fallback={<p class="status-text">{t('admin.devices.noEvents')}</p>}>
            <ul class="check-list">
              <For each={props.events}>
                {(ev) => (
                  <li>
                    <input
                      id={`nd-event-${ev.id}`}
                      type="checkbox"
                      checked={eventIds().includes(ev.id)}
                      onChange={(e) => setEventIds(e.currentTarget.checked ? [...eventIds(), ev.id] : eventIds().filter((x) => x !== ev.id))}
                    />
                    <label for={`nd-event-${ev.id}`}>{ev.title}</label>
                  </li>
                )}
              </For>
            </ul>
          </Show>
        </fieldset>
        <Show when={offered().length > 0}>
          <fieldset class="field" aria-describedby="nd-categories-hint">
            <legend>{t('admin.devices.checkinList')}</legend>
            <p id="nd-categories-hint" class="field-hint">
              {t('admin.devices.checkinListHint')}
            </p>
            <ul class="check-list">
              <For each={offered()}>
                {(c) => (
                  <li>
                    <input
                      id={`nd-category-${c.id}`}
                      type="checkbox"
                      checked={categoryIds().includes(c.id)}
                      onChange={(e) => setCategoryIds(e.currentTarget.checked ? [...categoryIds(), c.id] : categoryIds().filter((x) => x !== c.id))}
                    />
                    <label for={`nd-category-${c.id}`}>{t('admin.devices.categoryOfEvent', { category: c.name, event: eventTitle(c.eventId) })}</label>
                  </li>
                )}
              </For>
            </ul>
          </fieldset>
        </Show>
        <SaveButtons action={saving} label={t('admin.devices.create')} />
      </form>
    </section>
  );
}
