import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from '../components/action-notice';
import { TeamChatSettings } from '../components/chat-webhook-field';
import { EmbedSettings } from '../components/embed-settings';
import { OrganizationSettings } from '../components/organization-settings';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView, ready } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { EventPicker } from '../components/event-picker';
import { DefaultLanguageField } from '../components/language-field';
import { createConfirm } from '../components/confirm';
import { SaveButtons, SelectField, TextArea, TextField } from '../components/fields';
import { SELLER_TAX_ID_MAX } from '../../../shared/booking';
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
import { EmailText } from '../components/email-text';
import { adminErrorMessage } from '../errors';
import { createSaveAction, viewerTimeZone } from '../forms';
import { browserRegional } from '../regional';
import { TimeZonePicker } from '../../ui/time-zone-picker';
import type { AdminUser } from '../session';
import { accessState, eventsSummary } from '../users';
import { formatUtcDateTime } from '../../ui/format';
import { FormError } from '../../ui/form-error';
import { submitWith } from '../../ui/forms';
import { t, tx } from '../../i18n/i18n';

const hidden = (chunks: JSX.Element[]): JSX.Element => <span class="visually-hidden">{chunks}</span>;

export default function AdminSettingsPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.frame.nav.settings')} area="settings">
      {(me) => (
        <>
          <OrganizationSettings />
          <SiteSettings />
          <PaymentsSettings />
          <TeamChatSettings />
          <EmbedSettings />
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
      <h2 id="settings-heading">{t('admin.settings.siteHeading')}</h2>
      <AsyncView resource={settings} retry={() => void refetch()} what={t('admin.settings.siteWhat')}>
        {(s) => <SettingsForm initial={s()} />}
      </AsyncView>
    </section>
  );
}

function SettingsForm(props: { initial: SettingsDto }): JSX.Element {
  // never chosen: the browser's currency and zone are proposed, and stored only by a save
  const browser = browserRegional();
  const [proposed, setProposed] = createSignal({
    currency: props.initial.currencyChosen ? null : browser.currency,
    timeZone: props.initial.defaultTimeZoneChosen ? null : browser.timeZone,
  });
  const [currency, setCurrency] = createSignal(proposed().currency ?? props.initial.currency);
  const [timeZone, setTimeZone] = createSignal(proposed().timeZone ?? props.initial.defaultTimeZone);
  const [hold, setHold] = createSignal(String(props.initial.paymentHoldHours));
  const [labels, setLabels] = createSignal<Record<string, string>>({ ...props.initial.locationLabels });
  const [defaultLanguage, setDefaultLanguage] = createSignal(props.initial.defaultLanguage);
  const [sellerAddress, setSellerAddress] = createSignal(props.initial.sellerAddress);
  const [sellerTaxId, setSellerTaxId] = createSignal(props.initial.sellerTaxId);
  const saving = createSaveAction();

  const save = () =>
    saving.run(async () => {
      const saved = await updateSettings({
        currency: currency().trim(),
        defaultTimeZone: timeZone(),
        paymentHoldHours: Number(hold()),
        locationLabels: labels(),
        defaultLanguage: defaultLanguage(),
        sellerAddress: sellerAddress(),
        sellerTaxId: sellerTaxId(),
      });
      setDefaultLanguage(saved.defaultLanguage);
      setSellerAddress(saved.sellerAddress);
      setSellerTaxId(saved.sellerTaxId);
      setCurrency(saved.currency);
      setTimeZone(saved.defaultTimeZone);
      setProposed({ currency: null, timeZone: null });
      setHold(String(saved.paymentHoldHours));
      setLabels({ ...saved.locationLabels });
    });

  return (
    <form class="form form-wide" onSubmit={submitWith(save)}>
      <Show when={proposed().currency || proposed().timeZone}>
        <p class="notice" id="set-proposed">
          {t('admin.settings.proposed')}
        </p>
      </Show>
      <div class="field-row">
        <TextField
          id="set-currency"
          label={t('admin.settings.currency')}
          value={currency()}
          onInput={setCurrency}
          maxLength={3}
          hint={t('admin.settings.currencyHint')}
        />
        <TextField
          id="set-hold"
          label={t('admin.settings.hold')}
          type="number"
          min="1"
          max="720"
          value={hold()}
          onInput={setHold}
          hint={t('admin.settings.holdHint')}
        />
      </div>
      <TimeZonePicker
        id="set-time-zone"
        label={t('admin.settings.timeZone')}
        value={timeZone()}
        onChange={setTimeZone}
        hint={t('admin.settings.timeZoneHint')}
        describedBy={proposed().timeZone ? 'set-proposed' : undefined}
      />
      <DefaultLanguageField value={defaultLanguage()} onChange={setDefaultLanguage} />
      <fieldset class="field">
        <legend>{t('admin.settings.locationLabels')}</legend>
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
        <p class="field-hint">{t('admin.settings.locationLabelsHint')}</p>
      </fieldset>
      <fieldset class="field">
        <legend>{t('admin.settings.seller.legend')}</legend>
        <p class="field-hint">{t('admin.settings.seller.hint')}</p>
        <p class="field-hint">{t('admin.settings.seller.nameIsOrganization')}</p>
        <TextArea id="set-seller-address" label={t('admin.settings.seller.address')} value={sellerAddress()} onInput={setSellerAddress} rows={3} />
        <TextField
          id="set-seller-tax-id"
          label={t('admin.settings.seller.taxId')}
          value={sellerTaxId()}
          onInput={setSellerTaxId}
          maxLength={SELLER_TAX_ID_MAX}
          hint={t('admin.settings.seller.taxIdHint')}
        />
      </fieldset>
      <SaveButtons action={saving} label={t('admin.settings.save')} />
    </form>
  );
}

/** Settings › Payments: what the server is set up with (environment variables), never a secret. */
function PaymentsSettings(): JSX.Element {
  const [status, { refetch }] = createResource(loadPaymentStatus);
  return (
    <section class="section" aria-labelledby="payments-heading">
      <h2 id="payments-heading">{t('admin.settings.payments.heading')}</h2>
      <AsyncView resource={status} retry={() => void refetch()} what={t('admin.settings.payments.what')}>
        {(s) => <PaymentsFacts status={s()} />}
      </AsyncView>
    </section>
  );
}

/** The provider as the admin reads it: the built-in one described, Stripe by its (untranslated) name. */
function providerLabel(provider: string | null | undefined): string {
  if (provider === 'local') return t('admin.settings.payments.providerLocal');
  if (provider === 'stripe') return 'Stripe';
  return provider || '—';
}

function PaymentsFacts(props: { status: PaymentStatusDto }): JSX.Element {
  const s = () => props.status;
  return (
    <Show
      when={s().edition === 'extended'}
      fallback={
        <>
          <dl class="facts">
            <dt>{t('admin.settings.payments.edition')}</dt>
            <dd>{t('admin.settings.payments.free')}</dd>
          </dl>
          <p class="field-hint">{t('admin.settings.payments.freeHint')}</p>
        </>
      }
    >
      <dl class="facts">
        <dt>{t('admin.settings.payments.edition')}</dt>
        <dd>{t('admin.settings.payments.extended')}</dd>
        <dt>{t('admin.settings.payments.provider')}</dt>
        <dd>{providerLabel(s().provider)}</dd>
        <dt>{t('admin.settings.payments.configured')}</dt>
        <dd>{s().configured ? t('admin.settings.payments.configuredYes') : <span class="save-failed">{t('admin.settings.payments.configuredNo')}</span>}</dd>
        <dt>{t('admin.settings.payments.hold')}</dt>
        <dd>{t('admin.settings.payments.holdHours', { count: s().holdHours })}</dd>
        <dt>{t('admin.settings.currency')}</dt>
        <dd>{s().currency}</dd>
        <dt>{t('admin.settings.payments.bridge')}</dt>
        <dd>{s().commerceBridge.enabled ? t('admin.settings.payments.bridgeOn') : t('admin.settings.payments.bridgeOff')}</dd>
      </dl>
      <Show when={s().webhookUrl}>
        {(url) => (
          <CopyField
            id="pay-webhook"
            label={t('admin.settings.payments.webhookUrl')}
            value={url()}
            hint={s().provider === 'local' ? t('admin.settings.payments.webhookHintLocal') : t('admin.settings.payments.webhookHintStripe')}
          />
        )}
      </Show>
      <Show when={s().commerceBridge.enabled}>
        <CopyField
          id="pay-commerce"
          label={t('admin.settings.payments.shopWebhookUrl')}
          value={s().commerceBridge.url}
          hint={t('admin.settings.payments.shopWebhookHint')}
        />
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
      setCopied(t('admin.settings.copy.copied'));
    } catch {
      input?.select();
      setCopied(t('admin.settings.copy.selected'));
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
          {tx('admin.settings.copy.button', { label: props.label, h: hidden })}
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
      setNotice({ ok: true, text: t('admin.settings.users.roleNow', { name: who(u), role }) });
      void refetch();
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    }
  };

  return (
    <section class="section" aria-labelledby="users-heading">
      <h2 id="users-heading">{t('admin.settings.users.heading')}</h2>
      <ActionNoticeView notice={notice()} />
      <AsyncView resource={users} retry={() => void refetch()} what={t('admin.settings.users.heading')}>
        {(list) => (
          <DataTable
            labelledBy="users-heading"
            class="users-table"
            columns={[
              t('admin.settings.col.name'),
              t('admin.settings.col.email'),
              t('admin.settings.col.role'),
              t('admin.settings.col.events'),
              t('admin.settings.col.access'),
              t('admin.settings.col.actions'),
            ]}
            rows={list()}
          >
            {(u) => (
              <tr data-user-id={u.id}>
                <td>{u.displayName || <span class="muted">—</span>}</td>
                <td class="cell-email">
                  <EmailText email={u.email} />
                </td>
                <td>
                  <label class="visually-hidden" for={`role-${u.id}`}>
                    {t('admin.settings.users.roleOf', { name: who(u) })}
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
                      {tx('admin.settings.users.changeEvents', { name: who(u), h: hidden })}
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
                          <span class="field-hint"> {t('admin.settings.users.linkValid', { when: formatUtcDateTime(u.inviteExpiresUtc) })}</span>
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
                    {u.hasPassword
                      ? tx('admin.settings.users.resetPassword', { name: who(u), h: hidden })
                      : tx('admin.settings.users.sendInvite', { name: who(u), h: hidden })}
                  </button>
                  <Show when={u.id !== props.me.id}>
                    <button
                      type="button"
                      class="button button-small button-quiet button-danger-text"
                      onClick={() =>
                        confirm.ask({
                          title: t('admin.settings.users.deleteTitle', { name: who(u), email: u.email }),
                          detail: t('admin.settings.users.deleteDetail'),
                          confirmLabel: t('admin.settings.users.deleteConfirm'),
                          action: () => deleteUser(u.id),
                          onDone: () => void refetch(),
                        })
                      }
                    >
                      {tx('admin.settings.users.delete', { name: who(u), h: hidden })}
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
      const ids = value();
      props.onDone(
        t('admin.settings.events.done', { name: props.user.displayName || props.user.email, scope: ids === null ? 'all' : 'some', count: ids?.length ?? 0 }),
      );
    } catch (err) {
      setError(adminErrorMessage(err));
    }
  };
  return (
    <form class="inline-form inline-form-stack" onSubmit={submitWith(submit)}>
      <EventPicker
        id={`ev-${props.user.id}`}
        legend={t('admin.settings.events.legend', { name: props.user.displayName || props.user.email })}
        events={props.events}
        value={value()}
        onChange={setValue}
      />
      <button type="submit" class="button button-small">
        {t('admin.settings.events.save')}
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
      props.onDone(t('admin.settings.reset.done', { name: who() }));
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
      props.onDone(t('admin.settings.reset.linkSent', { email: props.user.email }));
    } catch (err) {
      setError(adminErrorMessage(err));
      setSending(false);
    }
  };
  return (
    <div class="inline-form inline-form-stack">
      <button type="button" class="button button-small" aria-disabled={sending()} onClick={() => void sendLink()}>
        {tx('admin.settings.reset.emailLink', { name: who(), h: hidden })}
      </button>
      <p class="field-hint">{t('admin.settings.reset.hint')}</p>
      <form class="inline-form" onSubmit={submitWith(submit)}>
        <label for={`pw-${props.user.id}`}>{t('admin.settings.reset.newPassword')}</label>
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
          {t('admin.settings.reset.set')}
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
  const saving = createSaveAction();
  const submit = async (mode: 'invite' | 'create') => {
    if (saving.busy()) return;
    if (mode === 'invite' && password()) return saving.fail(t('admin.settings.newUser.inviteWithPassword'));
    const input = {
      email: email().trim(),
      displayName: name().trim(),
      role: role(),
      timezone: viewerTimeZone(),
      ...(role() === 'staff' ? { eventIds: eventIds() } : {}),
    };
    await saving.run(async () => {
      if (mode === 'invite') await inviteUser(input);
      else await createUser({ ...input, ...(password() ? { password: password() } : {}) });
      props.onCreated(
        mode === 'invite'
          ? t('admin.settings.newUser.invited', { email: input.email })
          : t('admin.settings.newUser.added', { name: input.displayName || input.email }),
      );
      setEmail('');
      setName('');
      setPassword('');
      setEventIds(null);
    });
  };
  return (
    <form class="form form-wide subform" onSubmit={submitWith(() => submit('invite'))} aria-labelledby="new-user-heading">
      <h3 id="new-user-heading">{t('admin.settings.newUser.heading')}</h3>
      <div class="field-row">
        <TextField id="nu-email" label={t('admin.settings.col.email')} type="email" value={email()} onInput={setEmail} required autocomplete="off" />
        <TextField id="nu-name" label={t('admin.settings.newUser.name')} value={name()} onInput={setName} autocomplete="off" />
      </div>
      <div class="field-row">
        <SelectField
          id="nu-role"
          label={t('admin.settings.col.role')}
          value={role()}
          options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
          onChange={setRole}
        />
        <TextField
          id="nu-password"
          label={t('admin.settings.newUser.password')}
          type="password"
          autocomplete="new-password"
          value={password()}
          onInput={setPassword}
          hint={t('admin.settings.newUser.passwordHint')}
        />
      </div>
      <Show when={role() === 'staff'}>
        <EventPicker id="nu-events" legend={t('admin.settings.newUser.eventsLegend')} events={props.events} value={eventIds()} onChange={setEventIds} />
      </Show>
      <SaveButtons action={saving} label={t('admin.settings.newUser.invite')}>
        <button type="button" class="button button-quiet" aria-disabled={saving.busy()} onClick={() => void submit('create')}>
          {t('admin.settings.newUser.create')}
        </button>
      </SaveButtons>
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
      <h2 id="tokens-heading">{t('admin.settings.tokens.heading')}</h2>
      <Show when={created()}>
        {(c) => (
          <div class="notice notice-ok token-once" role="status">
            <p>{t('admin.settings.tokens.once', { name: c().name })}</p>
            <code class="token-value">{c().token}</code>
            <div class="button-row">
              <button type="button" class="button button-small" onClick={() => void navigator.clipboard?.writeText(c().token)}>
                {t('admin.settings.tokens.copy')}
              </button>
              <button type="button" class="button button-small button-quiet" onClick={() => setCreated(null)}>
                {t('admin.settings.tokens.copied')}
              </button>
            </div>
          </div>
        )}
      </Show>
      <AsyncView
        resource={tokens}
        retry={() => void refetch()}
        what={t('admin.settings.tokens.what')}
        isEmpty={(l) => l.length === 0}
        empty={<p class="status-text">{t('admin.settings.tokens.none')}</p>}
      >
        {(list) => (
          <DataTable
            labelledBy="tokens-heading"
            columns={[
              t('admin.settings.col.name'),
              t('admin.settings.col.role'),
              t('admin.settings.tokens.col.created'),
              t('admin.settings.tokens.col.lastUsed'),
              t('admin.settings.tokens.col.state'),
            ]}
            rows={list()}
          >
            {(token) => (
              <tr>
                <td>{token.name}</td>
                <td>{ROLE_LABELS[token.role]}</td>
                <td>{formatUtcDateTime(token.createdUtc)}</td>
                <td>{token.lastUsedUtc ? formatUtcDateTime(token.lastUsedUtc) : <span class="muted">{t('admin.settings.tokens.never')}</span>}</td>
                <td>
                  <Show when={!token.revokedUtc} fallback={<span class="muted">{t('admin.settings.tokens.revoked')}</span>}>
                    <button
                      type="button"
                      class="button button-small button-quiet button-danger-text"
                      onClick={() =>
                        confirm.ask({
                          title: t('admin.settings.tokens.revokeTitle', { name: token.name }),
                          detail: t('admin.settings.tokens.revokeDetail'),
                          confirmLabel: t('admin.settings.tokens.revokeConfirm'),
                          action: () => revokeToken(token.id),
                          onDone: () => void refetch(),
                        })
                      }
                    >
                      {tx('admin.settings.tokens.revoke', { name: token.name, h: hidden })}
                    </button>
                  </Show>
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </AsyncView>
      <form class="form form-wide subform" onSubmit={submitWith(submit)} aria-labelledby="new-token-heading">
        <h3 id="new-token-heading">{t('admin.settings.tokens.newHeading')}</h3>
        <div class="field-row">
          <TextField
            id="tk-name"
            label={t('admin.settings.tokens.name')}
            value={name()}
            onInput={setName}
            required
            hint={t('admin.settings.tokens.nameHint')}
          />
          <SelectField
            id="tk-role"
            label={t('admin.settings.tokens.actsAs')}
            value={role()}
            options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
            onChange={setRole}
          />
        </div>
        <div class="button-row">
          <button type="submit" class="button">
            {t('admin.settings.tokens.create')}
          </button>
        </div>
        <FormError message={error()} />
      </form>
      {confirm.view()}
    </section>
  );
}
