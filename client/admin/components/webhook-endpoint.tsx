/**
 * The parts the webhook pages share: an endpoint's state in words, its fields (address,
 * description, events) with their checks, and the signing secret shown once.
 */
import { createSignal, Match, onMount, Switch, type JSX } from 'solid-js';
import type { WebhookCatalogueDto, WebhookEndpointDto } from '../../../shared/webhooks';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { CopyField } from './copy-field';
import { EventTypePicker } from './event-type-picker';
import { TextArea, TextField } from './fields';
import { t, tx } from '../../i18n/i18n';

/** Where an endpoint stands: active, active but failing since …, disabled for failing since …, or paused by an admin. */
export type EndpointState = 'active' | 'failing' | 'disabled' | 'paused';

export function endpointState(e: Pick<WebhookEndpointDto, 'active' | 'disabledUtc' | 'failingSinceUtc'>): EndpointState {
  if (e.active) return e.failingSinceUtc ? 'failing' : 'active';
  return e.disabledUtc ? 'disabled' : 'paused';
}

/** A state that carries a time ("failing since …"): the sentence is one message, the time a `<time>`. */
function StateSince(props: { key: 'admin.webhook.state.failing' | 'admin.webhook.state.disabled'; tone: string; utc: string }): JSX.Element {
  return tx(props.key, {
    since: formatUtcDateTime(props.utc),
    state: (chunks) => <span class={`state state-${props.tone}`}>{chunks}</span>,
    time: (chunks) => <time datetime={isoDateTime(props.utc)}>{chunks}</time>,
  });
}

/** The endpoint's state in words (never colour alone). */
export function EndpointStatus(props: { endpoint: WebhookEndpointDto }): JSX.Element {
  return (
    <Switch>
      <Match when={endpointState(props.endpoint) === 'active'}>
        <span class="state state-active">{t('admin.webhook.state.active')}</span>
      </Match>
      <Match when={endpointState(props.endpoint) === 'failing'}>
        <StateSince key="admin.webhook.state.failing" tone="failing" utc={props.endpoint.failingSinceUtc ?? ''} />
      </Match>
      <Match when={endpointState(props.endpoint) === 'disabled'}>
        <StateSince key="admin.webhook.state.disabled" tone="disabled" utc={props.endpoint.failingSinceUtc ?? props.endpoint.disabledUtc ?? ''} />
      </Match>
      <Match when={endpointState(props.endpoint) === 'paused'}>
        <span class="state state-paused">{t('admin.webhook.state.paused')}</span>
      </Match>
    </Switch>
  );
}

/**
 * A webhook's `whsec_…` secret, the one time the server shows it (after creating an endpoint or
 * rotating its secret): a read-only box with Copy, a plain warning, and Done to put it away. It
 * takes the focus when it appears, since the button that asked for it may be gone.
 */
export function SigningSecret(props: { id: string; heading: string; secret: string; onDone: () => void; children?: JSX.Element }): JSX.Element {
  const [copied, setCopied] = createSignal('');
  let box: HTMLElement | undefined;
  onMount(() => box?.focus());

  return (
    <section class="notice notice-attention signing-secret" aria-labelledby={`${props.id}-heading`} tabindex="-1" ref={box}>
      <h2 id={`${props.id}-heading`}>{props.heading}</h2>
      <p id={`${props.id}-warning`}>{tx('admin.webhook.secret.warning', { b: (chunks) => <strong>{chunks}</strong> })}</p>
      <div class="field">
        <label for={props.id}>{t('admin.webhook.secret.label')}</label>
        <CopyField
          id={props.id}
          value={props.secret}
          onCopied={setCopied}
          describedBy={`${props.id}-warning`}
          copyLabel={tx('admin.webhook.secret.copy', { hidden: (chunks) => <span class="visually-hidden">{chunks}</span> })}
        />
        <p class="save-status save-ok" role="status">
          {copied()}
        </p>
      </div>
      <div class="button-row">
        <button type="button" class="button button-quiet" onClick={() => props.onDone()}>
          {t('admin.webhook.secret.done')}
        </button>
        {props.children}
      </div>
    </section>
  );
}

export interface EndpointValues {
  url: string;
  description: string;
  events: string[];
}

/** What the browser can tell before asking the server, per field, in plain words. */
export function checkEndpoint(values: EndpointValues): Record<string, string> {
  const problems: Record<string, string> = {};
  const url = values.url.trim();
  if (url === '') problems.url = t('admin.webhook.field.urlMissing');
  else if (!/^https?:\/\/[^\s/]+/i.test(url) || !URL.canParse(url)) problems.url = t('admin.webhook.field.urlInvalid');
  if (values.events.length === 0) problems.events = t('admin.webhook.field.eventsMissing');
  return problems;
}

/** The order the fields come in, for moving the focus to the first one with a problem. */
const FIELD_ORDER = ['url', 'description', 'events'] as const;

/** Focuses the first field named in `problems` (its input, or the event picker's first checkbox). */
export function focusFirstProblem(idPrefix: string, problems: Record<string, string>): void {
  const first = FIELD_ORDER.find((f) => problems[f]);
  if (!first) return;
  const target = document.getElementById(`${idPrefix}-${first}`);
  (first === 'events' ? target?.querySelector<HTMLInputElement>('input') : target)?.focus();
}

/** Address, description and events of an endpoint, each with its problem at the field. */
export function EndpointFields(props: {
  idPrefix: string;
  values: EndpointValues;
  onChange: (values: EndpointValues) => void;
  catalogue: WebhookCatalogueDto;
  problems: Record<string, string>;
}): JSX.Element {
  const set = (patch: Partial<EndpointValues>) => props.onChange({ ...props.values, ...patch });
  return (
    <>
      <TextField
        id={`${props.idPrefix}-url`}
        label={t('admin.webhook.field.url')}
        type="url"
        inputMode="url"
        autocomplete="off"
        spellcheck={false}
        maxLength={2000}
        value={props.values.url}
        onInput={(url) => set({ url })}
        hint={t('admin.webhook.field.urlHint')}
        error={props.problems.url}
      />
      <TextArea
        id={`${props.idPrefix}-description`}
        label={t('admin.webhook.field.description')}
        rows={2}
        value={props.values.description}
        onInput={(description) => set({ description })}
        hint={t('admin.webhook.field.descriptionHint')}
        error={props.problems.description}
      />
      <EventTypePicker
        id={`${props.idPrefix}-events`}
        legend={t('admin.webhook.field.events')}
        catalogue={props.catalogue}
        value={props.values.events}
        onChange={(events) => set({ events })}
        hint={t('admin.webhook.field.eventsHint')}
        error={props.problems.events}
      />
    </>
  );
}
