import { createResource, Show, type JSX } from 'solid-js';
import { t, tx } from '../../i18n/i18n';
import { TicketLinks } from './ticket-links';

/**
 * The ticket as the door scans it: the QR of the ticket code, and the code in text for a door
 * that types it, with its PDF and Wallet pass to keep when the page has the links. The qrcode library loads only
 * when a ticket is shown (its own chunk).
 */
export function TicketQr(props: { code: string; pdfHref?: string; walletHref?: string }): JSX.Element {
  const [image] = createResource(
    () => props.code,
    async (code) => {
      const { toDataURL } = await import('qrcode');
      return toDataURL(code, { margin: 2, width: 220, errorCorrectionLevel: 'M' });
    },
  );
  return (
    <figure class="v-ticket">
      <Show when={image()} fallback={<div class="v-ticket-qr-placeholder" aria-busy="true" />}>
        {(src) => <img class="v-ticket-qr" src={src()} width="220" height="220" alt={t('ticket.qrAlt')} />}
      </Show>
      <figcaption>{tx('ticket.code', { ticket: props.code, c: (chunks) => <code class="v-ticket-code">{chunks}</code> })}</figcaption>
      <TicketLinks pdfHref={props.pdfHref} walletHref={props.walletHref} />
      <Show when={image.error}>
        <p class="form-error" role="alert">
          {t('ticket.qrFailed')}
        </p>
      </Show>
    </figure>
  );
}
