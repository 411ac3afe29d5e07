/**
 * The tickets of a paid order on `/pay/{id}` (docs/api.md#payments): once the payment is
 * confirmed the payer's page is their ticket page, also after a reload — each ticket's QR and
 * code, its ticket type, its PDF and Wallet pass, and the event's calendar links. The payment id
 * opens them; the cancel links stay in the mail.
 */
import { createMemo, createResource, For, onCleanup, Show, type JSX } from 'solid-js';
import type { PaidTicketsDto } from '../../../shared/payments';
import { t } from '../../i18n/i18n';
import { errorMessage } from '../../ui/errors';
import { call, rpc } from '../../ui/trpc';
import { eventIcsUrl } from '../ics';
import { signedTicketPassUrl, signedTicketPdfUrl } from '../links';
import { CalendarLinks } from './calendar-links';
import { ErrorState } from './states';
import { TicketQr } from './ticket-qr';

export function PaidTickets(props: { paymentId: string }): JSX.Element {
  const [paid, { refetch }] = createResource(
    () => props.paymentId,
    (id): Promise<PaidTicketsDto> => call(rpc().payments.paidTickets.query({ id })),
  );
  // the answer, never the error: reading a failed resource throws, which would leave the page on "Loading…"
  const shown = () => (paid.state === 'ready' || paid.state === 'refreshing' ? paid.latest : undefined);
  const going = () => (shown()?.tickets ?? []).filter((ticket) => ticket.status === 'going' && ticket.ticketCode);

  /** "Add to calendar": an .ics built on the phone, with the mailed event.ics's UID (one entry whichever copy is kept). */
  const calendarUrl = createMemo<string | undefined>((previous) => {
    if (previous) URL.revokeObjectURL(previous);
    const ev = shown()?.event;
    const uid = going()[0]?.calendarUid;
    if (!ev || !uid) return undefined;
    // the mailed event.ics's UID: one calendar entry whichever copy is kept
    return eventIcsUrl(ev, uid);
  });
  onCleanup(() => {
    const url = calendarUrl();
    if (url) URL.revokeObjectURL(url);
  });

  return (
    <section class="v-stack paid-tickets" aria-labelledby="paid-tickets-heading">
      <h2 id="paid-tickets-heading">{t('pay.tickets.heading')}</h2>
      <Show when={paid.loading && !shown()}>
        <p class="status-text" role="status">
          {t('pay.tickets.loading')}
        </p>
      </Show>
      <Show when={paid.error}>
        <ErrorState message={errorMessage(paid.error)} onRetry={() => void refetch()} />
      </Show>
      <Show when={shown()}>
        {(list) => (
          <>
            <ol class="ticket-list">
              <For each={list().tickets}>
                {(ticket, i) => (
                  <li>
                    <h3>
                      {ticket.ticketType === null
                        ? t('pay.tickets.number', { n: i() + 1 })
                        : t('tickets.ticketOf', { n: i() + 1, name: ticket.ticketType, people: ticket.quantity })}
                    </h3>
                    <Show when={ticket.status === 'going' && ticket.ticketCode} fallback={<p class="v-ticket-state">{t('cancel.statusCancelled')}</p>}>
                      {(code) => (
                        <TicketQr
                          code={code()}
                          pdfHref={ticket.ticketPdfToken ? signedTicketPdfUrl(ticket.ticketPdfToken) : undefined}
                          walletHref={ticket.ticketPdfToken && ticket.walletAvailable ? signedTicketPassUrl(ticket.ticketPdfToken) : undefined}
                        />
                      )}
                    </Show>
                  </li>
                )}
              </For>
            </ol>
            <Show when={going().length > 0}>
              <p>{t('pay.tickets.showQr')}</p>
            </Show>
            <Show when={list().event && calendarUrl()}>
              {(href) => (
                <CalendarLinks
                  file={{ href: href(), filename: `event-${list().event!.id}.ics`, label: t('signup.addToCalendar') }}
                  event={{
                    title: list().event!.title,
                    startUtc: list().event!.startsUtc,
                    endUtc: list().event!.endsUtc ?? undefined,
                    location: list().event!.venue,
                    // the cancel links are secrets this page never holds: the mail carries them
                    details: t('signup.calendarDetails'),
                  }}
                />
              )}
            </Show>
          </>
        )}
      </Show>
    </section>
  );
}
