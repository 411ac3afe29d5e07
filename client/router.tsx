/**
 * A small history-API router: path patterns with `:params`, `<A>` links that navigate
 * without a page load, and a fallback for paths no route matches. Enough for the PWA's
 * flat route table (docs/api.md#overview) without another dependency.
 */
import { createMemo, createSignal, splitProps, type Component, type JSX } from 'solid-js';
import { matchRoute as matchPath } from '../shared/route-match';
import { Dynamic } from 'solid-js/web';
import { keepEmbedParams } from './ui/embed';

export type Params = Record<string, string>;

export interface RouteProps {
  params: Params;
}

export interface RouteDefinition {
  /** `/`, `/login`, `/events/:id`; a trailing slash in the URL is tolerated. */
  path: string;
  component: Component<RouteProps>;
}

export interface RouteMatch {
  route: RouteDefinition;
  params: Params;
}

interface CurrentLocation {
  pathname: string;
  search: string;
  hash: string;
}

const readLocation = (): CurrentLocation => ({
  pathname: window.location.pathname,
  search: window.location.search,
  hash: window.location.hash,
});

const [location, setLocation] = createSignal<CurrentLocation>(readLocation());
window.addEventListener('popstate', () => setLocation(readLocation()));

/** The current URL's path, query and hash (reactive). */
export { location };

/** The current query string as URLSearchParams (reactive). */
export const searchParams = (): URLSearchParams => new URLSearchParams(location().search);

// Set by navigate() so the next page moves focus to its heading (screen readers hear the
// new page); a first load or back/forward keeps the browser's own focus handling.
let focusPending = false;

/** True once after a client-side navigation: the page that renders should take focus. */
export function takeNavigationFocus(): boolean {
  const pending = focusPending;
  focusPending = false;
  return pending;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = new URL(to, window.location.href);
  if (url.origin !== window.location.origin) {
    window.location.assign(url.href);
    return;
  }
  keepEmbedParams(url);
  const target = url.pathname + url.search + url.hash;
  if (options.replace) window.history.replaceState(null, '', target);
  else window.history.pushState(null, '', target);
  focusPending = true;
  setLocation(readLocation());
  if (!url.hash) window.scrollTo(0, 0);
}

/** The first route whose pattern matches `pathname`, with its decoded params (shared/route-match.ts). */
export function matchRoute(routes: readonly RouteDefinition[], pathname: string): RouteMatch | null {
  return matchPath(routes, pathname);
}

/**
 * Loads the page chunk of the route `pathname` matches (a `lazy()` component's `preload`), so the
 * first render draws the page itself rather than a loading state and then the page: one task
 * before the first paint instead of a second, long one after it (docs/decisions/019-fast-first-paint.md).
 */
export async function preloadRoute(routes: readonly RouteDefinition[], pathname: string): Promise<void> {
  const component = matchRoute(routes, pathname)?.route.component as { preload?: () => Promise<unknown> } | undefined;
  await component?.preload?.();
}

export function Router(props: { routes: readonly RouteDefinition[]; fallback: Component<RouteProps> }): JSX.Element {
  const match = createMemo(() => matchRoute(props.routes, location().pathname));
  const component = createMemo(() => match()?.route.component ?? props.fallback);
  return <Dynamic component={component()} params={match()?.params ?? {}} />;
}

/** Whether a click should be left to the browser (new tab, download, other origin…). */
function isBrowserHandledClick(event: MouseEvent, anchor: HTMLAnchorElement): boolean {
  return (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey ||
    (anchor.target !== '' && anchor.target !== '_self') ||
    anchor.hasAttribute('download') ||
    anchor.origin !== window.location.origin
  );
}

export type AProps = JSX.AnchorHTMLAttributes<HTMLAnchorElement> & { href: string };

/** A link that navigates client-side; marks itself `aria-current="page"` when it is the current page. */
export function A(props: AProps): JSX.Element {
  const [local, rest] = splitProps(props, ['href', 'onClick']);
  const current = () => {
    const url = new URL(local.href, window.location.href);
    return url.pathname === location().pathname ? 'page' : undefined;
  };
  const onClick = (event: MouseEvent & { currentTarget: HTMLAnchorElement; target: Element }) => {
    const handler = local.onClick;
    if (typeof handler === 'function') handler(event);
    if (isBrowserHandledClick(event, event.currentTarget)) return;
    event.preventDefault();
    navigate(local.href);
  };
  return <a {...rest} href={local.href} aria-current={current()} onClick={onClick} />;
}
