import { render } from 'solid-js/web';
import { App } from './app';
import { startI18n } from './i18n/i18n';
import { registerServiceWorker } from './pwa';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
// the catalogue chunk is preloaded beside this script (server/static.ts): waiting for it costs no round trip
void startI18n().then(() => render(() => <App />, root));
// after the page has loaded: the worker's install downloads the whole app for offline use,
// which must not compete with this page's own requests (docs/decisions/019-fast-first-paint.md)
if (document.readyState === 'complete') void registerServiceWorker();
else window.addEventListener('load', () => void registerServiceWorker(), { once: true });
