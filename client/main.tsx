import { render } from 'solid-js/web';
import { App } from './app';
import { registerServiceWorker } from './pwa';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing from index.html');
render(() => <App />, root);
void registerServiceWorker();
