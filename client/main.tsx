import { render } from 'solid-js/web';
import { App, routes } from './app';
import { startI18n } from './i18n/i18n';
import { preloadRoute } from './router';
import { registerServiceWorker } from './pwa';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// the catalogue and the page's chunks are preloaded beside this script (server/static.ts): waiting
// for them costs no round trip, and the first render draws the page, not a loading state first
// (a page chunk that fails to load is left to the router, which tries again as it renders)
void Promise.all([startI18n(), preloadRoute(routes, window.location.pathname).catch(() => undefined)]).then(() => render(() => <App />, root));
// after the page has loaded: the worker's install downloads the whole app for offline use,
// which must not compete with this page's own requests (docs/decisions/019-fast-first-paint.md)
if (document.readyState === 'complete') void registerServiceWorker();
else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
