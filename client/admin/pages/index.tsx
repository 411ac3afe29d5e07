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
import { intlLocale, t, tx } from '../../i18n/i18n';
import { roleLabel } from '../constants';

export default function AdminOverviewPage(): JSX.Element {
  return (
    <AdminFrame title={t('admin.overview.title')} area="overview">
      {(user) => (
        <>
          <Account user={user} />
          <Show when={mayOpen(user.role, 'events')} fallback={<p class="lead">{t('admin.overview.noPages')}</p>}>
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
    <section class="account" aria-label={t('admin.overview.account')}>
      <p>
        <Show
          when={props.user.displayName}
          fallback={tx('admin.overview.signedInAs', { name: props.user.email, role: roleLabel(props.user.role), b: (chunks) => <strong>{chunks}</strong> })}
        >
          {(name) =>
            tx('admin.overview.signedInAsNamed', {
              name: name(),
              email: props.user.email,
              role: roleLabel(props.user.role),
              b: (chunks) => <strong>{chunks}</strong>,
              e: (chunks) => <span class="account-email">{chunks}</span>,
            })
          }
        </Show>
      </p>
      <button type="button" class="button button-quiet" onClick={() => void doSignOut()} aria-disabled={signingOut()}>
        {signingOut() ? t('admin.overview.signingOut') : t('admin.overview.signOut')}
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
        <h2 id="upcoming-heading">{t('admin.overview.upcoming')}</h2>
        <A href="/admin/events">{t('admin.overview.allEvents')}</A>
      </div>
      <AsyncView
        resource={events}
        retry={() => void refetch()}
        what={t('admin.overview.whatEvents')}
        isEmpty={(list) => list.length === 0}
        empty={<p class="status-text">{t('admin.overview.noUpcoming')}</p>}
      >
        {(list) => (
          <ul class="link-list">
            <For each={list()}>
              {(event) => (
                <li>
                  <A href={`/admin/events/${event.id}`}>{event.title}</A>{' '}
                  <span class="muted">
                    <time datetime={isoDateTime(event.startsUtc)}>{formatUtcDateTime(event.startsUtc)}</time> · {eventStatusLabel(event.status)}
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
        <h2 id="outbox-heading">{t('admin.overview.outbox')}</h2>
        {/* aria-disabled keeps keyboard focus on the button while it works */}
        <button type="button" class="button button-quiet" onClick={() => !items.loading && void refetch()} aria-disabled={items.loading}>
          {items.loading ? t('admin.common.refreshing') : t('admin.common.refresh')}
        </button>
        <A href="/admin/outbox" class="button button-quiet">
          {t('admin.overview.allEmails')}
        </A>
      </div>
      <AsyncView
        resource={items}
        retry={() => void refetch()}
        what={t('admin.overview.whatOutbox')}
        isEmpty={(list) => list.length === 0}
        empty={<p class="status-text">{t('admin.overview.noEmails')}</p>}
      >
        {(list) => <OutboxTable items={list()} />}
      </AsyncView>
    </section>
  );
}

function OutboxTable(props: { items: OutboxItem[] }): JSX.Element {
  return (
    <DataTable
      labelledBy="outbox-heading"
      columns={[
        t('admin.overview.col.to'),
        t('admin.overview.col.subject'),
        t('admin.overview.col.attachments'),
        t('admin.overview.col.state'),
        t('admin.overview.col.queued'),
        t('admin.overview.col.sent'),
      ]}
      rows={props.items}
    >
      {(item) => (
        <tr>
          <td class="cell-email">{item.to}</td>
          <td>{item.subject}</td>
          <td>
            {item.attachments.length === 0 ? (
              <span class="muted">{t('admin.overview.noAttachments')}</span>
            ) : (
              listFormat(item.attachments.map((a) => a.filename))
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
              <span class="muted">{t('admin.overview.notSentYet')}</span>
            )}
          </td>
        </tr>
      )}
    </DataTable>
  );
}

/** An event's status as the events list names it. */
function eventStatusLabel(status: string): string {
  return status === 'published' ? t('admin.events.published') : t('admin.events.draft');
}

/** Names joined the reader's way ("a, b and c" / "a, b und c"). */
function listFormat(items: string[]): string {
  return new Intl.ListFormat(intlLocale(), { style: 'narrow', type: 'unit' }).format(items);
}
