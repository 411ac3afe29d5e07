import { createSignal, type JSX } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { login, safeNextPath } from '../auth';
import { Page } from '../../ui/page';
import { navigate, searchParams } from '../../router';
import { FormError } from '../../ui/form-error';

export default function LoginPage(): JSX.Element {
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
      navigate(next ?? (user.role === 'administrator' ? '/admin' : '/'), { replace: true });
    } catch (err) {
      setError(errorMessage(err));
      setSubmitting(false);
    }
  };

  return (
    <Page title="Sign in">
      <form class="form" onSubmit={onSubmit} aria-describedby={error() ? 'login-error' : undefined}>
        <div class="field">
          <label for="login-email">Email</label>
          <input
            id="login-email"
            name="email"
            type="email"
            autocomplete="username"
            inputmode="email"
            required
            value={email()}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="login-password">Password</label>
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
          {submitting() ? 'Signing in…' : 'Sign in'}
        </button>
        <FormError message={error()} id="login-error" />
      </form>
    </Page>
  );
}
