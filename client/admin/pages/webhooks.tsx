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
import { createWebhook, listWebhooks, refusedFields, webhookCatalogue, type WebhookCatalogueDto, type WebhookEndpointWithSecretDto } from '../webhooks-data';
import { FormError } from '../../ui/form-error';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';
import { A } from '../../router';

export default function AdminWebhooksPage(): JSX.Element {
  return (
    <AdminFrame title="Webhooks" area="integrations">
      {() => (
        <ExtendedOnly what="Webhooks">
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
      <p class="lead">
        Each endpoint receives the events chosen for it as signed HTTP POSTs (Standard Webhooks). Failed deliveries are tried again for a while; an endpoint
        that keeps failing for five days is switched off.
      </p>
      <Show when={created()} keyed>
        {(c) => (
          <SigningSecret id="new-secret" heading={`Signing secret for ${c.url}`} secret={c.secret} onDone={() => setCreated(null)}>
            <A href={`/admin/webhooks/${c.id}`}>Open the endpoint</A>
          </SigningSecret>
        )}
      </Show>
      <section aria-labelledby="endpoints-heading">
        <h2 id="endpoints-heading">Endpoints</h2>
        <AsyncView
          resource={endpoints}
          retry={() => void refetch()}
          what="Endpoints"
          isEmpty={(list) => list.length === 0}
          empty={<p class="status-text">No endpoints yet. Add one below to send events to another system.</p>}
        >
          {(list) => (
            <DataTable labelledBy="endpoints-heading" columns={['Endpoint', 'Events', 'Status', 'Created']} rows={list()}>
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
        <h2 id="new-endpoint-heading">Add endpoint</h2>
        <AsyncView resource={catalogue} retry={() => void refetchCatalogue()} what="Event types">
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
  const [error, setError] = createSignal<string | null>(null);
  const [busy, setBusy] = createSignal(false);

  const refuse = (found: Record<string, string>, summary: string) => {
    setProblems(found);
    setError(summary);
    focusFirstProblem('nw', found);
  };

  const submit = async () => {
    if (busy()) return;
    setError(null);
    const found = checkEndpoint(values());
    if (Object.keys(found).length > 0) return refuse(found, 'The endpoint was not added: see the marked fields.');
    setProblems({});
    setBusy(true);
    try {
      const v = values();
      props.onCreated(await createWebhook({ url: v.url.trim(), description: v.description.trim(), events: v.events }));
    } catch (err) {
      const refused = refusedFields(err);
      if (Object.keys(refused).length > 0) refuse(refused, 'The endpoint was not added: see the marked fields.');
      else setError(`The endpoint was not added. ${adminErrorMessage(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="form form-wide" onSubmit={submitWith(submit)} novalidate aria-labelledby="new-endpoint-heading">
      <EndpointFields idPrefix="nw" values={values()} onChange={setValues} catalogue={props.catalogue} problems={problems()} />
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={busy()}>
          {busy() ? 'Adding…' : 'Add endpoint'}
        </button>
      </div>
      <FormError message={error()} />
    </form>
  );
}
