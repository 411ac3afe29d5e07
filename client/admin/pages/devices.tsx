import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import type { ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { createConfirm } from '../components/confirm';
import { PairingQr } from '../components/pairing-qr';
import { SaveStatus, TextField } from '../components/fields';
import { createDevice, listDevices, listEvents, newPairingCode, revokeDevice, setDeviceWalkIns, type DeviceDto, type DevicePairing } from '../data';
import { deviceState } from '../device-state';
import { adminErrorMessage } from '../errors';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';

export default function AdminDevicesPage(): JSX.Element {
  return (
    <AdminFrame title="Door devices" area="devices">
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

  const eventTitle = (id: number) => ready(events)?.find((e) => e.id === id)?.title ?? `Event #${id}`;

  const toggleWalkIns = async (d: DeviceDto, allowed: boolean) => {
    setNotice(null);
    try {
      await setDeviceWalkIns(d.id, allowed);
      setNotice({ ok: true, text: allowed ? `${d.name} may now register walk-ins.` : `${d.name} no longer registers walk-ins.` });
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
            <h2 id="pairing-heading">Pair “{p().name}”</h2>
            <p>
              On the door phone or tablet, open <strong>Door</strong> and scan this code, or type the pairing code. It works once, until{' '}
              <time datetime={isoDateTime(p().pairing.pairingExpiresUtc)}>{formatUtcDateTime(p().pairing.pairingExpiresUtc)}</time>.
            </p>
            <PairingQr url={p().pairing.pairingUrl} code={p().pairing.pairingCode} />
            <p>
              Pairing code: <code class="pairing-code">{p().pairing.pairingCode}</code>
            </p>
            <button type="button" class="button button-quiet" onClick={() => setPairing(null)}>
              Done
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
        <h2 id="device-list-heading">Devices</h2>
        <AsyncView
          resource={devices}
          retry={() => void refetch()}
          what="Devices"
          isEmpty={(l) => l.length === 0}
          empty={<p class="status-text">No door devices yet.</p>}
        >
          {(list) => (
            <DataTable
              labelledBy="device-list-heading"
              columns={['Name', 'Events', 'Last seen', 'Not yet synced', 'State', 'Walk-ins', 'Actions']}
              rows={list()}
            >
              {(d) => (
                <tr>
                  <td>{d.name}</td>
                  <td>{d.eventIds.map(eventTitle).join(', ')}</td>
                  <td>{d.lastSeenUtc ? formatUtcDateTime(d.lastSeenUtc) : <span class="muted">Never</span>}</td>
                  <td>{d.pendingCount ?? <span class="muted">—</span>}</td>
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
                      Walk-ins allowed<span class="visually-hidden"> on {d.name}</span>
                    </label>
                  </td>
                  <td class="cell-actions">
                    <Show when={!d.revokedUtc}>
                      <button type="button" class="button button-small button-quiet" onClick={() => void repair(d)}>
                        Pairing code<span class="visually-hidden"> for {d.name}</span>
                      </button>
                      <button
                        type="button"
                        class="button button-small button-quiet button-danger-text"
                        onClick={() =>
                          confirm.ask({
                            title: `Revoke the device “${d.name}”?`,
                            detail:
                              d.pendingCount && d.pendingCount > 0
                                ? `It last reported ${d.pendingCount} scans not yet synced; they will be refused.`
                                : 'It can no longer sync or check anyone in; the record stays.',
                            confirmLabel: 'Revoke device',
                            action: () => revokeDevice(d.id),
                            onDone: () => {
                              setNotice({ ok: true, text: `Revoked ${d.name}.` });
                              void refetch();
                            },
                          })
                        }
                      >
                        Revoke<span class="visually-hidden"> {d.name}</span>
                      </button>
                    </Show>
                  </td>
                </tr>
              )}
            </DataTable>
          )}
        </AsyncView>
      </section>
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

function NewDevice(props: { events: Array<{ id: number; title: string }>; onCreated: (name: string, pairing: DevicePairing) => void }): JSX.Element {
  const [name, setName] = createSignal('');
  const [eventIds, setEventIds] = createSignal<number[]>([]);
  const [state, setState] = createSignal<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const [error, setError] = createSignal<string | null>(null);
  const submit = async () => {
    setError(null);
    if (eventIds().length === 0) {
      setState('failed');
      setError('Choose at least one event.');
      return;
    }
    setState('saving');
    try {
      const created = await createDevice({ name: name().trim(), eventIds: eventIds() });
      setState('saved');
      setName('');
      setEventIds([]);
      props.onCreated(created.name, created.pairing);
    } catch (err) {
      setState('failed');
      setError(adminErrorMessage(err));
    }
  };
  return (
    <section class="section" aria-labelledby="new-device-heading">
      <h2 id="new-device-heading">Add a door device</h2>
      <form class="form form-wide" onSubmit={submitWith(submit)}>
        <TextField id="nd-name" label="Device name" value={name()} onInput={setName} required hint="Where it stands, e.g. “North door”." />
        <fieldset class="field">
          <legend>Events it checks in</legend>
          <Show when={props.events.length > 0} fallback={<p class="status-text">No events yet.</p>}>
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
        <div class="button-row">
          <button type="submit" class="button" aria-disabled={state() === 'saving'}>
            Create and show pairing code
          </button>
        </div>
        <SaveStatus state={state()} error={error()} />
      </form>
    </section>
  );
}
