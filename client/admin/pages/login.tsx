/**
 * `/login` — sign in; `/login?forgot` asks for a password-reset link by email (docs/api.md#auth):
 * the answer reads the same whether or not an account uses the address.
 */
import { createSignal, Show, type JSX } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { landingPath, login, requestPasswordReset, safeNextPath } from '../auth';
import { Page } from '../../ui/page';
import { navigate, searchParams } from '../../router';
import { FormError } from '../../ui/form-error';
import { t } from '../../i18n/i18n';
import { LanguageMenu } from '../../i18n/language-menu';

export default function LoginPage(): JSX.Element {
  const forgot = () => searchParams().has('forgot');
  return (
    <Show when={forgot()} fallback={<SignIn />}>
      <ForgotPassword />
    </Show>
  );
}

function SignIn(): JSX.Element {
  const [email, setEmail] = createSignal('');
  const [password, setPassword] = createSignal('');
  const [submitting, setSubmitting] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (submitting()) return;
    setSubmitting(true);
    setError(null);
    try {
      const user = await login(email().trim(), password());
      const next = safeNextPath(searchParams().get('next'));
      navigate(next ?? landingPath(user), { replace: true });
    } catch (err) {
      setError(errorMessage(err));
      setSubmitting(false);
    }
  };

  return (
    <Page title={t('login.title')}>
      <LanguageMenu />
      <form class="form" onSubmit={onSubmit} aria-describedby={error() ? 'login-error' : undefined}>
        <AccountEmail id="login-email" value={email()} onInput={setEmail} />
        <div class="field">
          <label for="login-password">{t('login.password')}</label>
          <input
            id="login-password"
            name="password"
            type="password"
            autocomplete="current-password"
            required
            value={password()}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </div>
        {/* aria-disabled, not disabled: a disabled button drops keyboard focus mid-submit */}
        <button type="submit" class="button" aria-disabled={submitting()}>
          {submitting() ? t('login.signingIn') : t('login.signIn')}
        </button>
        <FormError message={error()} id="login-error" />
      </form>
      <p class="login-aside">
        <ModeLink href="/login?forgot">{t('login.forgot')}</ModeLink>
      </p>
    </Page>
  );
}

function ForgotPassword(): JSX.Element {
  const [email, setEmail] = createSignal('');
  const [submitting, setSubmitting] = createSignal(false);
  const [error, setError] = createSignal<string | null>(null);
  const [sent, setSent] = createSignal<string | null>(null);
  let result: HTMLParagraphElement | undefined;

  const onSubmit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (submitting()) return;
    setSubmitting(true);
    setError(null);
    try {
      setSent(await requestPasswordReset(email().trim()));
      // keep the result where the eyes are
      queueMicrotask(() => result?.focus());
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Page title={t('login.resetTitle')}>
      <LanguageMenu />
      <Show
        when={sent()}
        fallback={
          <>
            <p class="lead">{t('login.resetLead')}</p>
            <form class="form" onSubmit={onSubmit} aria-describedby={error() ? 'forgot-error' : undefined}>
              <AccountEmail id="forgot-email" value={email()} onInput={setEmail} />
              <button type="submit" class="button" aria-disabled={submitting()}>
                {submitting() ? t('login.sending') : t('login.sendLink')}
              </button>
              <FormError message={error()} id="forgot-error" />
            </form>
          </>
        }
      >
        {(message) => (
          <p class="notice notice-ok" role="status" tabindex="-1" ref={result}>
            {t('login.resetSent', { message: message() })}
          </p>
        )}
      </Show>
      <p class="login-aside">
        <ModeLink href="/login">{t('login.backToSignIn')}</ModeLink>
      </p>
    </Page>
  );
}

/** Between sign-in and reset on the same path: navigates in place (`<A>` would mark the link as the current page). */
function ModeLink(props: { href: string; children: JSX.Element }): JSX.Element {
  return (
    <a
      href={props.href}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

/** The address an account signs in with: the same field on the sign-in and the reset forms. */
function AccountEmail(props: { id: string; value: string; onInput: (value: string) => void }): JSX.Element {
  return (
    <div class="field">
      <label for={props.id}>{t('login.email')}</label>
      <input
        id={props.id}
        name="email"
        type="email"
        autocomplete="username"
        inputmode="email"
        required
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </div>
  );
}
