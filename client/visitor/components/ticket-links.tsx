import { Show, type JSX } from 'solid-js';
import { t } from '../../i18n/i18n';

/**
 * A ticket's downloads side by side: its PDF and, when the server makes them, its Apple Wallet
 * pass (docs/api.md#wallet-pass). The pass link has no `download` attribute: Safari hands a
 * `.pkpass` answer to Wallet itself.
 */
export function TicketLinks(props: { pdfHref?: string; walletHref?: string }): JSX.Element {
  return (
    <Show when={props.pdfHref || props.walletHref}>
      <p class="v-ticket-links">
        <Show when={props.pdfHref}>
          {(href) => (
            <a class="button button-quiet v-ticket-pdf" href={href()} download="ticket.pdf">
              {t('ticket.downloadPdf')}
            </a>
          )}
        </Show>
        <Show when={props.walletHref}>
          {(href) => (
            <a class="button button-quiet v-ticket-wallet" href={href()} type="application/vnd.apple.pkpass">
              {t('ticket.addToWallet')}
            </a>
          )}
        </Show>
      </p>
    </Show>
  );
}
