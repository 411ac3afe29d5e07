import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { TeamChatSettings } from '../components/chat-webhook-field';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { EventPicker } from '../components/event-picker';
import { DefaultLanguageField } from '../components/language-field';
import { createConfirm } from '../components/confirm';
import { SaveStatus, SelectField, TextField } from '../components/fields';
import { LOCATION_LABELS, LOCATION_MODES, ROLE_LABELS, ROLES, type Role } from '../constants';
import {
  createToken,
  createUser,
  deleteUser,
  inviteUser,
  listEvents,
  sendPasswordLink,
  getSettings,
  listTokens,
  listUsers,
  revokeToken,
  updateSettings,
  updateUser,
  type EventDto,
  type PaymentStatusDto,
  type SettingsDto,
  type UserDto,
} from '../data';
import { loadPaymentStatus } from '../edition';
import { adminErrorMessage } from '../errors';
import { viewerTimeZone } from '../forms';
import type { AdminUser } from '../session';
import { accessState, eventsSummary } from '../users';
import { formatUtcDateTime } from '../../ui/format';
import { FormError } from '../../ui/form-error';
import { submitWith } from '../../ui/forms';

type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

export default function AdminSettingsPage(): JSX.Element {
  return (
    <AdminFrame title="Settings & people" area="settings">
      {(me) => (
        <>
          <SiteSettings />
          <PaymentsSettings />
          <TeamChatSettings />
          <Users me={me} />
          <Tokens />
        </>
      )}
    </AdminFrame>
  );
}

function SiteSettings(): JSX.Element {
  const [settings, { refetch }] = createResource(getSettings);
  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading">Site settings</h2>
      <AsyncView resource={settings} retry={() => void refetch()} what="Settings">
        {(s) => <SettingsForm initial={s()} />}
      </AsyncView>
    </section>
  );
}

function SettingsForm(props: { initial: SettingsDto }): JSX.Element {
  const [currency, setCurrency] = createSignal(props.initial.currency);
  const [hold, setHold] = createSignal(String(props.initial.paymentHoldHours));
  const [labels, setLabels] = createSignal<Record<string, string>>({ ...props.initial.locationLabels });
  const [defaultLanguage, setDefaultLanguage] = createSignal(props.initial.defaultLanguage);
  const [state, setState] = createSignal<SaveState>('idle');
  const [error, setError] = createSignal<string | null>(null);

  const save = async () => {
    setState('saving');
    setError(null);
    try {
      const saved = await updateSettings({
        currency: currency().trim(),
        paymentHoldHours: Number(hold()),
        locationLabels: labels(),
        defaultLanguage: defaultLanguage(),
      });
      setDefaultLanguage(saved.defaultLanguage);
      setCurrency(saved.currency);
      setHold(String(saved.paymentHoldHours));
      setLabels({ ...saved.locationLabels });
      setState('saved');
    } catch (err) {
      setState('failed');
      setError(adminErrorMessage(err));
    }
  };

  return (
    <form class="form form-wide" onSubmit={submitWith(save)}>
      <div class="field-row">
        <TextField
          id="set-currency"
          label="Currency"
          value={currency()}
          onInput={setCurrency}
          maxLength={3}
          hint="ISO 4217 code, e.g. EUR. Amounts are relabelled, never converted."
        />
        <TextField
          id="set-hold"
          label="Payment hold (hours)"
          type="number"
          min="1"
          max="720"
          value={hold()}
          onInput={setHold}
          hint="How long an unpaid booking keeps its slot."
        />
      </div>
      <DefaultLanguageField value={defaultLanguage()} onChange={setDefaultLanguage} />
      <fieldset class="field">
        <legend>Location labels</legend>
        <For each={LOCATION_MODES}>
          {(mode) => (
            <TextField
              id={`set-label-${mode}`}
              label={LOCATION_LABELS[mode]}
              value={labels()[mode] ?? ''}
              onInput={(v) => setLabels({ ...labels(), [mode]: v })}
            />
          )}
        </For>
        <p class="field-hint">What visitors read for each location kind; empty hides the label.</p>
      </fieldset>
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={state() === 'saving'}>
          Save settings
        </button>
      </div>
      <SaveStatus state={state()} error={error()} />
    </form>
  );
}

/** Settings › Payments: what the server is set up with (environment variables), never a secret. */
function PaymentsSettings(): JSX.Element {
  const [status, { refetch }] = createResource(loadPaymentStatus);
  return (
    <section class="section" aria-labelledby="payments-heading">
      <h2 id="payments-heading">Payments</h2>
      <AsyncView resource={status} retry={() => void refetch()} what="Payment settings">
        {(s) => <PaymentsFacts status={s()} />}
      </AsyncView>
    </section>
  );
}

const PROVIDER_LABELS: Record<string, string> = {
  local: 'Built-in (svc’s own checkout page, no outside service)',
  stripe: 'Stripe',
};

function PaymentsFacts(props: { status: PaymentStatusDto }): JSX.Element {
  const s = () => props.status;
  return (
    <Show
      when={s().edition === 'extended'}
      fallback={
        <>
          <dl class="facts">
            <dt>Edition</dt>
            <dd>Free</dd>
          </dl>
          <p class="field-hint">
            Online payments and orders come with the extended edition (<code>SVC_EDITION=extended</code>). In the free edition, priced booking types are paid on
            site.
          </p>
        </>
      }
    >
      <dl class="facts">
        <dt>Edition</dt>
        <dd>Extended</dd>
        <dt>Provider</dt>
        <dd>{PROVIDER_LABELS[s().provider ?? ''] ?? s().provider ?? '—'}</dd>
        <dt>Configured</dt>
        <dd>{s().configured ? '✓ Yes' : <span class="save-failed">✗ No: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET</span>}</dd>
        <dt>Payment hold</dt>
        <dd>
          {s().holdHours} hour{s().holdHours === 1 ? '' : 's'}
        </dd>
        <dt>Currency</dt>
        <dd>{s().currency}</dd>
        <dt>Shop bridge</dt>
        <dd>{s().commerceBridge.enabled ? '✓ On' : 'Off (set SVC_COMMERCE_SECRET to turn it on)'}</dd>
      </dl>
      <Show when={s().webhookUrl}>
        {(url) => (
          <CopyField
            id="pay-webhook"
            label="Webhook URL"
            value={url()}
            hint={
              s().provider === 'local'
                ? 'The built-in provider delivers its events to this address itself; nothing to set up.'
                : 'Give this address to Stripe as the webhook endpoint, with the events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, checkout.session.expired and charge.refunded.'
            }
          />
        )}
      </Show>
      <Show when={s().commerceBridge.enabled}>
        <CopyField id="pay-commerce" label="Shop webhook URL" value={s().commerceBridge.url} hint="Where the shop sends its signed order webhooks." />
      </Show>
    </Show>
  );
}

/** A read-only address with a Copy button (selects the text where the clipboard is not available). */
function CopyField(props: { id: string; label: string; value: string; hint?: string }): JSX.Element {
  const [copied, setCopied] = createSignal<string | null>(null);
  let input: HTMLInputElement | undefined;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('✓ Copied');
    } catch {
      input?.select();
      setCopied('Selected: press Ctrl+C (⌘C) to copy.');
    }
  };
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <div class="copy-field">
        <input
          id={props.id}
          type="text"
          readOnly
          value={props.value}
          aria-describedby={props.hint ? `${props.id}-hint` : undefined}
          onFocus={(e) => e.currentTarget.select()}
        />
        <button type="button" class="button button-small" onClick={() => void copy()}>
          Copy<span class="visually-hidden"> {props.label}</span>
        </button>
      </div>
      <Show when={props.hint}>
        <p id={`${props.id}-hint`} class="field-hint">
          {props.hint}
        </p>
      </Show>
      <p class="save-status save-ok" role="status">
        {copied() ?? ''}
      </p>
    </div>
  );
}

function Users(props: { me: AdminUser }): JSX.Element {
  const [users, { refetch }] = createResource(listUsers);
  // Event titles for the Events column and the pickers; the table still works if they fail to load.
  const [events] = createResource(listEvents);
  const titles = () => new Map((ready(events) ?? []).map((e) => [e.id, e.title] as const));
  const confirm = createConfirm();
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const [resetFor, setResetFor] = createSignal<number | null>(null);
  const [eventsFor, setEventsFor] = createSignal<number | null>(null);
  const who = (u: UserDto) => u.displayName || u.email;

  const changeRole = async (u: UserDto, role: Role) => {
    setNotice(null);
    try {
      await updateUser(u.id, { role });
      setNotice({ ok: true, text: `${who(u)} is now ${ROLE_LABELS[role].toLowerCase()}.` });
      void refetch();
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    }
  };

  return (
    <section class="section" aria-labelledby="users-heading">
      <h2 id="users-heading">Users</h2>
      <ActionNoticeView notice={notice()} />
      <AsyncView resource={users} retry={() => void refetch()} what="Users">
        {(list) => (
          <DataTable labelledBy="users-heading" class="users-table" columns={['Name', 'Email', 'Role', 'Events', 'Access', 'Actions']} rows={list()}>
            {(u) => (
              <tr data-user-id={u.id}>
                <td>{u.displayName || <span class="muted">—</span>}</td>
                <td class="cell-email">{u.email}</td>
                <td>
                  <label class="visually-hidden" for={`role-${u.id}`}>
                    Role of {who(u)}
                  </label>
                  <select
                    id={`role-${u.id}`}
                    class="input-compact"
                    disabled={u.id === props.me.id}
                    onChange={(e) => void changeRole(u, e.currentTarget.value as Role)}
                  >
                    <For each={ROLES}>
                      {(r) => (
                        <option value={r} selected={r === u.role}>
                          {ROLE_LABELS[r]}
                        </option>
                      )}
                    </For>
                  </select>
                </td>
                <td class="cell-events">
                  <span classList={{ muted: u.role !== 'staff' }}>{eventsSummary(u, titles())}</span>
                  <Show when={u.role === 'staff'}>
                    <button
                      type="button"
                      class="button button-small button-quiet"
                      onClick={() => setEventsFor(eventsFor() === u.id ? null : u.id)}
                      aria-expanded={eventsFor() === u.id}
                    >
                      Change events<span class="visually-hidden"> of {who(u)}</span>
                    </button>
                  </Show>
                  <Show when={eventsFor() === u.id}>
                    <EventsEditor
                      user={u}
                      events={ready(events)}
                      onDone={(text) => {
                        setEventsFor(null);
                        setNotice({ ok: true, text });
                        void refetch();
                      }}
                    />
                  </Show>
                </td>
                <td>
                  {(() => {
                    const state = accessState(u);
                    return (
                      <span class={`access access-${state.kind}`}>
                        {state.label}
                        <Show when={state.kind === 'invited' || state.kind === 'reset-sent'}>
                          <span class="field-hint"> (link valid until {formatUtcDateTime(u.inviteExpiresUtc)})</span>
                        </Show>
                      </span>
                    );
                  })()}
                </td>
                <td class="cell-actions">
                  <button
                    type="button"
                    class="button button-small button-quiet"
                    onClick={() => setResetFor(resetFor() === u.id ? null : u.id)}
                    aria-expanded={resetFor() === u.id}
                  >
                    {u.hasPassword ? 'Reset password' : 'Send invite link'}
                    <span class="visually-hidden"> of {who(u)}</span>
                  </button>
                  <Show when={u.id !== props.me.id}>
                    <button
                      type="button"
                      class="button button-small button-quiet button-danger-text"
                      onClick={() =>
                        confirm.ask({
                          title: `Delete the user ${who(u)} (${u.email})?`,
                          detail: 'Their sessions end. Bookings they host keep their history.',
                          confirmLabel: 'Delete user',
                          action: () => deleteUser(u.id),
                          onDone: () => void refetch(),
                        })
                      }
                    >
                      Delete<span class="visually-hidden"> {who(u)}</span>
                    </button>
                  </Show>
                  <Show when={resetFor() === u.id}>
                    <PasswordReset
                      user={u}
                      onDone={(text) => {
                        setResetFor(null);
                        setNotice({ ok: true, text });
                        void refetch();
                      }}
                    />
                  </Show>
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </AsyncView>
      <NewUser
        events={ready(events)}
        onCreated={(text) => {
          setNotice({ ok: true, text });
          void refetch();
        }}
      />
      {confirm.view()}
    </section>
  );
}

function EventsEditor(props: { user: UserDto; events: EventDto[] | undefined; onDone: (text: string) => void }): JSX.Element {
  const [value, setValue] = createSignal<number[] | null>(props.user.eventIds);
  const [error, setError] = createSignal<string | null>(null);
  const submit = async () => {
    setError(null);
    try {
      await updateUser(props.user.id, { eventIds: value() });
      props.onDone(
        `${props.user.displayName || props.user.email} now works on ${value() === null ? 'all events' : `${value()!.length} event${value()!.length === 1 ? '' : 's'}`}.`,
      );
    } catch (err) {
      setError(adminErrorMessage(err));
    }
  };
  return (
    <form class="inline-form inline-form-stack" onSubmit={submitWith(submit)}>
      <EventPicker
        id={`ev-${props.user.id}`}
        legend={`Events ${props.user.displayName || props.user.email} may work on`}
        events={props.events}
        value={value()}
        onChange={setValue}
      />
      <button type="submit" class="button button-small">
        Save events
      </button>
      <FormError message={error()} />
    </form>
  );
}

function PasswordReset(props: { user: UserDto; onDone: (text: string) => void }): JSX.Element {
  const [password, setPassword] = createSignal('');
  const [error, setError] = createSignal<string | null>(null);
  const [sending, setSending] = createSignal(false);
  const who = () => props.user.displayName || props.user.email;
  const submit = async () => {
    setError(null);
    try {
      await updateUser(props.user.id, { password: password() });
      props.onDone(`New password set for ${who()}. Tell them over a safe channel.`);
    } catch (err) {
      setError(adminErrorMessage(err));
    }
  };
  const sendLink = async () => {
    if (sending()) return;
    setSending(true);
    setError(null);
    try {
      await sendPasswordLink(props.user.id);
      props.onDone(`A link to choose a password was emailed to ${props.user.email}. Older links no longer work.`);
    } catch (err) {
      setError(adminErrorMessage(err));
      setSending(false);
    }
  };
  return (
    <div class="inline-form inline-form-stack">
      <button type="button" class="button button-small" aria-disabled={sending()} onClick={() => void sendLink()}>
        Email a link<span class="visually-hidden"> to {who()}</span>
      </button>
      <p class="field-hint">They choose their own password; the link works once, for 7 days. Or type one for them:</p>
      <form class="inline-form" onSubmit={submitWith(submit)}>
        <label for={`pw-${props.user.id}`}>New password</label>
        <input
          id={`pw-${props.user.id}`}
          type="password"
          autocomplete="new-password"
          minLength={8}
          required
          value={password()}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
        <button type="submit" class="button button-small">
          Set password
        </button>
      </form>
      <FormError message={error()} />
    </div>
  );
}

function NewUser(props: { events: EventDto[] | undefined; onCreated: (text: string) => void }): JSX.Element {
  const [email, setEmail] = createSignal('');
  const [name, setName] = createSignal('');
  const [role, setRole] = createSignal<Role>('host');
  const [eventIds, setEventIds] = createSignal<number[] | null>(null);
  const [password, setPassword] = createSignal('');
  const [state, setState] = createSignal<SaveState>('idle');
  const [error, setError] = createSignal<string | null>(null);
  const submit = async (mode: 'invite' | 'create') => {
    if (state() === 'saving') return;
    if (mode === 'invite' && password()) {
      setState('failed');
      setError('“Invite” emails them a link to choose their own password: clear the password field, or use “Create”.');
      return;
    }
    setState('saving');
    setError(null);
    const input = {
      email: email().trim(),
      displayName: name().trim(),
      role: role(),
      timezone: viewerTimeZone(),
      ...(role() === 'staff' ? { eventIds: eventIds() } : {}),
    };
    try {
      if (mode === 'invite') await inviteUser(input);
      else await createUser({ ...input, ...(password() ? { password: password() } : {}) });
      setState('saved');
      props.onCreated(mode === 'invite' ? `Invitation emailed to ${input.email}.` : `${input.displayName || input.email} was added.`);
      setEmail('');
      setName('');
      setPassword('');
      setEventIds(null);
    } catch (err) {
      setState('failed');
      setError(adminErrorMessage(err));
    }
  };
  return (
    <form class="form form-wide subform" onSubmit={submitWith(() => submit('invite'))} aria-labelledby="new-user-heading">
      <h3 id="new-user-heading">Add a user</h3>
      <div class="field-row">
        <TextField id="nu-email" label="Email" type="email" value={email()} onInput={setEmail} required autocomplete="off" />
        <TextField id="nu-name" label="Display name" value={name()} onInput={setName} autocomplete="off" />
      </div>
      <div class="field-row">
        <SelectField id="nu-role" label="Role" value={role()} options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))} onChange={setRole} />
        <TextField
          id="nu-password"
          label="Password (only for “Create”)"
          type="password"
          autocomplete="new-password"
          value={password()}
          onInput={setPassword}
          hint="“Invite” emails them a link to choose their own password (valid 7 days). “Create” sets this one (at least 8 characters) or none."
        />
      </div>
      <Show when={role() === 'staff'}>
        <EventPicker id="nu-events" legend="Events they may work on" events={props.events} value={eventIds()} onChange={setEventIds} />
      </Show>
      <div class="button-row">
        <button type="submit" class="button" aria-disabled={state() === 'saving'}>
          Invite
        </button>
        <button type="button" class="button button-quiet" aria-disabled={state() === 'saving'} onClick={() => void submit('create')}>
          Create
        </button>
      </div>
      <SaveStatus state={state()} error={error()} />
    </form>
  );
}

function Tokens(): JSX.Element {
  const [tokens, { refetch }] = createResource(listTokens);
  const [name, setName] = createSignal('');
  const [role, setRole] = createSignal<Role>('administrator');
  const [created, setCreated] = createSignal<{ name: string; token: string } | null>(null);
  const [error, setError] = createSignal<string | null>(null);
  const confirm = createConfirm();

  const submit = async () => {
    setError(null);
    try {
      const token = await createToken({ name: name().trim(), role: role() });
      setCreated({ name: token.name, token: token.token });
      setName('');
      void refetch();
    } catch (err) {
      setError(adminErrorMessage(err));
    }
  };

  return (
    <section class="section" aria-labelledby="tokens-heading">
      <h2 id="tokens-heading">API tokens</h2>
      <Show when={created()}>
        {(c) => (
          <div class="notice notice-ok token-once" role="status">
            <p>Token “{c().name}” — copy it now; it is shown only this once:</p>
            <code class="token-value">{c().token}</code>
            <div class="button-row">
              <button type="button" class="button button-small" onClick={() => void navigator.clipboard?.writeText(c().token)}>
                Copy
              </button>
              <button type="button" class="button button-small button-quiet" onClick={() => setCreated(null)}>
                I have copied it
              </button>
            </div>
          </div>
        )}
      </Show>
      <AsyncView resource={tokens} retry={() => void refetch()} what="Tokens" isEmpty={(l) => l.length === 0} empty={<p class="status-text">No API tokens.</p>}>
        {(list) => (
          <DataTable labelledBy="tokens-heading" columns={['Name', 'Role', 'Created', 'Last used', 'State']} rows={list()}>
            {(t) => (
              <tr>
                <td>{t.name}</td>
                <td>{ROLE_LABELS[t.role]}</td>
                <td>{formatUtcDateTime(t.createdUtc)}</td>
                <td>{t.lastUsedUtc ? formatUtcDateTime(t.lastUsedUtc) : <span class="muted">Never</span>}</td>
                <td>
                  <Show when={!t.revokedUtc} fallback={<span class="muted">Revoked</span>}>
                    <button
                      type="button"
                      class="button button-small button-quiet button-danger-text"
                      onClick={() =>
                        confirm.ask({
                          title: `Revoke the token “${t.name}”?`,
                          detail: 'Integrations using it stop working at once.',
                          confirmLabel: 'Revoke token',
                          action: () => revokeToken(t.id),
                          onDone: () => void refetch(),
                        })
                      }
                    >
                      Revoke<span class="visually-hidden"> {t.name}</span>
                    </button>
                  </Show>
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </AsyncView>
      <form class="form form-wide subform" onSubmit={submitWith(submit)} aria-labelledby="new-token-heading">
        <h3 id="new-token-heading">New token</h3>
        <div class="field-row">
          <TextField id="tk-name" label="Token name" value={name()} onInput={setName} required hint="What uses it, e.g. “CRM sync”." />
          <SelectField id="tk-role" label="Acts as" value={role()} options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))} onChange={setRole} />
        </div>
        <div class="button-row">
          <button type="submit" class="button">
            Create token
          </button>
        </div>
        <FormError message={error()} />
      </form>
      {confirm.view()}
    </section>
  );
}
