/**
 * Receipts and credit notes of paid orders (docs/api.md#receipts, docs/decisions/037-receipts.md).
 * A checkout order that is paid gets a receipt in the transaction that confirms its payment; the
 * same order refunded gets a credit note in the transaction that refunds it. Both take the next
 * number of the one series (`R-000001`, `CN-000002`: no gaps, no duplicates, concurrency-safe)
 * and freeze what they say; their PDF is drawn from that snapshot, in the order's language, when
 * it is downloaded or mailed.
 */
import { AppError } from '../../../shared/errors';
import type { OrderDocumentDto } from '../../../shared/payments';
import { localeDirection, matchLocale, type Locale } from '../../../shared/i18n/locales';
import { utcMs } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { translator } from '../../i18n/translate';
import { recipientLanguage } from '../../mail/language';
import { queueMail, type AttachmentRenderers } from '../../mail/mailer';
import { renderReceiptPdf } from '../../pdf/receipt-pdf';
import { DEFAULT_ORGANIZATION_NAME } from '../attendees/ticket-pdf.service';
import { eventsRepository } from '../events/events.repository';
import { settingsService } from '../settings/settings.service';
import { formatAmount } from './orders.mail';
import { paymentsRepository, type OrderRow } from './payments.repository';
import { formatTaxRate } from './pricing.mail';
import { CREDIT_NOTE_FILE, CREDIT_NOTE_RENDER, creditNoteAttachment, RECEIPT_FILE, RECEIPT_RENDER } from './receipt-files';
import { receiptsRepository as repo, type OrderDocumentRow } from './receipts.repository';
import type { ReceiptKind, ReceiptLine, ReceiptSnapshot, ReceiptTax } from './receipts.types';
import { orderPriceOf } from './ticket-price.service';

/** Receipts and credit notes share one series (docs/decisions/037-receipts.md). */
export const RECEIPT_SERIES = 'receipts';

/** What issuing and printing need of the server. */
export type ReceiptContext = Pick<AppContext, 'db' | 'hooks' | 'env'>;

/** `R-000123` or `CN-000124`: the kind's prefix, then the series' number, at least six digits. */
export function documentNumber(kind: ReceiptKind, number: number): string {
  return `${kind === 'receipt' ? 'R' : 'CN'}-${String(number).padStart(6, '0')}`;
}

/** Whether a paid order gets a receipt: a checkout order that cost something (a shop's order is invoiced by the shop). */
export function receiptDue(order: Pick<OrderRow, 'source' | 'amountCents'>): boolean {
  return order.source === 'checkout' && order.amountCents > 0;
}

/** The lines, the code and the taxes per rate, as the order was charged; its stored totals alone when it cannot be told again exactly. */
async function chargedFigures(
  db: Db,
  order: OrderRow,
  eventTitle: string,
): Promise<Pick<ReceiptSnapshot, 'lines' | 'discount' | 'taxes' | 'netCents' | 'taxCents' | 'grossCents'>> {
  const price = await orderPriceOf(db, order);
  const priced = price?.priced;
  if (!price || !priced) {
    const taxCents = order.taxCents ?? 0;
    const netCents = order.netCents ?? order.amountCents - taxCents;
    return {
      lines: [{ eventTitle, category: null, quantity: order.quantity, grossCents: order.amountCents + order.discountCents }],
      discount: order.discountCents > 0 ? { code: order.voucherCode ?? '', cents: order.discountCents } : null,
      taxes: [{ rateBp: taxCents > 0 ? null : 0, netCents, taxCents, grossCents: order.amountCents }],
      netCents,
      taxCents,
      grossCents: order.amountCents,
    };
  }
  const lines: ReceiptLine[] = priced.lines.map((line) => ({
    eventTitle,
    category: price.categoryNames.get(line.categoryId) ?? null,
    quantity: line.quantity,
    grossCents: line.grossCents + line.discountCents,
  }));
  const byRate = new Map<number, ReceiptTax>();
  for (const line of priced.lines) {
    const tax = byRate.get(line.taxRateBp) ?? { rateBp: line.taxRateBp, netCents: 0, taxCents: 0, grossCents: 0 };
    tax.netCents += line.netCents;
    tax.taxCents += line.taxCents;
    tax.grossCents += line.grossCents;
    byRate.set(line.taxRateBp, tax);
  }
  return {
    lines,
    discount: priced.discountCents > 0 ? { code: price.voucherCode ?? '', cents: priced.discountCents } : null,
    taxes: [...byRate.values()].sort((a, b) => (a.rateBp ?? 0) - (b.rateBp ?? 0)),
    netCents: priced.netCents,
    taxCents: priced.taxCents,
    grossCents: priced.grossCents,
  };
}

/**
 * Issues a paid order's receipt in the transaction that confirms its payment (the order row is
 * locked there). The number is taken last, so the series' row stays locked only for the end of
 * that transaction. null when the order gets none or already has one.
 */
export async function issueReceipt(ctx: ReceiptContext, tx: Db, order: OrderRow): Promise<OrderDocumentRow | null> {
  if (!receiptDue(order) || (await repo.findOf(tx, order.id, 'receipt'))) return null;
  const [event, payment, seller] = await Promise.all([
    eventsRepository(tx).findById(order.eventId),
    paymentsRepository.latestPaymentOf(tx, { orderId: order.id }),
    settingsService({ db: tx, hooks: ctx.hooks }).seller(),
  ]);
  const language = await recipientLanguage(tx, order.language, event?.language);
  const snapshot: ReceiptSnapshot = {
    seller,
    buyer: { name: order.name, email: order.email },
    orderId: order.id,
    currency: order.currency,
    ...(await chargedFigures(tx, order, event?.title ?? '')),
    paidUtc: order.paidUtc,
    method: payment?.provider ?? null,
    timeZone: event?.timezone ?? 'UTC',
  };
  const number = await repo.nextNumber(tx, RECEIPT_SERIES);
  return repo.insert(tx, { orderId: order.id, kind: 'receipt', number, language, snapshot });
}

/**
 * Issues the credit note of a refunded order that has a receipt, in the transaction that refunds
 * it, and queues the mail that carries it. null when the order has no receipt or already a credit note.
 */
export async function issueCreditNote(ctx: ReceiptContext, tx: Db, order: OrderRow): Promise<OrderDocumentRow | null> {
  const receipt = await repo.findOf(tx, order.id, 'receipt');
  if (!receipt || (await repo.findOf(tx, order.id, 'credit_note'))) return null;
  const snapshot: ReceiptSnapshot = { ...receipt.snapshot, reverses: documentNumber('receipt', receipt.number) };
  const number = await repo.nextNumber(tx, RECEIPT_SERIES);
  const note = await repo.insert(tx, { orderId: order.id, kind: 'credit_note', number, language: receipt.language, snapshot });
  await queueMail(tx, creditNoteMail(ctx.env.publicUrl, order, note), { dedupeKey: `order-credit-note:${order.id}` });
  return note;
}

/** The refund's mail: the order refunded, how much, and the credit note attached. */
function creditNoteMail(publicUrl: string, order: OrderRow, note: OrderDocumentRow) {
  const locale = localeOf(note);
  const tr = translator(locale);
  const number = documentNumber(note.kind, note.number);
  const amount = formatAmount(note.snapshot.grossCents, note.snapshot.currency, locale);
  const text = [
    tr('mail.hello', { name: order.name }),
    '',
    tr('mail.creditNote.body', { orderId: String(order.id), amount }),
    tr('mail.creditNote.attached', { number, file: CREDIT_NOTE_FILE }),
  ];
  return {
    to: order.email,
    subject: tr('mail.creditNote.subject', { orderId: String(order.id) }),
    text: text.join('\n'),
    attachments: [creditNoteAttachment(order.id)],
    topic: `order:${order.id}`,
    linkOrigin: publicUrl,
    language: locale,
  };
}

const localeOf = (doc: OrderDocumentRow): Locale => matchLocale(doc.language) ?? 'en';

/** The order's documents for the administrator: numbers and where to download them (`GET /orders/{id}`). */
export async function orderDocumentsOf(db: Db, orderId: number): Promise<OrderDocumentDto[]> {
  return (await repo.listOf(db, orderId)).map((doc) => ({
    kind: doc.kind,
    number: documentNumber(doc.kind, doc.number),
    issuedUtc: doc.issuedUtc,
    url: `/svc/v1/orders/${orderId}/${doc.kind === 'receipt' ? RECEIPT_FILE : CREDIT_NOTE_FILE}`,
  }));
}

/** A date (and time) in the event's zone, as the reader writes it. */
function formatDate(utc: string, timeZone: string, locale: Locale, withTime: boolean): string {
  const tag = locale === 'en' ? 'en-GB' : locale;
  const options: Intl.DateTimeFormatOptions = withTime ? { dateStyle: 'long', timeStyle: 'short' } : { dateStyle: 'long' };
  try {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone }).format(utcMs(utc));
  } catch {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone: 'UTC' }).format(utcMs(utc));
  }
}

/** The payment method in words; an unknown provider by its name. */
function methodWords(method: string | null, tr: ReturnType<typeof translator>): string {
  if (method === 'local') return tr('pdf.receipt.methodLocal');
  if (method === 'stripe') return tr('pdf.receipt.methodStripe');
  return method ?? '';
}

/** The document as a PDF, from its snapshot, in the language it was issued in. */
export function documentPdf(doc: OrderDocumentRow): Promise<Buffer> {
  const locale = localeOf(doc);
  const tr = translator(locale);
  const s = doc.snapshot;
  const credit = doc.kind === 'credit_note';
  // a credit note gives the money back: its amounts are written negative
  const money = (cents: number) => formatAmount(credit ? -cents : cents, s.currency, locale);
  const number = documentNumber(doc.kind, doc.number);
  const title = credit ? tr('pdf.receipt.creditNoteTitle', { number }) : tr('pdf.receipt.title', { number });
  const seller = s.seller.sellerName.trim();
  const sellerLines = [
    ...s.seller.sellerAddress.split('\n').filter((l) => l.trim() !== ''),
    ...(s.seller.sellerTaxId ? [tr('mail.price.sellerTaxId', { taxId: s.seller.sellerTaxId })] : []),
  ];
  const zone = s.timeZone ?? 'UTC';
  const facts = [
    { label: tr('pdf.receipt.number'), value: number },
    { label: tr('pdf.receipt.issued'), value: formatDate(doc.issuedUtc, zone, locale, false) },
    ...(s.reverses ? [{ label: tr('pdf.receipt.reverses'), value: s.reverses }] : []),
    ...(s.paidUtc ? [{ label: tr('pdf.receipt.paidOn'), value: formatDate(s.paidUtc, zone, locale, true) }] : []),
    ...(s.method ? [{ label: tr('pdf.receipt.method'), value: methodWords(s.method, tr) }] : []),
    { label: tr('pdf.receipt.order'), value: `#${s.orderId}` },
    { label: tr('pdf.receipt.buyer'), value: s.buyer.email ? `${s.buyer.name} <${s.buyer.email}>` : s.buyer.name },
  ];
  const lines: Array<[string, string]> = s.lines.map((line) => [
    line.category === null
      ? tr('pdf.receipt.line', { count: line.quantity, title: line.eventTitle })
      : tr('pdf.receipt.lineOf', { count: line.quantity, title: line.eventTitle, category: line.category }),
    money(line.grossCents),
  ]);
  if (s.discount) lines.push([tr('pdf.receipt.discount', { code: s.discount.code }), money(-s.discount.cents)]);
  const taxes: Array<[string, string, string, string]> = s.taxes.map((t) => [
    t.rateBp === null ? tr('pdf.receipt.taxAll') : formatTaxRate(t.rateBp, locale),
    money(t.netCents),
    money(t.taxCents),
    money(t.grossCents),
  ]);
  return renderReceiptPdf({
    language: locale,
    direction: localeDirection(locale),
    documentTitle: title,
    sellerName: seller || DEFAULT_ORGANIZATION_NAME,
    sellerLines,
    title,
    facts,
    linesHeading: [tr('pdf.receipt.description'), tr('pdf.receipt.amount')],
    lines,
    taxesHeading: [tr('pdf.receipt.taxRate'), tr('pdf.receipt.net'), tr('pdf.receipt.tax'), tr('pdf.receipt.gross')],
    taxes,
    total: [credit ? tr('pdf.receipt.refunded') : tr('pdf.receipt.totalPaid'), money(s.grossCents)],
    note: credit ? tr('pdf.receipt.creditNoteNote', { number: s.reverses ?? '' }) : null,
  });
}

/** The extended edition's documents answer 404 in the free edition, as every payment route does. */
function requireExtended(ctx: Pick<AppContext, 'env'>): void {
  if (ctx.env.SVC_EDITION !== 'extended') throw new AppError('svc_not_found');
}

/** An order's receipt or credit note for the administrator: 404 when the order has none. */
export async function orderDocumentPdf(ctx: ReceiptContext, orderId: number, kind: ReceiptKind): Promise<Buffer> {
  requireExtended(ctx);
  const doc = await repo.findOf(ctx.db, orderId, kind);
  if (!doc) throw new AppError('svc_not_found', kind === 'receipt' ? 'This order has no receipt.' : 'This order has no credit note.');
  return documentPdf(doc);
}

/** The payment's capability form (the same check as `/payments/checkout/{id}`). */
const PAYMENT_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The payer's receipt or credit note, by the payment id (their capability): 404 for an unknown id or an order without one. */
export async function payerDocumentPdf(ctx: ReceiptContext, paymentId: string, kind: ReceiptKind): Promise<Buffer> {
  requireExtended(ctx);
  const payment = PAYMENT_ID.test(paymentId) ? await paymentsRepository.findPayment(ctx.db, paymentId) : null;
  const doc = payment?.orderId != null ? await repo.findOf(ctx.db, payment.orderId, kind) : null;
  if (!doc) throw new AppError('svc_not_found', 'No such document.');
  return documentPdf(doc);
}

/** Where the payer downloads the order's documents (`receiptUrl`, `creditNoteUrl` of `GET /payments/checkout/{id}`); null while there is none. */
export async function payerDocumentUrls(
  ctx: ReceiptContext,
  paymentId: string,
  orderId: number | null,
): Promise<{ receiptUrl: string | null; creditNoteUrl: string | null }> {
  const kinds = orderId === null ? new Set<ReceiptKind>() : await repo.kindsOf(ctx.db, orderId);
  const base = `${ctx.env.publicUrl}/svc/v1/payments/checkout/${paymentId}`;
  return {
    receiptUrl: kinds.has('receipt') ? `${base}/${RECEIPT_FILE}` : null,
    creditNoteUrl: kinds.has('credit_note') ? `${base}/${CREDIT_NOTE_FILE}` : null,
  };
}

/** Renders a queued mail's receipt or credit note when the mail goes out; an order without one leaves the file out. */
export function receiptRenderers(ctx: Pick<AppContext, 'db'>): AttachmentRenderers {
  const render = (kind: ReceiptKind) => async (orderId: number) => {
    const doc = await repo.findOf(ctx.db, orderId, kind);
    return doc ? documentPdf(doc) : null;
  };
  return { [RECEIPT_RENDER]: render('receipt'), [CREDIT_NOTE_RENDER]: render('credit_note') };
}
