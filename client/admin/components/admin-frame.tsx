import '../admin-i18n';
import { createResource, For, Match, Show, Switch, type JSX } from 'solid-js';
import { errorMessage } from '../../ui/errors';
import { landingPath, loginPath } from '../auth';
import { mayOpen, adminUser, type AdminArea, type AdminUser } from '../session';
import { startOffline } from '../data';
import { edition, loadPaymentStatus } from '../edition';
import { Page } from '../../ui/page';
import { ready } from './async-view';
import { A, location, navigate } from '../../router';
import '../../styles/admin.css';
import { t } from '../../i18n/i18n';
import { AdminLanguageMenu } from './admin-language-menu';
import { chooseMyLanguage } from '../my-language';
import { roleLabel } from '../constants';

/**
 * `extended`: only when the server runs the extended edition (`payments.status`). `ownSpace`: a
 * host's own pages (administrators reach any host's from the Hosts list instead).
 * `label` is a function: it reads the catalogue when drawn, so a language switch redraws it.
 */
interface NavItem {
  href: string | ((user: AdminUser) => string);
  label: () => string;
  area: AdminArea;
  extended?: boolean;
  ownSpace?: boolean;
}
const NAV: NavItem[] = [
  { href: '/admin', label: () => t('admin.frame.nav.overview'), area: 'overview' },
  { href: (u) => `/admin/hosts/${u.id}/bookings`, label: () => t('admin.frame.nav.myBookings'), area: 'host-space', ownSpace: true },
  { href: (u) => `/admin/hosts/${u.id}/hours`, label: () => t('admin.frame.nav.myHours'), area: 'host-space', ownSpace: true },
  { href: (u) => `/admin/hosts/${u.id}/calendars`, label: () => t('admin.frame.nav.myCalendars'), area: 'host-space', ownSpace: true },
  { href: '/admin/profile', label: () => t('admin.frame.nav.profile'), area: 'host-space', ownSpace: true },
  { href: '/admin/events', label: () => t('admin.frame.nav.events'), area: 'events' },
  { href: '/admin/booking-types', label: () => t('admin.frame.nav.bookingTypes'), area: 'booking' },
  { href: '/admin/bookings', label: () => t('admin.frame.nav.bookings'), area: 'booking' },
  { href: '/admin/orders', label: () => t('admin.frame.nav.orders'), area: 'orders', extended: true },
  { href: '/admin/submissions', label: () => t('admin.frame.nav.submissions'), area: 'manage-events', extended: true },
  { href: '/admin/resources', label: () => t('admin.frame.nav.resources'), area: 'booking', extended: true },
  { href: '/admin/webhooks', label: () => t('admin.frame.nav.webhooks'), area: 'integrations', extended: true },
  { href: '/admin/devices', label: () => t('admin.frame.nav.devices'), area: 'devices' },
  { href: '/admin/settings', label: () => t('admin.frame.nav.settings'), area: 'settings' },
  { href: '/admin/outbox', label: () => t('admin.frame.nav.outbox'), area: 'outbox' },
];

/** The entries a user's navigation shows: what their role may open (a host's own pages only to hosts). */
function navFor(user: AdminUser): Array<{ href: string; label: () => string }> {
  return NAV.filter((item) => mayOpen(user.role, item.area) && (!item.extended || edition() === 'extended') && (!item.ownSpace || user.role === 'host')).map(
    (item) => ({ href: typeof item.href === 'string' ? item.href : item.href(user), label: item.label }),
  );
}

/** The navigation entry a page belongs to: the longest one its path starts with (`/admin/events/7/attendees` is under Events). */
function sectionOf(pathname: string, hrefs: string[]): string {
  let best = '/admin';
  for (const href of hrefs) if ((pathname === href || pathname.startsWith(`${href}/`)) && href.length > best.length) best = href;
  return best;
}

/** On a narrow screen the tabs scroll sideways: bring the current page's tab into view, without moving the page. */
function revealCurrentTab(nav: HTMLElement): void {
  const tab = nav.querySelector<HTMLElement>('.admin-nav-here');
  if (!tab || nav.scrollWidth <= nav.clientWidth) return;
  // measured on screen, so it centres the tab the same way in right-to-left (where scrollLeft runs negative)
  const navBox = nav.getBoundingClientRect();
  const tabBox = tab.getBoundingClientRect();
  nav.scrollLeft += tabBox.left + tabBox.width / 2 - (navBox.left + navBox.width / 2);
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
      {/* the choice is also stored on the signed-in person (their other devices and their mails) */}
      <AdminLanguageMenu onChoose={(chosen) => void chooseMyLanguage(chosen)} />
      <Show when={ready(user)}>
        {(current) => (
          <nav class="admin-nav" aria-label={t('admin.frame.navLabel')} ref={(el) => requestAnimationFrame(() => revealCurrentTab(el))}>
            <For each={navFor(current())}>
              {(item) => (
                <A
                  href={item.href}
                  classList={{
                    'admin-nav-here':
                      sectionOf(
                        location().pathname,
                        navFor(current()).map((i) => i.href),
                      ) === item.href,
                  }}
                >
                  {item.label()}
                </A>
              )}
            </For>
          </nav>
        )}
      </Show>
      <Switch>
        <Match when={user.state === 'pending' || user.state === 'unresolved'}>
          <p class="status-text" aria-busy="true">
            {t('admin.frame.checkingSignIn')}
          </p>
        </Match>
        <Match when={user.state === 'errored'}>
          <div class="notice notice-error" role="alert">
            <p>{t('admin.frame.signInCheckFailed', { reason: errorMessage(user.error) })}</p>
            <button type="button" class="button" onClick={() => void refetch()}>
              {t('common.tryAgain')}
            </button>
          </div>
        </Match>
        <Match when={ready(user) && !mayOpen(ready(user)!.role, props.area)}>
          <div class="notice" role="alert">
            <p>{t('admin.frame.roleRefused', { role: roleLabel(ready(user)!.role) })}</p>
            <A href={landingPath(ready(user)!)}>{t('admin.frame.backToOverview')}</A>
          </div>
        </Match>
        <Match when={ready(user)}>{(current) => props.children(current())}</Match>
      </Switch>
    </Page>
  );
}
