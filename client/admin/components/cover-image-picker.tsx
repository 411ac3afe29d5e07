/**
 * The cover image of an event or booking type (docs/api.md#images): a preview, a file picker
 * that uploads at once, and Remove. Beside the form, not in it: the image is saved on its own.
 */
import { createSignal, Show, type JSX } from 'solid-js';
import { ActionNoticeView, type ActionNotice } from './action-notice';
import { removeCoverImage, uploadCoverImage, type CoverOwner } from '../data';
import { adminErrorMessage } from '../errors';
import { IMAGE_TYPES, type ImageDto } from '../../../shared/images';
import { t } from '../../i18n/i18n';

/** The words of each kind of image (a logo is not a cover). */
const WORDS = {
  cover: { heading: 'admin.cover.heading', none: 'admin.cover.none', previewAlt: 'admin.cover.previewAlt' },
  logo: { heading: 'admin.logo.heading', none: 'admin.logo.none', previewAlt: 'admin.logo.previewAlt' },
} as const;

export function CoverImagePicker(props: { owner: CoverOwner; id: number; image: ImageDto | null; onChange?: (image: ImageDto | null) => void }): JSX.Element {
  const words = WORDS[props.owner === 'logo' ? 'logo' : 'cover'];
  const [image, setImage] = createSignal<ImageDto | null>(props.image);
  const [notice, setNotice] = createSignal<ActionNotice | null>(null);
  const [busy, setBusy] = createSignal(false);
  let fileInput: HTMLInputElement | undefined;
  const inputId = `cover-${props.owner}-${props.id}`;

  const upload = async (file: File | undefined) => {
    if (!file || busy()) return;
    setNotice(null);
    setBusy(true);
    try {
      const uploaded = await uploadCoverImage(props.owner, props.id, file);
      setImage(uploaded);
      props.onChange?.(uploaded);
      setNotice({ ok: true, text: t('admin.cover.saved') });
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    } finally {
      setBusy(false);
      if (fileInput) fileInput.value = '';
    }
  };

  const remove = async () => {
    if (busy()) return;
    setBusy(true);
    try {
      await removeCoverImage(props.owner, props.id);
      setImage(null);
      props.onChange?.(null);
      setNotice({ ok: true, text: t('admin.cover.removed') });
    } catch (err) {
      setNotice({ ok: false, text: adminErrorMessage(err) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="panel" aria-labelledby={`${inputId}-heading`}>
      <h2 id={`${inputId}-heading`}>{t(words.heading)}</h2>
      <Show when={image()} fallback={<p class="muted">{t(words.none)}</p>}>
        {(img) => (
          <img
            class="cover-preview"
            src={img().url}
            srcset={img().srcset}
            sizes="20rem"
            width={img().width}
            height={img().height}
            alt={t(words.previewAlt)}
            decoding="async"
          />
        )}
      </Show>
      <div class="field">
        <label for={inputId}>{t('admin.cover.choose')}</label>
        <input
          id={inputId}
          ref={fileInput}
          type="file"
          accept={IMAGE_TYPES.join(',')}
          aria-describedby={`${inputId}-hint`}
          aria-busy={busy()}
          onChange={(e) => void upload(e.currentTarget.files?.[0])}
        />
        <p id={`${inputId}-hint`} class="field-hint">
          {t('admin.cover.hint')}
        </p>
      </div>
      <Show when={image()}>
        <button type="button" class="button button-quiet button-danger-text" onClick={() => void remove()}>
          {t('admin.cover.remove')}
        </button>
      </Show>
      <ActionNoticeView notice={notice()} />
    </section>
  );
}
