/**
 * `/invite/:token` — the public page an invite or password-reset email links to: shows who
 * is invited, lets them choose a password, signs them in and takes them to the admin area.
 * Loading the page never uses the link up; only the form does.
 */
import { createResource, createSignal, Match, Show, Switch, type JSX } from 'solid-js';
import { ApiError, errorMessage } from '../../ui/errors';
import { ready } from '../components/async-view';
import { Page } from '../../ui/page';
import { acceptInvite, previewInvite } from '../data';
import { rememberUser } from '../session';
import { landingPath } from '../auth';
import type { InvitePreview } from '../../../shared/users';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { A, navigate, type RouteProps } from '../../router';
import { FormError } from '../../ui/form-error';
import { t, tx } from '../../i18n/i18n';
import { LanguageMenu } from '../../i18n/language-menu';
import type { Role } from '../../../shared/users';

/** The role an invite offers, in the public bundle's words (this page does not load the admin's). */
function inviteRole(role: Role): string {
  if (role === 'administrator') return t('invite.role.administrator');
  if (role === 'staff') return t('invite.role.staff');
  return t('invite.role.host');
}

const MIN_PASSWORD = 8;

export default function InvitePage(props: RouteProps): JSX.Element {
  const token = () => props.params.token ?? '';
  const [invite, { refetch }] = createResource(token, previewInvite);
  // A 404 means the link is dead (used, replaced, expired): say so plainly, no retry.
  const deadLink = () => invite.state === 'errored' && invite.error instanceof ApiError && invite.error.status === 404;

  return (
    <Page title={ready(invite)?.hasPassword ? t('invite.titleReset') : t('invite.titleAccept')}>
      <LanguageMenu />
      <Switch>
        <Match when={deadLink()}>
          <div class="notice notice-error" role="alert">
            <p>{errorMessage(invite.error)}</p>
          </div>
          <p>
            {tx('invite.deadLinkHelp', {
              signIn: (chunks) => <A href="/login">{chunks}</A>,
              forgot: (chunks) => <a href="/login?forgot">{chunks}</a>,
            })}
          </p>
        </Match>
        <Match when={invite.state === 'errored'}>
          <div class="notice notice-error" role="alert">
            <p>{t('invite.checkFailed', { reason: errorMessage(invite.error) })}</p>
            <button type="button" class="button" onClick={() => void refetch()}>
              {t('common.tryAgain')}
            </button>
          </div>
        </Match>
        <Match when={ready(invite)}>{(loaded) => <PasswordForm token={token()} invite={loaded()} />}</Match>
        <Match when={true}>
          <p class="status-text" aria-busy="true">
            {t('invite.checking')}
          </p>
        </Match>
      </Switch>
    </Page>
  );
}

function PasswordForm(props: { token: string; invite: InvitePreview }): JSX.Element {
  const [password, setPassword] = createSignal('');
  const [repeat, setRepeat] = createSignal('');
  const [submitting, setSubmitting] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (submitting()) return;
    if (password().length < MIN_PASSWORD) return setError(t('invite.tooShort', { min: MIN_PASSWORD }));
    if (password() !== repeat()) return setError(t('invite.notSame'));
    setSubmitting(true);
    setError(null);
    try {
      const user = await acceptInvite(props.token, password());
      rememberUser(user);
      // replace: the link (a used secret) does not stay in the history
      navigate(landingPath(user), { replace: true });
    } catch (err) {
      setError(errorMessage(err));
      setSubmitting(false);
    }
  };

  const who = () => props.invite.displayName || props.invite.email;

  return (
    <>
      <p class="lead">
        <Show
          when={props.invite.hasPassword}
          fallback={tx('invite.welcome', { name: who(), role: inviteRole(props.invite.role), b: (chunks) => <strong>{chunks}</strong> })}
        >
          {t('invite.hello', { name: who() })}
        </Show>
      </p>
      <form class="form" onSubmit={onSubmit} aria-describedby="invite-expiry">
        <p id="invite-expiry" class="field-hint">
          {tx('invite.expiry', {
            until: formatUtcDateTime(props.invite.expiresUtc),
            time: (chunks) => <time datetime={isoDateTime(props.invite.expiresUtc)}>{chunks}</time>,
          })}
        </p>
        <div class="field">
          <label for="invite-email">{t('login.email')}</label>
          <input id="invite-email" name="email" type="email" autocomplete="username" readOnly value={props.invite.email} />
        </div>
        <div class="field">
          <label for="invite-password">{t('invite.newPassword')}</label>
          <input
            id="invite-password"
            name="password"
            type="password"
            autocomplete="new-password"
            minLength={MIN_PASSWORD}
            maxLength={1024}
            required
            aria-describedby="invite-password-hint"
            value={password()}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
          <p id="invite-password-hint" class="field-hint">
            {t('invite.atLeast', { min: MIN_PASSWORD })}
          </p>
        </div>
        <div class="field">
          <label for="invite-repeat">{t('invite.repeat')}</label>
          <input
            id="invite-repeat"
            name="repeat"
            type="password"
            autocomplete="new-password"
            required
            value={repeat()}
            onInput={(e) => setRepeat(e.currentTarget.value)}
          />
        </div>
        {/* aria-disabled, not disabled: a disabled button drops keyboard focus mid-submit */}
        <button type="submit" class="button" aria-disabled={submitting()}>
          {submitting() ? t('invite.saving') : t('invite.submit')}
        </button>
        <FormError message={error()} />
      </form>
    </>
  );
}
