import { createResource, createSignal, For, Show, type JSX } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { AdminFrame } from '../components/admin-frame';
import { SetupChecklist } from '../components/setup-checklist';
import { AsyncView, ready } from '../components/async-view';
import { utcMs } from '../../../shared/time';
import { formatWhen } from '../../../shared/time-format';
import type { OverviewEvent } from '../../../shared/overview';
import { formatCount, formatMoney, isoDateTime } from '../../ui/format';
import { getOverview } from '../data';
import { viewerTimeZone } from '../forms';
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
          <Show when={user.role === 'administrator'}>
            <SetupChecklist />
          </Show>
          <OverviewFigures user={user} />
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

function OverviewFigures(props: { user: AdminUser }): JSX.Element {
  const zone = viewerTimeZone();
  const [figures, { refetch }] = createResource(() => getOverview(zone));
  return (
    <>
      <Show when={mayOpen(props.user.role, 'events')} fallback={<p class="lead">{t('admin.overview.noPages')}</p>}>
        <section class="section" aria-labelledby="upcoming-heading">
          <div class="section-header">
            <h2 id="upcoming-heading">{t('admin.overview.upcoming')}</h2>
            <A href="/admin/events">{t('admin.overview.allEvents')}</A>
          </div>
          <AsyncView
            resource={figures}
            retry={() => void refetch()}
            what={t('admin.overview.whatEvents')}
            isEmpty={(o) => o.events.length === 0}
            empty={<p class="status-text">{t('admin.overview.noUpcoming')}</p>}
          >
            {(o) => (
              <ul class="overview-events">
                <For each={o().events}>{(event) => <EventFigures event={event} />}</For>
              </ul>
            )}
          </AsyncView>
        </section>
      </Show>
      <Show when={ready(figures)?.bookings}>
        {(bookings) => (
          <section class="section" aria-labelledby="bookings-heading">
            <div class="section-header">
              <h2 id="bookings-heading">{t('admin.overview.bookings')}</h2>
              <Show when={mayOpen(props.user.role, 'booking') || mayOpen(props.user.role, 'host-space')}>
                <A href={props.user.role === 'host' ? `/admin/hosts/${props.user.id}/bookings` : '/admin/bookings'}>{t('admin.overview.allBookings')}</A>
              </Show>
            </div>
            <div class="stats stats-secondary">
              <div class="stat">
                <span class="stat-value">{formatCount(bookings().today)}</span>
                <span class="stat-label">{t('admin.overview.bookingsToday')}</span>
              </div>
              <div class="stat">
                <span class="stat-value">{formatCount(bookings().thisWeek)}</span>
                <span class="stat-label">{t('admin.overview.bookingsWeek')}</span>
              </div>
            </div>
            <p class="muted">{t('admin.overview.inZone', { zone: zone.replace(/_/g, ' ') })}</p>
          </section>
        )}
      </Show>
      <Show when={mayOpen(props.user.role, 'outbox') && ready(figures)?.outbox}>
        {(outbox) => (
          <section class="section" aria-labelledby="outbox-heading">
            <div class="section-header">
              <h2 id="outbox-heading">{t('admin.overview.outbox')}</h2>
              <A href="/admin/outbox" class="button button-quiet">
                {t('admin.overview.allEmails')}
              </A>
            </div>
            <p class="outbox-summary" classList={{ 'notice notice-error': outbox().failed > 0 }}>
              {t('admin.overview.outboxCounts', { queued: outbox().queued, failed: outbox().failed })}
            </p>
          </section>
        )}
      </Show>
    </>
  );
}

function EventFigures(props: { event: OverviewEvent }): JSX.Element {
  const e = () => props.event;
  const when = () => formatWhen({ startUtc: e().startsUtc, endUtc: e().endsUtc, zone: e().timezone, locale: intlLocale() }).text;
  const started = () => utcMs(e().startsUtc) <= Date.now();
  const signups = () => e().signupsByDay.reduce((sum, d) => sum + d.seats, 0);
  return (
    <li class="overview-event">
      <div class="overview-event-head">
        <A href={`/admin/events/${e().id}`}>{e().title}</A>{' '}
        <span class="muted">
          <time datetime={isoDateTime(e().startsUtc)}>{when()}</time> · {eventStatusLabel(e().status)}
        </span>
      </div>
      <div class="stats stats-secondary">
        <div class="stat">
          <span class="stat-value">
            {e().capacity === null ? formatCount(e().seatsGoing) : t('admin.overview.ofCapacity', { n: e().seatsGoing, capacity: e().capacity ?? 0 })}
          </span>
          <span class="stat-label">{t('admin.overview.seatsGoing')}</span>
        </div>
        <Show when={e().revenueCents !== null}>
          <div class="stat">
            <span class="stat-value">{formatMoney(e().revenueCents ?? 0, e().currency)}</span>
            <span class="stat-label">{t('admin.overview.revenue')}</span>
          </div>
        </Show>
        <div class="stat">
          <span class="stat-value">{formatCount(e().seatsWaitlisted)}</span>
          <span class="stat-label">{t('admin.overview.waitlist')}</span>
        </div>
        <Show when={started() || e().seatsCheckedIn > 0}>
          <div class="stat">
            <span class="stat-value">{t('admin.overview.ofCapacity', { n: e().seatsCheckedIn, capacity: e().seatsGoing })}</span>
            <span class="stat-label">{t('admin.overview.checkedIn')}</span>
          </div>
        </Show>
      </div>
      <Show when={e().capacity}>
        {(capacity) => (
          <meter class="overview-meter" min={0} max={capacity()} value={Math.min(e().seatsGoing, capacity())} aria-label={t('admin.overview.seatsGoing')} />
        )}
      </Show>
      <SignupChart days={e().signupsByDay} label={t('admin.overview.signupsChart', { days: e().signupsByDay.length, seats: signups() })} />
    </li>
  );
}

/** Seats signed up per day as small bars, oldest first; the caption says the total. */
function SignupChart(props: { days: OverviewEvent['signupsByDay']; label: string }): JSX.Element {
  const width = 140;
  const height = 28;
  const gap = 2;
  const top = () => Math.max(1, ...props.days.map((d) => d.seats));
  const bar = () => (width - gap * (props.days.length - 1)) / Math.max(1, props.days.length);
  return (
    <figure class="overview-chart">
      <svg viewBox={`0 0 ${width} ${height}`} width={width} height={height} aria-hidden="true">
        <For each={props.days}>
          {(d, i) => {
            const h = () => (d.seats === 0 ? 1 : Math.max(2, (d.seats / top()) * height));
            return <rect x={i() * (bar() + gap)} y={height - h()} width={bar()} height={h()} class={d.seats === 0 ? 'bar-empty' : 'bar'} />;
          }}
        </For>
      </svg>
      <figcaption class="muted">{props.label}</figcaption>
    </figure>
  );
}

/** An event's status as the events list names it. */
function eventStatusLabel(status: string): string {
  return status === 'published' ? t('admin.events.published') : t('admin.events.draft');
}
