/**
 * `/admin/webhooks/{id}` (extended edition): one endpoint — its state, a test ping, a new signing
 * secret (shown once), deletion after a confirmation, the edit form (address, description,
 * events, on/off) — and its deliveries a page at a time: status, attempts, the receiver's answer,
 * the next try, the payload as sent, and Redeliver (docs/api.md#webhooks).
 */
import { createEffect, createResource, createSignal, on, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ItemStatus } from '../components/async-view';
import { createConfirm } from '../components/confirm';
import { DataTable } from '../components/data-table';
import { summarizeEventTypes } from '../components/event-type-picker';
import { ExtendedOnly } from '../components/extended-only';
import { CheckboxField, SaveButtons } from '../components/fields';
import { Pager } from '../components/pager';
import {
  checkEndpoint,
  EndpointFields,
  EndpointStatus,
  endpointState,
  focusFirstProblem,
  SigningSecret,
  type EndpointValues,
} from '../components/webhook-endpoint';
import { adminErrorMessage } from '../errors';
import { createSaveAction } from '../forms';
import {
  getDelivery,
  getWebhook,
  listDeliveries,
  redeliver,
  refusedFields,
  removeWebhook,
  rotateWebhookSecret,
  sendTestPing,
  updateWebhook,
  webhookCatalogue,
  type WebhookCatalogueDto,
  type WebhookDeliveryDto,
  type WebhookEndpointDto,
} from '../webhooks-data';
import { ApiError } from '../../ui/errors';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { submitWith } from '../../ui/forms';
import { A, navigate, type RouteProps } from '../../router';
import { intlLocale, t, tx } from '../../i18n/i18n';

export const DELIVERIES_PER_PAGE = 25;

export default function AdminWebhookPage(props: RouteProps): JSX.Element {
  const id = Number(props.params.id);
  return (
    <AdminFrame title={t('admin.webhook.title', { id: props.params.id })} area="integrations">
      {() => (
        <ExtendedOnly what={t('admin.webhooks.title')}>
          <WebhookView id={id} />
        </ExtendedOnly>
      )}
    </AdminFrame>
  );
}

function When(props: { utc: string | null }): JSX.Element {
  return (
    <Show when={props.utc} fallback={<span class="muted">—</span>}>
      {(utc) => <time datetime={isoDateTime(utc())}>{formatUtcDateTime(utc())}</time>}
    </Show>
  );
}

function WebhookView(props: { id: number }): JSX.Element {
  const valid = Number.isInteger(props.id) && props.id > 0;
  const [endpoint, { mutate, refetch }] = createResource(
    () => (valid ? props.id : null),
    (id) => getWebhook(id),
  );
  const [catalogue] = createResource(webhookCatalogue);
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const [secret, setSecret] = createSignal<string | null>(null);
  const [deliveriesVersion, setDeliveriesVersion] = createSignal(0);
  const confirm = createConfirm();
  let noticeBox: HTMLDivElement | undefined;

  const current = () => (endpoint.state === 'ready' || endpoint.state === 'refreshing' ? endpoint.latest : undefined);
  const missing = () => !valid || (endpoint.state === 'errored' && endpoint.error instanceof ApiError && endpoint.error.status === 404);
  const knownCatalogue = () => (catalogue.state === 'ready' ? catalogue.latest : undefined);
  const say = (next: ActionNotice) => {
    setNotice(next);
    queueMicrotask(() => noticeBox?.focus());
  };

  const test = async (e: WebhookEndpointDto) => {
    setNotice(null);
    try {
      await sendTestPing(e.id);
      say({ ok: true, text: t('admin.webhook.pingQueued') });
      setDeliveriesVersion((v) => v + 1);
    } catch (err) {
      say({ ok: false, text: t('admin.webhook.pingFailed', { reason: adminErrorMessage(err) }) });
    }
  };

  const reenable = async (e: WebhookEndpointDto) => {
    setNotice(null);
    try {
      mutate(await updateWebhook(e.id, { active: true }));
      say({ ok: true, text: t('admin.webhook.reenabled') });
    } catch (err) {
      say({ ok: false, text: t('admin.webhook.reenableFailed', { reason: adminErrorMessage(err) }) });
    }
  };

  const askRotate = (e: WebhookEndpointDto) =>
    confirm.ask({
      title: t('admin.webhook.rotateTitle', { url: e.url }),
      detail: t('admin.webhook.rotateDetail'),
      confirmLabel: t('admin.webhook.rotateConfirm'),
      action: async () => {
        const rotated = await rotateWebhookSecret(e.id);
        setNotice(null);
        setSecret(rotated.secret);
        const { secret: _shownOnce, ...rest } = rotated;
        mutate(rest);
      },
    });

  const askDelete = (e: WebhookEndpointDto) =>
    confirm.ask({
      title: t('admin.webhook.deleteTitle', { url: e.url }),
      detail: t('admin.webhook.deleteDetail'),
      confirmLabel: t('admin.webhook.deleteConfirm'),
      action: () => removeWebhook(e.id),
      onDone: () => navigate('/admin/webhooks'),
    });

  return (
    <>
      <p>
        <A href="/admin/webhooks">{t('admin.webhook.back')}</A>
      </p>
      <ItemStatus resource={endpoint} retry={() => void refetch()} missing={missing()} what={t('admin.webhook.what')} id={props.id} />
      <div ref={noticeBox} tabindex="-1">
        <ActionNoticeView notice={notice()} />
      </div>
      <Show when={secret()} keyed>
        {(s) => <SigningSecret id="rotated-secret" heading={t('admin.webhook.newSecret')} secret={s} onDone={() => setSecret(null)} />}
      </Show>
      <Show when={current()}>
        {(e) => (
          <>
            <section aria-labelledby="endpoint-heading">
              <h2 id="endpoint-heading" class="webhook-url">
                {e().url}
              </h2>
              <dl class="facts">
                <dt>{t('admin.webhook.status')}</dt>
                <dd>
                  <EndpointStatus endpoint={e()} />
                </dd>
                <dt>{t('admin.webhook.events')}</dt>
                <dd>{summarizeEventTypes(e().events, knownCatalogue())}</dd>
                <Show when={e().description}>
                  <dt>{t('admin.webhook.description')}</dt>
                  <dd>{e().description}</dd>
                </Show>
                <dt>{t('admin.webhook.created')}</dt>
                <dd>
                  <When utc={e().createdUtc} />
                </dd>
              </dl>
              <Show when={endpointState(e()) === 'disabled'}>
                <div class="notice notice-attention">
                  <p>
                    {tx('admin.webhook.disabledNotice', {
                      when: formatUtcDateTime(e().disabledUtc),
                      time: (chunks) => <time datetime={isoDateTime(e().disabledUtc)}>{chunks}</time>,
                    })}
                  </p>
                  <button type="button" class="button button-small" onClick={() => void reenable(e())}>
                    {t('admin.webhook.switchOn')}
                  </button>
                </div>
              </Show>
              <div class="button-row">
                <button type="button" class="button button-small" onClick={() => void test(e())}>
                  {t('admin.webhook.ping')}
                </button>
                <button type="button" class="button button-small button-quiet" onClick={() => askRotate(e())}>
                  {t('admin.webhook.rotate')}
                </button>
                <button type="button" class="button button-small button-quiet button-danger-text" onClick={() => askDelete(e())}>
                  {tx('admin.webhook.delete', { hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                </button>
              </div>
            </section>

            <Deliveries endpointId={e().id} version={deliveriesVersion()} onNotice={say} onRefresh={() => void refetch()} />

            <section class="section" aria-labelledby="edit-heading">
              <h2 id="edit-heading">{t('admin.webhook.editHeading')}</h2>
              <Show when={knownCatalogue()} fallback={<p class="status-text">{t('admin.webhook.loadingTypes')}</p>}>
                {(types) => <EditEndpoint endpoint={e()} catalogue={types()} onSaved={mutate} />}
              </Show>
            </section>
          </>
        )}
      </Show>
      {confirm.view()}
    </>
  );
}

function EditEndpoint(props: { endpoint: WebhookEndpointDto; catalogue: WebhookCatalogueDto; onSaved: (saved: WebhookEndpointDto) => void }): JSX.Element {
  const initial = props.endpoint;
  const [values, setValues] = createSignal<EndpointValues>({ url: initial.url, description: initial.description, events: [...initial.events] });
  const [active, setActive] = createSignal(initial.active);
  const [problems, setProblems] = createSignal<Record<string, string>>({});
  const saving = createSaveAction();
  // switched on elsewhere on the page ("Switch on again"): the checkbox follows
  createEffect(on(() => props.endpoint.active, setActive, { defer: true }));

  /** The problems at their fields; the status line points to them. */
  const refuse = (found: Record<string, string>) => {
    setProblems(found);
    focusFirstProblem('ed', found);
    return t('admin.webhook.seeFields');
  };

  const save = async () => {
    if (saving.busy()) return;
    const found = checkEndpoint(values());
    if (Object.keys(found).length > 0) return saving.fail(refuse(found));
    setProblems({});
    await saving.run(
      async () => {
        const v = values();
        props.onSaved(await updateWebhook(props.endpoint.id, { url: v.url.trim(), description: v.description.trim(), events: v.events, active: active() }));
      },
      (err) => {
        const refused = refusedFields(err);
        return Object.keys(refused).length > 0 ? refuse(refused) : adminErrorMessage(err);
      },
    );
  };

  return (
    <form class="form form-wide" onSubmit={submitWith(save)} novalidate aria-labelledby="edit-heading">
      <EndpointFields idPrefix="ed" values={values()} onChange={setValues} catalogue={props.catalogue} problems={problems()} />
      <CheckboxField id="ed-active" label={t('admin.webhook.active')} checked={active()} onChange={setActive} hint={t('admin.webhook.activeHint')} />
      <SaveButtons action={saving} label={t('admin.webhook.save')} />
    </form>
  );
}

const DELIVERY_STATUS_LABELS: Record<WebhookDeliveryDto['status'], () => string> = {
  pending: () => t('admin.webhook.delivery.pending'),
  delivered: () => t('admin.webhook.delivery.delivered'),
  failed: () => t('admin.webhook.delivery.failed'),
};
const deliveryColumns = () => [
  t('admin.webhook.col.type'),
  t('admin.webhook.col.status'),
  t('admin.webhook.col.attempts'),
  t('admin.webhook.col.response'),
  t('admin.webhook.col.duration'),
  t('admin.webhook.col.nextTry'),
  t('admin.webhook.col.created'),
  t('admin.webhook.col.lastError'),
  t('admin.webhook.col.actions'),
];

/** `onRefresh`: the endpoint's own state (failing since …) moves with its deliveries, so Refresh reloads it too. */
function Deliveries(props: { endpointId: number; version: number; onNotice: (notice: ActionNotice) => void; onRefresh: () => void }): JSX.Element {
  const [page, setPage] = createSignal(1);
  const [open, setOpen] = createSignal<number | null>(null);
  // a test ping or a redelivery is newest: back to the first page
  createEffect(
    on(
      () => props.version,
      () => setPage(1),
      { defer: true },
    ),
  );
  const [deliveries, { refetch }] = createResource(
    () => ({ id: props.endpointId, page: page(), version: props.version }),
    (q) => listDeliveries(q.id, q.page, DELIVERIES_PER_PAGE),
  );
  let tableTop: HTMLParagraphElement | undefined;

  const again = async (d: WebhookDeliveryDto) => {
    try {
      await redeliver(props.endpointId, d.id);
      props.onNotice({ ok: true, text: t('admin.webhook.redelivered', { id: d.id, type: d.type }) });
      void refetch();
    } catch (err) {
      props.onNotice({ ok: false, text: t('admin.webhook.redeliverFailed', { id: d.id, reason: adminErrorMessage(err) }) });
    }
  };

  return (
    <section class="section" aria-labelledby="deliveries-heading">
      <div class="section-header deliveries-header">
        <h2 id="deliveries-heading">{t('admin.webhook.deliveries')}</h2>
        <button
          type="button"
          class="button button-small button-quiet"
          onClick={() => {
            props.onRefresh();
            void refetch();
          }}
        >
          {tx('admin.webhook.refresh', { hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
        </button>
      </div>
      <AsyncView
        resource={deliveries}
        retry={() => void refetch()}
        what={t('admin.webhook.deliveries')}
        isEmpty={(listing) => listing.total === 0}
        empty={<p class="status-text">{t('admin.webhook.noDeliveries')}</p>}
      >
        {(listing) => (
          <>
            <p class="status-text" role="status" tabindex="-1" ref={tableTop}>
              {listing().total > DELIVERIES_PER_PAGE
                ? t('admin.webhook.countShown', {
                    count: listing().total,
                    first: (page() - 1) * DELIVERIES_PER_PAGE + 1,
                    last: Math.min(page() * DELIVERIES_PER_PAGE, listing().total),
                    asOf: new Date(listing().asOfMs).toLocaleTimeString(intlLocale()),
                  })
                : t('admin.webhook.count', { count: listing().total, asOf: new Date(listing().asOfMs).toLocaleTimeString(intlLocale()) })}
            </p>
            <DataTable labelledBy="deliveries-heading" class="table-deliveries" columns={deliveryColumns()} rows={listing().items}>
              {(d) => (
                <>
                  <tr data-delivery-id={d.id}>
                    <td>
                      <code>{d.type}</code>
                    </td>
                    <td>
                      <span class={`state state-${d.status}`}>{DELIVERY_STATUS_LABELS[d.status]()}</span>
                    </td>
                    <td>{d.attempts.toLocaleString(intlLocale())}</td>
                    <td>{d.lastResponseCode ?? <span class="muted">—</span>}</td>
                    <td>{d.durationMs === null ? <span class="muted">—</span> : t('admin.webhook.durationMs', { ms: d.durationMs })}</td>
                    <td>
                      <When utc={d.nextAttemptUtc} />
                    </td>
                    <td>
                      <When utc={d.createdUtc} />
                    </td>
                    <td class="cell-delivery-error">{d.lastError ?? <span class="muted">—</span>}</td>
                    <td class="cell-actions">
                      <button
                        type="button"
                        class="button button-small button-quiet"
                        aria-expanded={open() === d.id}
                        aria-controls={`delivery-${d.id}-payload`}
                        onClick={() => setOpen(open() === d.id ? null : d.id)}
                      >
                        {tx('admin.webhook.payload', { id: d.id, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                      <button type="button" class="button button-small button-quiet" onClick={() => void again(d)}>
                        {tx('admin.webhook.redeliver', { id: d.id, hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
                      </button>
                    </td>
                  </tr>
                  <Show when={open() === d.id}>
                    <tr id={`delivery-${d.id}-payload`} class="delivery-payload-row">
                      <td colSpan={deliveryColumns().length}>
                        <DeliveryPayload endpointId={props.endpointId} deliveryId={d.id} />
                      </td>
                    </tr>
                  </Show>
                </>
              )}
            </DataTable>
            <Pager
              page={page()}
              perPage={DELIVERIES_PER_PAGE}
              total={listing().total}
              what={t('admin.webhook.pagerWhat')}
              onPage={(n) => {
                setPage(n);
                tableTop?.focus();
              }}
            />
          </>
        )}
      </AsyncView>
    </section>
  );
}

/** The body as it was sent (fixed when the event happened), pretty-printed. */
function DeliveryPayload(props: { endpointId: number; deliveryId: number }): JSX.Element {
  const [detail, { refetch }] = createResource(() => getDelivery(props.endpointId, props.deliveryId));
  return (
    <AsyncView resource={detail} retry={() => void refetch()} what={t('admin.webhook.payloadWhat')}>
      {(d) => (
        <>
          <p class="field-hint">{tx('admin.webhook.messageId', { id: d().messageId, c: (chunks) => <code>{chunks}</code> })}</p>
          <pre class="delivery-payload" tabindex="0" aria-label={t('admin.webhook.payloadOf', { id: d().id })}>
            {JSON.stringify(d().payload, null, 2)}
          </pre>
        </>
      )}
    </AsyncView>
  );
}
