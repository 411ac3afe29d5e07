import '../admin-i18n';
import { createResource, For, Match, Show, Switch, type JSX } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { loginPath } from '../auth';
import { mayOpen, adminUser, type AdminArea, type AdminUser } from '../session';
import { startOffline } from '../data';
import { edition, loadPaymentStatus } from '../edition';
import { Page } from '../../ui/page';
import { ready } from './async-view';
import { A, location, navigate } from '../../router';
import '../../styles/admin.css';

/** `extended`: only when the server runs the extended edition (`payments.status`). */
const NAV: Array<{ href: string; label: string; area: AdminArea; extended?: boolean }> = [
  { href: '/admin', label: 'Overview', area: 'overview' },
  { href: '/admin/events', label: 'Events', area: 'events' },
  { href: '/admin/booking-types', label: 'Booking types', area: 'booking' },
  { href: '/admin/bookings', label: 'Bookings', area: 'booking' },
  { href: '/admin/orders', label: 'Orders', area: 'orders', extended: true },
  { href: '/admin/submissions', label: 'Submissions', area: 'manage-events', extended: true },
  { href: '/admin/resources', label: 'Resources', area: 'booking', extended: true },
  { href: '/admin/webhooks', label: 'Webhooks', area: 'integrations', extended: true },
  { href: '/admin/devices', label: 'Door devices', area: 'devices' },
  { href: '/admin/settings', label: 'Settings & people', area: 'settings' },
  { href: '/admin/outbox', label: 'Outbox', area: 'outbox' },
];

/** The navigation entry a page belongs to: the longest one its path starts with (`/admin/events/7/attendees` is under Events). */
function sectionOf(pathname: string): string {
  let best = '/admin';
  for (const { href } of NAV) if ((pathname === href || pathname.startsWith(`${href}/`)) && href.length > best.length) best = href;
  return best;
}

/** On a narrow screen the tabs scroll sideways: bring the current page's tab into view, without moving the page. */
function revealCurrentTab(nav: HTMLElement): void {
  const tab = nav.querySelector<HTMLElement>('.admin-nav-here');
  if (!tab || nav.scrollWidth <= nav.clientWidth) return;
  // the nav is positioned (admin.css), so the tab's offsetLeft is measured from it
  nav.scrollLeft = tab.offsetLeft - (nav.clientWidth - tab.offsetWidth) / 2;
}

/**
 * Every admin page: checks the session (to /login when there is none), shows the admin
 * navigation the role may use, and refuses a page the role may not open (docs/api.md#auth).
 */
export function AdminFrame(props: { title: string; heading?: string; area: AdminArea; children: (user: AdminUser) => JSX.Element }): JSX.Element {
  const [user, { refetch }] = createResource(async () => {
    const current = await adminUser();
    if (!current) navigate(loginPath(location().pathname + location().search), { replace: true });
    // keeps the events this admin keeps offline in sync, and sends queued edits (decision 012)
    else void startOffline(current).catch(() => undefined);
    // the edition decides which pages the navigation offers (offline: the last one seen)
    if (current && mayOpen(current.role, 'orders')) void loadPaymentStatus().catch(() => undefined);
    return current;
  });

  return (
    <Page title={props.title} heading={props.heading}>
      <Show when={ready(user)}>
        {(current) => (
          <nav class="admin-nav" aria-label="Administration" ref={(el) => requestAnimationFrame(() => revealCurrentTab(el))}>
            <For each={NAV.filter((item) => mayOpen(current().role, item.area) && (!item.extended || edition() === 'extended'))}>
              {(item) => (
                <A href={item.href} classList={{ 'admin-nav-here': sectionOf(location().pathname) === item.href }}>
                  {item.label}
                </A>
              )}
            </For>
          </nav>
        )}
      </Show>
      <Switch>
        <Match when={user.state === 'pending' || user.state === 'unresolved'}>
          <p class="status-text" aria-busy="true">
            Checking your sign-in…
          </p>
        </Match>
        <Match when={user.state === 'errored'}>
          <div class="notice notice-error" role="alert">
            <p>Could not check your sign-in. {errorMessage(user.error)}</p>
            <button type="button" class="button" onClick={() => void refetch()}>
              Try again
            </button>
          </div>
        </Match>
        <Match when={ready(user) && !mayOpen(ready(user)!.role, props.area)}>
          <div class="notice" role="alert">
            <p>Your role ({ready(user)?.role}) does not give access to this page.</p>
            <A href="/admin">Back to the overview</A>
          </div>
        </Match>
        <Match when={ready(user)}>{(current) => props.children(current())}</Match>
      </Switch>
    </Page>
  );
}
