import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { AdminFrame } from '../components/admin-frame';
import { AsyncView } from '../components/async-view';
import { DataTable } from '../components/data-table';
import { utcMs } from '../../../shared/time';
import { formatUtcDateTime, isoDateTime } from '../../ui/format';
import { listEvents, listOutbox, type OutboxItem } from '../data';
import { mayOpen, signOut, type AdminUser } from '../session';
import { A, navigate } from '../../router';
import { FormError } from '../../ui/form-error';

export default function AdminOverviewPage(): JSX.Element {
  return (
    <AdminFrame title="Admin" area="overview">
      {(user) => (
        <>
          <Account user={user} />
          <Show
            when={mayOpen(user.role, 'events')}
            fallback={<p class="lead">Your role has no administration pages yet. Hosts receive their bookings by email.</p>}
          >
            <UpcomingEvents user={user} />
          </Show>
          <Show when={mayOpen(user.role, 'outbox')}>
            <Outbox />
          </Show>
        </>
      )}
    </AdminFrame>
  );
}

function Account(props: { user: AdminUser }): JSX.Element {
  const [signingOut, setSigningOut] = createSignal(false);
  const [signOutError, setSignOutError] = createSignal<string | null>(null);

  const doSignOut = async () => {
    if (signingOut()) return;
    setSigningOut(true);
    setSignOutError(null);
    try {
      await signOut();
      navigate('/login', { replace: true });
    } catch (error) {
      setSignOutError(errorMessage(error));
      setSigningOut(false);
    }
  };

  return (
    <section class="account" aria-label="Your account">
      <p>
        Signed in as <strong>{props.user.displayName || props.user.email}</strong>
        <Show when={props.user.displayName}>
          {' '}
          (<span class="account-email">{props.user.email}</span>)
        </Show>
        , {props.user.role}.
      </p>
      <button type="button" class="button button-quiet" onClick={() => void doSignOut()} aria-disabled={signingOut()}>
        {signingOut() ? 'Signing out…' : 'Sign out'}
      </button>
      <FormError message={signOutError()} />
    </section>
  );
}

function UpcomingEvents(props: { user: AdminUser }): JSX.Element {
  const [events, { refetch }] = createResource(async () => {
    const all = await listEvents();
    const allowed = props.user.eventIds;
    const mine = props.user.role === 'administrator' || !allowed ? all : all.filter((e) => allowed.includes(e.id));
    const cutoff = Date.now() - 86_400_000;
    return mine.filter((e) => utcMs(e.endsUtc ?? e.startsUtc) >= cutoff).slice(0, 8);
  });
  return (
    <section class="section" aria-labelledby="upcoming-heading">
      <div class="section-header">
        <h2 id="upcoming-heading">Today and upcoming</h2>
        <A href="/admin/events">All events</A>
      </div>
      <AsyncView
        resource={events}
        retry={() => void refetch()}
        what="Events"
        isEmpty={(list) => list.length === 0}
        empty={<p class="status-text">No upcoming events.</p>}
      >
        {(list) => (
          <ul class="link-list">
            <For each={list()}>
              {(event) => (
                <li>
                  <A href={`/admin/events/${event.id}`}>{event.title}</A>{' '}
                  <span class="muted">
                    <time datetime={isoDateTime(event.startsUtc)}>{formatUtcDateTime(event.startsUtc)}</time> · {event.status}
                  </span>
                </li>
              )}
            </For>
          </ul>
        )}
      </AsyncView>
    </section>
  );
}

function Outbox(): JSX.Element {
  const [items, { refetch }] = createResource(async () => (await listOutbox()).items);

  return (
    <section class="section" aria-labelledby="outbox-heading">
      <div class="section-header">
        <h2 id="outbox-heading">Email outbox</h2>
        {/* aria-disabled keeps keyboard focus on the button while it works */}
        <button type="button" class="button button-quiet" onClick={() => !items.loading && void refetch()} aria-disabled={items.loading}>
          {items.loading ? 'Refreshing…' : 'Refresh'}
        </button>
        <A href="/admin/outbox" class="button button-quiet">
          All emails
        </A>
      </div>
      <AsyncView
        resource={items}
        retry={() => void refetch()}
        what="The outbox"
        isEmpty={(list) => list.length === 0}
        empty={<p class="status-text">No emails yet. Confirmations and reminders appear here once they are queued.</p>}
      >
        {(list) => <OutboxTable items={list()} />}
      </AsyncView>
    </section>
  );
}

function OutboxTable(props: { items: OutboxItem[] }): JSX.Element {
  return (
    <DataTable labelledBy="outbox-heading" columns={['To', 'Subject', 'Attachments', 'State', 'Queued', 'Sent']} rows={props.items}>
      {(item) => (
        <tr>
          <td class="cell-email">{item.to}</td>
          <td>{item.subject}</td>
          <td>{item.attachments.length === 0 ? <span class="muted">None</span> : item.attachments.map((a) => a.filename).join(', ')}</td>
          <td>
            <span class={`state state-${item.state.replace(/[^a-z_-]/gi, '')}`}>{item.state}</span>
          </td>
          <td>
            <time datetime={isoDateTime(item.createdUtc)}>{formatUtcDateTime(item.createdUtc)}</time>
          </td>
          <td>{item.sentUtc ? <time datetime={isoDateTime(item.sentUtc)}>{formatUtcDateTime(item.sentUtc)}</time> : <span class="muted">Not yet</span>}</td>
        </tr>
      )}
    </DataTable>
  );
}
