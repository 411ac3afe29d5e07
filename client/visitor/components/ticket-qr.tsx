import { createResource, Show, type JSX } from 'solid-js';

/**
 * The ticket as the door scans it: the QR of the ticket code, and the code in text for a door
 * that types it. The qrcode library loads only when a ticket is shown (its own chunk).
 */
export function TicketQr(props: { code: string }): JSX.Element {
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
        {(src) => <img class="v-ticket-qr" src={src()} width="220" height="220" alt="Your ticket’s QR code, to show at the door" />}
      </Show>
      <figcaption>
        Ticket code <code class="v-ticket-code">{props.code}</code>
      </figcaption>
      <Show when={image.error}>
        <p class="form-error" role="alert">
          The QR code could not be drawn here; it is in your email, and the door can type the code.
        </p>
      </Show>
    </figure>
  );
}
