/**
 * `/admin/resources` (extended edition; docs/api.md#resources): rooms and equipment that booking
 * types need. List, add, rename, change the capacity, delete (refused while a type needs it).
 */
import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { DataTable } from '../components/data-table';
import { ExtendedOnly } from '../components/extended-only';
import { SaveStatus, TextField } from '../components/fields';
import { listBookingTypes } from '../data';
import { adminErrorMessage } from '../errors';
import { addResource, changeResource, listResources, removeResource, type ResourceDto } from '../resources-data';
import { ApiError } from '../../ui/errors';
import { submitWith } from '../../ui/forms';
import { A } from '../../router';

export default function AdminResourcesPage(): JSX.Element {
  return (
    <AdminFrame title="Resources" area="booking">
      {() => (
        <ExtendedOnly what="Resources">
          <Resources />
        </ExtendedOnly>
      )}
    </AdminFrame>
  );
}

function Resources(): JSX.Element {
  const [resources, { refetch }] = createResource(listResources);
  const [types] = createResource(listBookingTypes);
  const [editing, setEditing] = createSignal<ResourceDto | null>(null);
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const confirm = createConfirm();

  const typeLinks = (ids: number[]) => (
    <Show when={ids.length > 0} fallback={<span class="muted">No booking type yet</span>}>
      <For each={ids}>
        {(id, i) => (
          <>
            {i() > 0 ? ', ' : ''}
            <A href={`/admin/booking-types/${id}`}>{ready(types)?.find((t) => t.id === id)?.title ?? `Booking type #${id}`}</A>
          </>
        )}
      </For>
    </Show>
  );

  const askDelete = (r: ResourceDto) =>
    confirm.ask({
      title: `Delete the resource “${r.name}”?`,
      detail:
        r.bookingTypeIds.length > 0
          ? 'Booking types still need it: remove it from them first (the server refuses otherwise).'
          : 'Booking types can no longer be given it. Bookings already made are not touched.',
      confirmLabel: 'Delete resource',
      action: () => removeResource(r.id),
      onDone: () => {
        if (editing()?.id === r.id) setEditing(null);
        setNotice({ ok: true, text: `Deleted ${r.name}.` });
        void refetch();
      },
    });

  return (
    <>
      <p class="field-hint">
        A resource is something bookings share: a room, a projector. Give it to booking types on their form; a slot is offered only while every resource it
        needs has room, counting the bookings (with their buffers) of every type that needs it. Capacity = how many bookings it holds at once (seats of one
        group session count once).
      </p>
      <ActionNoticeView notice={notice()} />
      <section aria-labelledby="resource-list-heading">
        <h2 id="resource-list-heading">Resources</h2>
        <AsyncView
          resource={resources}
          retry={() => void refetch()}
          what="Resources"
          isEmpty={(l) => l.length === 0}
          empty={<p class="status-text">No resources yet. Add the first one below.</p>}
        >
          {(list) => (
            <DataTable labelledBy="resource-list-heading" columns={['Name', 'Capacity', 'Needed by', 'Actions']} rows={list()}>
              {(r) => (
                <tr>
                  <td>{r.name}</td>
                  <td>{r.capacity}</td>
                  <td>{typeLinks(r.bookingTypeIds)}</td>
                  <td class="cell-actions">
                    <button
                      type="button"
                      class="button button-small button-quiet"
                      onClick={() => {
                        setNotice(null);
                        setEditing(r);
                      }}
                    >
                      Edit<span class="visually-hidden"> {r.name}</span>
                    </button>
                    <button type="button" class="button button-small button-quiet button-danger-text" onClick={() => askDelete(r)}>
                      Delete<span class="visually-hidden"> {r.name}</span>
                    </button>
                  </td>
                </tr>
              )}
            </DataTable>
          )}
        </AsyncView>
      </section>
      <Show
        when={editing()}
        keyed
        fallback={
          <ResourceForm
            resource={null}
            onSaved={(saved) => {
              setNotice({ ok: true, text: `Added ${saved.name}.` });
              void refetch();
            }}
          />
        }
      >
        {(current) => (
          <ResourceForm
            resource={current}
            onSaved={(saved) => {
              setEditing(null);
              setNotice({ ok: true, text: `Saved ${saved.name}.` });
              void refetch();
            }}
            onCancel={() => setEditing(null)}
          />
        )}
      </Show>
      {confirm.view()}
    </>
  );
}

type FieldErrors = Partial<Record<'name' | 'capacity', string>>;

/** The server's per-field problems of a validation error, or null for any other error. */
function fieldErrorsOf(err: unknown): FieldErrors | null {
  if (!(err instanceof ApiError) || err.code !== 'svc_invalid_param') return null;
  const params = err.data?.params ?? {};
  const out: FieldErrors = {};
  for (const field of ['name', 'capacity'] as const) {
    const problem = params[field] ?? params[`patch.${field}`];
    if (problem !== undefined) out[field] = typeof problem === 'string' ? problem : 'is invalid';
  }
  return Object.keys(out).length > 0 ? out : null;
}

/** Add a resource (`resource` null) or edit one: the problems show at their field. */
function ResourceForm(props: { resource: ResourceDto | null; onSaved: (saved: ResourceDto) => void; onCancel?: () => void }): JSX.Element {
  const editing = props.resource;
  const prefix = editing ? `res-edit-${editing.id}` : 'res-new';
  const [name, setName] = createSignal(editing?.name ?? '');
  const [capacity, setCapacity] = createSignal(String(editing?.capacity ?? 1));
  const [errors, setErrors] = createSignal<FieldErrors>({});
  const [state, setState] = createSignal<'idle' | 'saving' | 'saved' | 'failed'>('idle');
  const [error, setError] = createSignal<string | null>(null);

  const fail = (fields: FieldErrors, message: string) => {
    setErrors(fields);
    setError(message);
    setState('failed');
    const first = fields.name ? 'name' : fields.capacity ? 'capacity' : null;
    if (first) document.getElementById(`${prefix}-${first}`)?.focus();
  };

  const submit = async () => {
    if (state() === 'saving') return;
    const fields: FieldErrors = {};
    if (!name().trim()) fields.name = 'Give the resource a name.';
    const cap = capacity().trim();
    if (!/^\d+$/.test(cap) || Number(cap) < 1 || Number(cap) > 1000) fields.capacity = 'A whole number from 1 to 1000.';
    if (fields.name || fields.capacity) return fail(fields, 'Fix the marked fields.');
    setErrors({});
    setError(null);
    setState('saving');
    const input = { name: name().trim(), capacity: Number(cap) };
    try {
      const saved = editing ? await changeResource(editing.id, input) : await addResource(input);
      setState('saved');
      if (!editing) {
        setName('');
        setCapacity('1');
      }
      props.onSaved(saved);
    } catch (err) {
      const byField = fieldErrorsOf(err);
      fail(byField ?? {}, byField ? 'Fix the marked fields.' : adminErrorMessage(err));
    }
  };

  const headingId = `${prefix}-heading`;
  return (
    <section class="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{editing ? `Edit “${editing.name}”` : 'Add a resource'}</h2>
      <form class="form" onSubmit={submitWith(submit)} aria-labelledby={headingId} novalidate>
        <TextField
          id={`${prefix}-name`}
          label="Name"
          value={name()}
          onInput={setName}
          maxLength={190}
          required
          error={errors().name}
          hint="E.g. “Room 2” or “Projector”."
          autofocus={editing !== null}
        />
        <TextField
          id={`${prefix}-capacity`}
          label="Capacity"
          type="number"
          min="1"
          max="1000"
          value={capacity()}
          onInput={setCapacity}
          required
          error={errors().capacity}
          hint="How many bookings it holds at once: 1 for a room, 3 for three projectors."
        />
        <div class="button-row">
          <button type="submit" class="button" aria-disabled={state() === 'saving'}>
            {editing ? 'Save changes' : 'Add resource'}
          </button>
          <Show when={props.onCancel}>
            {(cancel) => (
              <button type="button" class="button button-quiet" onClick={() => cancel()()}>
                Cancel
              </button>
            )}
          </Show>
        </div>
        <SaveStatus state={state()} error={error()} />
      </form>
    </section>
  );
}
