/**
 * The visitor pages' REST addresses: the PDF ticket (docs/api.md#pdf-ticket) is a download, not a
 * tRPC procedure, so the pages link to it.
 */
const API_PREFIX = '/svc/v1';

/** The PDF ticket behind a cancel link's token (the cancel page). */
export function ticketPdfUrl(cancelToken: string): string {
  return `${API_PREFIX}/tickets/${encodeURIComponent(cancelToken)}/ticket.pdf`;
}

/** The PDF ticket behind a sign-up answer's `ticketPdfToken` (the sign-up's result). */
export function signedTicketPdfUrl(ticketPdfToken: string): string {
  return `${API_PREFIX}/tickets/signed/${encodeURIComponent(ticketPdfToken)}/ticket.pdf`;
}
