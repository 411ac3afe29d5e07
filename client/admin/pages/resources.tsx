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
import { SaveButtons, TextField } from '../components/fields';
import { listBookingTypes } from '../data';
import { adminErrorMessage } from '../errors';
import { createSaveAction } from '../forms';
import { addResource, changeResource, listResources, removeResource, type ResourceDto } from '../resources-data';
import { ApiError } from '../../ui/errors';
import { submitWith } from '../../ui/forms';
import { A } from '../../router';
import { intlLocale, t, tx } from '../../i18n/i18n';

export default function AdminResourcesPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.resources.title')} area="booking">
      {() => (
        <ExtendedOnly what={t('admin.resources.title')}>
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
    <Show when={ids.length > 0} fallback={<span class="muted">{t('admin.resources.noType')}</span>}>
      <For each={ids}>
        {(id, i) => (
          <>
            {i() > 0 ? t('admin.resources.listSeparator') : ''}
            <A href={`/admin/booking-types/${id}`}>{ready(types)?.find((type) => type.id === id)?.title ?? t('admin.resources.typeNumber', { id })}</A>
          </>
        )}
      </For>
    </Show>
  );

  const askDelete = (r: ResourceDto) =>
    confirm.ask({
      title: t('admin.resources.deleteTitle', { name: r.name }),
      detail: r.bookingTypeIds.length > 0 ? t('admin.resources.deleteNeeded') : t('admin.resources.deleteDetail'),
      confirmLabel: t('admin.resources.deleteConfirm'),
      action: () => removeResource(r.id),
      onDone: () => {
        if (editing()?.id === r.id) setEditing(null);
        setNotice({ ok: true, text: t('admin.resources.deleted', { name: r.name }) });
        void refetch();
      },
    });

  return (
    <>
      <p class="field-hint">{t('admin.resources.intro')}</p>
      <ActionNoticeView notice={notice()} />
      <section aria-labelledby="resource-list-heading">
        <h2 id="resource-list-heading">{t('admin.resources.title')}</h2>
        <AsyncView
          resource={resources}
          retry={() => void refetch()}
          what={t('admin.resources.title')}
          isEmpty={(l) => l.length === 0}
          empty={<p class="status-text">{t('admin.resources.empty')}</p>}
        >
          {(list) => (
            <DataTable
              labelledBy="resource-list-heading"
              columns={[t('admin.resources.col.name'), t('admin.resources.col.capacity'), t('admin.resources.col.neededBy'), t('admin.resources.col.actions')]}
              rows={list()}
            >
              {(r) => (
                <tr>
                  <td>{r.name}</td>
                  <td>{r.capacity.toLocaleString(intlLocale())}</td>
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
                      {tx('admin.resources.edit', { name: r.name, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                    </button>
                    <button type="button" class="button button-small button-quiet button-danger-text" onClick={() => askDelete(r)}>
                      {tx('admin.resources.delete', { name: r.name, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
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
              setNotice({ ok: true, text: t('admin.resources.added', { name: saved.name }) });
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
              setNotice({ ok: true, text: t('admin.resources.saved', { name: saved.name }) });
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
    if (problem !== undefined) out[field] = typeof problem === 'string' ? problem : t('admin.resources.invalid');
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
  const saving = createSaveAction();

  /** The problems at their fields, the first one focused; `message` for the status line. */
  const refuse = (fields: FieldErrors, message: string) => {
    setErrors(fields);
    const first = fields.name ? 'name' : fields.capacity ? 'capacity' : null;
    if (first) document.getElementById(`${prefix}-${first}`)?.focus();
    return message;
  };

  const submit = async () => {
    if (saving.busy()) return;
    const fields: FieldErrors = {};
    if (!name().trim()) fields.name = t('admin.resources.nameMissing');
    const cap = capacity().trim();
    if (!/^\d+$/.test(cap) || Number(cap) < 1 || Number(cap) > 1000) fields.capacity = t('admin.resources.capacityInvalid');
    if (fields.name || fields.capacity) return saving.fail(refuse(fields, t('admin.resources.fixFields')));
    setErrors({});
    const input = { name: name().trim(), capacity: Number(cap) };
    await saving.run(
      async () => {
        const saved = editing ? await changeResource(editing.id, input) : await addResource(input);
        if (!editing) {
          setName('');
          setCapacity('1');
        }
        props.onSaved(saved);
      },
      (err) => {
        const byField = fieldErrorsOf(err);
        return refuse(byField ?? {}, byField ? t('admin.resources.fixFields') : adminErrorMessage(err));
      },
    );
  };

  const headingId = `${prefix}-heading`;
  return (
    <section class="section" aria-labelledby={headingId}>
      <h2 id={headingId}>{editing ? t('admin.resources.editHeading', { name: editing.name }) : t('admin.resources.addHeading')}</h2>
      <form class="form" onSubmit={submitWith(submit)} aria-labelledby={headingId} novalidate>
        <TextField
          id={`${prefix}-name`}
          label={t('admin.resources.name')}
          value={name()}
          onInput={setName}
          maxLength={190}
          required
          error={errors().name}
          hint={t('admin.resources.nameHint')}
          autofocus={editing !== null}
        />
        <TextField
          id={`${prefix}-capacity`}
          label={t('admin.resources.capacity')}
          type="number"
          min="1"
          max="1000"
          value={capacity()}
          onInput={setCapacity}
          required
          error={errors().capacity}
          hint={t('admin.resources.capacityHint')}
        />
        <SaveButtons action={saving} label={editing ? t('admin.resources.save') : t('admin.resources.add')}>
          <Show when={props.onCancel}>
            {(cancel) => (
              <button type="button" class="button button-quiet" onClick={() => cancel()()}>
                {t('admin.resources.cancel')}
              </button>
            )}
          </Show>
        </SaveButtons>
      </form>
    </section>
  );
}
