import type { JSX } from 'solid-js';
import { online } from '../pwa';

/** Online/offline, always visible, in words and a shape (never colour alone). */
export function NetworkStatus(): JSX.Element {
  return (
    <p class="network-status" classList={{ offline: !online() }} role="status">
      <span class="network-dot" aria-hidden="true" />
      {online() ? 'Online' : 'Offline'}
    </p>
  );
}
