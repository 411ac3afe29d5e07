import { Show, Suspense, type JSX } from 'solid-js';
import { NetworkStatus } from './ui/network-status';
import { UpdateBanner } from './ui/update-banner';
import NotFoundPage from './ui/not-found';
import { A, location, Router, type RouteDefinition } from './router';
import { adminRoutes } from './routes/admin';
import { doorRoutes } from './routes/door';
import { visitorRoutes } from './routes/visitor';

// Each page is its own chunk; the shell loads only the router and the current page.
// Each area keeps its own route list so the door, visitor and admin pages grow apart.
const routes: RouteDefinition[] = [...visitorRoutes, ...doorRoutes, ...adminRoutes];

/** Staff areas (door, admin, sign-in, invites) get the staff header; every other page is a visitor's. */
const STAFF_PREFIXES = ['/door', '/admin', '/login', '/invite/'];
export function isStaffPath(pathname: string): boolean {
  return STAFF_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
}

export function App(): JSX.Element {
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <A href="/" class="brand" aria-label="svc, start page">
          <img src="/icons/icon-192.png" alt="" width="28" height="28" />
          svc
        </A>
        {/* visitors see where they can go; the door and admin links are for staff pages only */}
        <nav aria-label="Main" class="site-nav">
          <A href="/events">Events</A>
          <Show when={isStaffPath(location().pathname)}>
            <A href="/door">Door</A>
            <A href="/admin">Admin</A>
          </Show>
        </nav>
        <NetworkStatus />
      </header>
      <UpdateBanner />
      <main id="main" tabindex="-1">
        <Suspense fallback={<p class="status-text">Loading…</p>}>
          <Router routes={routes} fallback={NotFoundPage} />
        </Suspense>
      </main>
    </>
  );
}
