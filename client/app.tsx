import { Show, Suspense, type JSX } from 'solid-js';
import { NetworkStatus } from './ui/network-status';
import { UpdateBanner } from './ui/update-banner';
import NotFoundPage from './ui/not-found';
import { A, location, Router, type RouteDefinition } from './router';
import { adminRoutes } from './routes/admin';
import { doorRoutes } from './routes/door';
import { visitorRoutes } from './routes/visitor';
import { t } from './i18n/i18n';
import { LanguageMenu } from './i18n/language-menu';
import { doorPaired } from './ui/door-paired';
import { embedded } from './ui/embed';
import { OrganizationFooter, OrganizationMark } from './ui/organization-mark';
import { organization } from './ui/organization';
import { displayName } from '../shared/organization';

// Each page is its own chunk; the shell loads only the router and the current page.
// Each area keeps its own route list so the door, visitor and admin pages grow apart.
export const routes: RouteDefinition[] = [...visitorRoutes, ...doorRoutes, ...adminRoutes];

/** Staff areas (door, admin, sign-in, invites) get the staff header; every other page is a visitor's. */
const STAFF_PREFIXES = ['/door', '/admin', '/login', '/invite/'];
export function isStaffPath(pathname: string): boolean {
  return STAFF_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
}

/** The door page on a paired door device: its header shows no navigation. */
const isDoorDevice = () => doorPaired() && (location().pathname === '/door' || location().pathname.startsWith('/door/'));

export function App(): JSX.Element {
  // an embed on another site shows the page alone: that site has its own header (docs/decisions/052-embeds.md)
  if (embedded) {
    return (
      <main id="main" tabindex="-1" class="embedded-main">
        <Suspense fallback={<p class="status-text">{t('common.loading')}</p>}>
          <Router routes={routes} fallback={NotFoundPage} />
        </Suspense>
      </main>
    );
  }
  return (
    <>
      <a class="skip-link" href="#main">
        {t('common.skipToContent')}
      </a>
      <header class="site-header">
        <A href="/" class="brand" aria-label={t('common.startPage', { name: displayName(organization()) })}>
          <OrganizationMark name={displayName(organization())} logoUrl={organization().logo?.url} />
        </A>
        {/* visitors see where they can go; the door and admin links are for staff pages only; a paired door device, at the door, needs none */}
        <Show when={!isDoorDevice()}>
          <nav aria-label={t('common.mainNav')} class="site-nav">
            <A href="/events">{t('common.events')}</A>
            <Show when={isStaffPath(location().pathname)}>
              <A href="/door">{t('common.door')}</A>
              <A href="/admin">{t('common.admin')}</A>
            </Show>
          </nav>
        </Show>
        <NetworkStatus />
        {/* staff pages are translated in a later step; a menu there would switch nothing yet */}
        <Show when={!isStaffPath(location().pathname)}>
          <LanguageMenu />
        </Show>
      </header>
      <UpdateBanner />
      <main id="main" tabindex="-1">
        <Suspense fallback={<p class="status-text">{t('common.loading')}</p>}>
          <Router routes={routes} fallback={NotFoundPage} />
        </Suspense>
      </main>
      <Show when={!isStaffPath(location().pathname)}>
        <OrganizationFooter organization={organization()} />
      </Show>
    </>
  );
}
