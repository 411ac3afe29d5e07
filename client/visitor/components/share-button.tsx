/**
 * "Share" on a public page (docs/decisions/051-link-previews-and-directions.md): the system's share
 * sheet where the browser has one (Web Share API), otherwise the link is copied and the button
 * says so. The shared link is the page's canonical one, without the reader's own query.
 */
import { createSignal, onCleanup, Show, type JSX } from 'solid-js';
import { t } from '../../i18n/i18n';

/** How long "Link copied" stays before the button reads "Share" again. */
const COPIED_NOTE_MS = 4000;

export function ShareButton(props: { title: string; path: string }): JSX.Element {
  const [note, setNote] = createSignal<'copied' | 'failed' | null>(null);
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  const say = (what: 'copied' | 'failed') => {
    setNote(what);
    clearTimeout(timer);
    timer = setTimeout(() => setNote(null), COPIED_NOTE_MS);
  };

  const share = async () => {
    const url = new URL(props.path, location.origin).href;
    if (typeof navigator.share === 'function') {
      try {
        await navigator.share({ title: props.title, url });
        return;
      } catch (err) {
        // the reader closed the sheet: nothing to say
        if ((err as DOMException).name === 'AbortError') return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      say('copied');
    } catch {
      say('failed');
    }
  };

  return (
    <div class="v-share">
      <button type="button" class="button button-quiet" data-share onClick={() => void share()}>
        {t('share.button')}
      </button>
      <span role="status" aria-live="polite" class="v-share-note">
        <Show when={note()}>{(n) => (n() === 'copied' ? t('share.copied') : t('share.copyFailed'))}</Show>
      </span>
    </div>
  );
}
