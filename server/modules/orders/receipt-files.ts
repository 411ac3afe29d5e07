/**
 * The receipt's and credit note's files in a mail (docs/api.md#receipts): named when the mail is
 * queued, rendered from the order's document when it is sent (server/modules/orders/receipts.service.ts).
 */
import type { MailAttachment } from '../../mail/mailer';

export const RECEIPT_PDF_TYPE = 'application/pdf';
/** The mail attachments' kinds, rendered by `receiptRenderers` when the mail is sent (the id is the order's). */
export const RECEIPT_RENDER = 'order.receipt_pdf';
export const CREDIT_NOTE_RENDER = 'order.credit_note_pdf';
export const RECEIPT_FILE = 'receipt.pdf';
export const CREDIT_NOTE_FILE = 'credit-note.pdf';

/** A mail's `receipt.pdf`: the order's receipt, made when the mail is sent. */
export function receiptAttachment(orderId: number): MailAttachment {
  return { filename: RECEIPT_FILE, contentType: RECEIPT_PDF_TYPE, render: { kind: RECEIPT_RENDER, id: orderId } };
}

/** A mail's `credit-note.pdf`: the order's credit note, made when the mail is sent. */
export function creditNoteAttachment(orderId: number): MailAttachment {
  return { filename: CREDIT_NOTE_FILE, contentType: RECEIPT_PDF_TYPE, render: { kind: CREDIT_NOTE_RENDER, id: orderId } };
}
