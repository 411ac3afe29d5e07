import { createResource, Show, type JSX } from 'solid-js';
import { t } from '../../i18n/i18n';

/** The pairing URL as a QR code; the qrcode library loads only when a code is shown. */
export function PairingQr(props: { url: string; code: string }): JSX.Element {
  const [image] = createResource(
    () => props.url,
    async (url) => {
      const { toDataURL } = await import('qrcode');
      return toDataURL(url, { margin: 2, width: 240, errorCorrectionLevel: 'M' });
    },
  );
  return (
    <div class="pairing-qr">
      <Show when={image()} fallback={<div class="qr-placeholder" aria-busy="true" />}>
        {(src) => <img src={src()} width="240" height="240" alt={t('admin.pairing.qrAlt', { code: props.code })} />}
      </Show>
      <Show when={image.error}>
        <p class="form-error" role="alert">
          {t('admin.pairing.qrFailed')}
        </p>
      </Show>
    </div>
  );
}
