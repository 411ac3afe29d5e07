/**
 * The visitor pages' REST addresses: the PDF ticket (docs/api.md#pdf-ticket) and the Wallet pass
 * (docs/api.md#wallet-pass) are downloads, not tRPC procedures, so the pages link to them.
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

/** The Apple Wallet pass behind a cancel link's token (docs/api.md#wallet-pass). */
export function ticketPassUrl(cancelToken: string): string {
  return `${API_PREFIX}/tickets/${encodeURIComponent(cancelToken)}/ticket.pkpass`;
}

/** The Apple Wallet pass behind a sign-up answer's `ticketPdfToken` (the PDF's key opens the pass too). */
export function signedTicketPassUrl(ticketPdfToken: string): string {
  return `${API_PREFIX}/tickets/signed/${encodeURIComponent(ticketPdfToken)}/ticket.pkpass`;
}

/** The Apple Wallet pass of a confirmed booking, behind its manage link's token. */
export function bookingPassUrl(token: string): string {
  return `${API_PREFIX}/bookings/${encodeURIComponent(token)}/booking.pkpass`;
}
