import type { JSX } from 'solid-js';
import { online } from '../pwa';
import { t } from '../i18n/i18n';

/** Online/offline, always visible, in words and a shape (never colour alone). */
export function NetworkStatus(): JSX.Element {
  return (
    <p class="network-status" classList={{ offline: !online() }} role="status">
      <span class="network-dot" aria-hidden="true" />
      {online() ? t('common.online') : t('common.offline')}
    </p>
  );
}
