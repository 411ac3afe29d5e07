import { createSignal, Show, type JSX } from 'solid-js';
import { applyUpdate, updateAllowed, updateAvailable } from '../pwa';
import { t } from '../i18n/i18n';

/** Offers a waiting new version; shown only while the update gate allows an update. */
export function UpdateBanner(): JSX.Element {
  const [dismissed, setDismissed] = createSignal(false);
  const [applying, setApplying] = createSignal(false);
  const update = async () => {
    setApplying(true);
    if (!(await applyUpdate())) setApplying(false);
  };
  return (
    <Show when={updateAvailable() && updateAllowed() && !dismissed()}>
      <div class="banner" role="status">
        <p>{t('ui.update.ready')}</p>
        <div class="banner-actions">
          <button type="button" class="button" onClick={() => void update()} disabled={applying()}>
            {applying() ? t('ui.update.updating') : t('ui.update.now')}
          </button>
          <button type="button" class="button button-quiet" onClick={() => setDismissed(true)}>
            {t('ui.update.later')}
          </button>
        </div>
      </div>
    </Show>
  );
}
