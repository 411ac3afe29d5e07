/**
 * `/admin/webhooks` (extended edition): the endpoints that receive signed event notifications,
 * with their events and state, and "Add endpoint": address, description and the events to send.
 * The new endpoint's signing secret is shown once, right after it is made (docs/api.md#webhooks).
 */
import { createResource, createSignal, Show, type JSX } from 'solid-js';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { summarizeEventTypes } from '../components/event-type-picker';
import { ExtendedOnly } from '../components/extended-only';
import { checkEndpoint, EndpointFields, EndpointStatus, focusFirstProblem, SigningSecret, type EndpointValues } from '../components/webhook-endpoint';
import { adminErrorMessage } from '../errors';
import { createSaveAction } from '../forms';
import { createWebhook, listWebhooks, refusedFields, webhookCatalogue, type WebhookCatalogueDto, type WebhookEndpointWithSecretDto } from '../webhooks-data';
import { FormError } from '../../ui/form-error';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';
import { A } from '../../router';
import { t } from '../../i18n/i18n';

export default function AdminWebhooksPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.webhooks.title')} area="integrations">
      {() => (
        <ExtendedOnly what={t('admin.webhooks.title')}>
          <Webhooks />
        </ExtendedOnly>
      )}
    </AdminFrame>
  );
}

function Webhooks(): JSX.Element {
  const [endpoints, { refetch }] = createResource(listWebhooks);
  const [catalogue, { refetch: refetchCatalogue }] = createResource(webhookCatalogue);
  const [created, setCreated] = createSignal<WebhookEndpointWithSecretDto | null>(null);
  const [formKey, setFormKey] = createSignal(1);

  return (
    <>
      <p class="lead">{t('admin.webhooks.intro')}</p>
      <Show when={created()} keyed>
        {(c) => (
          <SigningSecret id="new-secret" heading={t('admin.webhooks.secretFor', { url: c.url })} secret={c.secret} onDone={() => setCreated(null)}>
            <A href={`/admin/webhooks/${c.id}`}>{t('admin.webhooks.openEndpoint')}</A>
          </SigningSecret>
        )}
      </Show>
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">{t('admin.webhooks.heading')}</h2>
        <AsyncView
          resource={endpoints}
          retry={() => void refetch()}
          what={t('admin.webhooks.heading')}
          isEmpty={(list) => list.length === 0}
          empty={<p class="status-text">{t('admin.webhooks.empty')}</p>}
        >
          {(list) => (
            <DataTable
              labelledBy="endpoints-heading"
              columns={[t('admin.webhooks.col.endpoint'), t('admin.webhooks.col.events'), t('admin.webhooks.col.status'), t('admin.webhooks.col.created')]}
              rows={list()}
            >
              {(e) => (
                <tr data-webhook-id={e.id}>
                  <td class="cell-webhook-url">
                    <A href={`/admin/webhooks/${e.id}`}>{e.url}</A>
                    <Show when={e.description}>
                      <div class="muted">{e.description}</div>
                    </Show>
                  </td>
                  <td>{summarizeEventTypes(e.events, ready(catalogue))}</td>
                  <td>
                    <EndpointStatus endpoint={e} />
                  </td>
                  <td>
                    <time datetime={isoDateTime(e.createdUtc)}>{formatUtcDateTime(e.createdUtc)}</time>
                  </td>
                </tr>
              )}
            </DataTable>
          )}
        </AsyncView>
      </section>
      <section class="section" aria-labelledby="new-endpoint-heading">
        <h2 id="new-endpoint-heading">{t('admin.webhooks.add')}</h2>
        <AsyncView resource={catalogue} retry={() => void refetchCatalogue()} what={t('admin.webhooks.eventTypes')}>
          {(types) => (
            // a fresh, empty form after each endpoint added
            <Show when={formKey()} keyed>
              {(_generation) => (
                <NewEndpoint
                  catalogue={types()}
                  onCreated={(endpoint) => {
                    setCreated(endpoint);
                    setFormKey((n) => n + 1);
                    void refetch();
                  }}
                />
              )}
            </Show>
          )}
        </AsyncView>
      </section>
    </>
  );
}

function NewEndpoint(props: { catalogue: WebhookCatalogueDto; onCreated: (endpoint: WebhookEndpointWithSecretDto) => void }): JSX.Element {
  const [values, setValues] = createSignal<EndpointValues>({ url: '', description: '', events: [] });
  const [problems, setProblems] = createSignal<Record<string, string>>({});
  const adding = createSaveAction();

  /** The problems at their fields; the message under the button points to them. */
  const refuse = (found: Record<string, string>) => {
    setProblems(found);
    focusFirstProblem('nw', found);
    return t('admin.webhooks.notAddedFields');
  };

  const submit = async () => {
    if (adding.busy()) return;
    adding.reset();
    const found = checkEndpoint(values());
    if (Object.keys(found).length > 0) return adding.fail(refuse(found));
    setProblems({});
    await adding.run(
      async () => {
        const v = values();
        props.onCreated(await createWebhook({ url: v.url.trim(), description: v.description.trim(), events: v.events }));
      },
      (err) => {
        const refused = refusedFields(err);
        return Object.keys(refused).length > 0 ? refuse(refused) : t('admin.webhooks.notAdded', { reason: adminErrorMessage(err) });
      },
    );
  };

  return (
    <form class="form form-wide" onSubmit={submitWith(submit)} novalidate aria-labelledby="new-endpoint-heading">
      <EndpointFields idPrefix="nw" values={values()} onChange={setValues} catalogue={props.catalogue} problems={problems()} />
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={adding.busy()}>
          {adding.busy() ? t('admin.webhooks.adding') : t('admin.webhooks.add')}
        </button>
      </div>
      <FormError message={adding.error()} />
    </form>
  );
}
