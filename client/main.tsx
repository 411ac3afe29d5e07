// first: an embed's storage stand-ins must be in place before any module reads storage
import { embedded, provideEmbedDatabase, startEmbed } from './ui/embed';
import { render } from 'solid-js/web';
import { App, routes } from './app';
import { startI18n, warmIntl } from './i18n/i18n';
import { preloadRoute } from './router';
import { registerServiceWorker } from './pwa';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// the catalogue and the page's chunks are preloaded beside this script (server/static.ts): waiting
// for them costs no round trip, and the first render draws the page, not a loading state first
// (a page chunk that fails to load is left to the router, which tries again as it renders)
// What Intl needs for the reader's language loads in a task of its own, then the first render in
// the next, so neither blocks input for long (docs/decisions/019-fast-first-paint.md).
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
void Promise.all([startI18n(), preloadRoute(routes, window.location.pathname).catch(() => undefined), provideEmbedDatabase()])
  .then(nextTask)
  .then(() => {
    warmIntl();
    return nextTask();
  })
  .then(() => {
    render(() => <App />, root);
    startEmbed();
  });
// after the page has loaded: the worker's install downloads the whole app for offline use,
// which must not compete with this page's own requests (docs/decisions/019-fast-first-paint.md);
// an embed on another site gets none: its storage is partitioned by that site and the page is one visit
if (!embedded) {
  if (document.readyState === 'complete') void registerServiceWorker();
  else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
}
