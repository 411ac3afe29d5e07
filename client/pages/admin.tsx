import { createResource, createSignal, For, Match, Show, Switch, type JSX } from 'solid-js';
import { api, errorMessage } from '../api';
import { fetchCurrentUser, loginPath, logout, type User } from '../auth';
import { Page } from '../components/page';
import { formatUtcDateTime, isoDateTime } from '../format';
import { location, navigate } from '../router';

import type { OutboxItem } from '../../shared/mail';

export default function AdminPage(): JSX.Element {
  const [user, { refetch: recheckUser }] = createResource(async () => {
    const current = await fetchCurrentUser();
    if (!current) navigate(loginPath(location().pathname), { replace: true });
    return current;
  });

  return (
    <Page title="Admin">
      <Switch>
        <Match when={user.state === 'pending' || user.state === 'unresolved'}>
          <p class="status-text" aria-busy="true">
            Checking your sign-in…
          </p>
        </Match>
        <Match when={user.state === 'errored'}>
          <div class="notice notice-error" role="alert">
            <p>Could not check your sign-in. {errorMessage(user.error)}</p>
            <button type="button" class="button" onClick={() => void recheckUser()}>
              Try again
            </button>
          </div>
        </Match>
        <Match when={user.latest}>{(current) => <AdminHome user={current()} />}</Match>
      </Switch>
    </Page>
  );
}

function AdminHome(props: { user: User }): JSX.Element {
  const [signingOut, setSigningOut] = createSignal(false);
  const [signOutError, setSignOutError] = createSignal<string | null>(null);

  const signOut = async () => {
    if (signingOut()) return;
    setSigningOut(true);
    setSignOutError(null);
    try {
      await logout();
      navigate('/login', { replace: true });
    } catch (error) {
      setSignOutError(errorMessage(error));
      setSigningOut(false);
    }
  };

  return (
    <>
      <section class="account" aria-label="Your account">
        <p>
          Signed in as <strong>{props.user.displayName || props.user.email}</strong>
          <Show when={props.user.displayName}>
            {' '}
            (<span class="account-email">{props.user.email}</span>)
          </Show>
          , {props.user.role}.
        </p>
        <button type="button" class="button button-quiet" onClick={() => void signOut()} aria-disabled={signingOut()}>
          {signingOut() ? 'Signing out…' : 'Sign out'}
        </button>
        <Show when={signOutError()}>
          {(message) => (
            <p class="form-error" role="alert">
              {message()}
            </p>
          )}
        </Show>
      </section>
      <Outbox />
    </>
  );
}

function Outbox(): JSX.Element {
  const [items, { refetch }] = createResource(() => api<OutboxItem[]>('/outbox'));

  return (
    <section class="section" aria-labelledby="outbox-heading">
      <div class="section-header">
        <h2 id="outbox-heading">Email outbox</h2>
        {/* aria-disabled keeps keyboard focus on the button while it works */}
        <button
          type="button"
          class="button button-quiet"
          onClick={() => !items.loading && void refetch()}
          aria-disabled={items.loading}
        >
          {items.loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      <Switch>
        <Match when={items.state === 'pending' || items.state === 'unresolved'}>
          <p class="status-text" aria-busy="true">
            Loading emails…
          </p>
        </Match>
        <Match when={items.state === 'errored'}>
          <div class="notice notice-error" role="alert">
            <p>The outbox could not be loaded. {errorMessage(items.error)}</p>
            <button type="button" class="button" onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        </Match>
        <Match when={items.latest?.length === 0}>
          <p class="status-text">No emails yet. Confirmations and reminders appear here once they are queued.</p>
        </Match>
        <Match when={items.latest}>{(list) => <OutboxTable items={list()} />}</Match>
      </Switch>
    </section>
  );
}

function OutboxTable(props: { items: OutboxItem[] }): JSX.Element {
  return (
    // a focusable region so keyboard users can scroll the table sideways on a narrow screen
    <div class="table-scroll" role="region" aria-labelledby="outbox-heading" tabindex="0">
      <table class="table">
        <thead>
          <tr>
            <th scope="col">To</th>
            <th scope="col">Subject</th>
            <th scope="col">Attachments</th>
            <th scope="col">State</th>
            <th scope="col">Queued</th>
            <th scope="col">Sent</th>
          </tr>
        </thead>
        <tbody>
          <For each={props.items}>
            {(item) => (
              <tr>
                <td class="cell-email">{item.to}</td>
                <td>{item.subject}</td>
                <td>
                  {item.attachments.length === 0 ? (
                    <span class="muted">None</span>
                  ) : (
                    item.attachments.map((attachment) => attachment.filename).join(', ')
                  )}
                </td>
                <td>
                  <span class={`state state-${item.state.replace(/[^a-z_-]/gi, '')}`}>{item.state}</span>
                </td>
                <td>
                  <time datetime={isoDateTime(item.createdUtc)}>{formatUtcDateTime(item.createdUtc)}</time>
                </td>
                <td>
                  {item.sentUtc ? (
                    <time datetime={isoDateTime(item.sentUtc)}>{formatUtcDateTime(item.sentUtc)}</time>
                  ) : (
                    <span class="muted">Not yet</span>
                  )}
                </td>
              </tr>
            )}
          </For>
        </tbody>
      </table>
    </div>
  );
}
