/**
 * The extended edition's payment operations (docs/api.md#payments): the checkout page, the local
 * provider's Pay and Cancel, provider webhooks, orders and the commerce bridge. In the free
 * edition each answers 404 (the status operation says which edition runs, for the admin app).
 */
import { z } from 'zod';
import { ZCheckoutDto, ZLocalSessionDto, ZOrderDetailDto, ZOrderDto, ZOrderListQuery, ZPaidTicketsDto, ZPaymentStatusDto } from '../../../shared/payments';
import { defineOperation, ZIdParams, ZListOf, ZPagination } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { commerceService } from './commerce.service';
import { ordersService } from './orders.service';
import { paymentsService, requireExtended } from './payments.service';
import { CREDIT_NOTE_FILE, RECEIPT_FILE, RECEIPT_PDF_TYPE } from './receipt-files';
import { orderDocumentPdf, payerDocumentPdf } from './receipts.service';
import { paidTicketsService } from './paid-tickets.service';
import { fileDownload } from '../../api/download';

const PAYMENTS = ['payments'];
const ORDERS = ['orders'];
const NO_STORE = { 'cache-control': 'no-store' };
/** The payment id is the capability; anything else is simply not found (the service checks its form). */
const ZCheckoutParams = z.object({ id: z.string().max(200) });
const ZSessionParams = z.object({ sessionId: z.string().max(200) });
const ZWebhookAnswer = z.object({ received: z.literal(true), duplicate: z.boolean() });

/** A receipt or credit note as a download (docs/api.md#receipts). */
const pdfDownload = (pdf: Uint8Array, filename: string) => fileDownload(pdf, RECEIPT_PDF_TYPE, filename);
const PDF_REST = { status: 200 as const, produces: [RECEIPT_PDF_TYPE], describe: 'The document, one A4 page' };

/** Header names in lower case, as the signature checks read them. */
const headersOf = (raw: Record<string, string>) => Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.toLowerCase(), v]));

export const paymentsOperations = {
  status: defineOperation({
    summary: 'Settings › Payments: the edition, the provider, its webhook address and the commerce bridge (never a secret)',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZPaymentStatusDto,
    rest: { method: 'get', path: '/payments/status', tags: PAYMENTS },
    handler: ({ ctx }) => paymentsService(ctx).status(),
  }),
  checkout: defineOperation({
    summary: 'What a checkout asks for and where it stands (public: the payment id is the capability)',
    access: 'public',
    kind: 'query',
    input: ZCheckoutParams,
    output: ZCheckoutDto,
    rest: { method: 'get', path: '/payments/checkout/:id', tags: PAYMENTS, headers: NO_STORE, errors: { 404: 'Unknown payment, or the free edition' } },
    handler: ({ input, ctx }) => paymentsService(ctx).checkout(input.id),
  }),
  cancelCheckout: defineOperation({
    summary: 'The visitor gives up paying: the held slot or seats are released at once (any provider)',
    access: 'public',
    kind: 'mutation',
    input: ZCheckoutParams,
    output: ZCheckoutDto,
    rest: { method: 'post', path: '/payments/checkout/:id/cancel', tags: PAYMENTS, errors: { 404: 'Unknown payment', 409: 'Already paid' } },
    handler: ({ input, ctx }) => paymentsService(ctx).cancel(input.id),
  }),
  localSession: defineOperation({
    summary: 'The local provider’s checkout: amount, currency, description, status',
    access: 'public',
    kind: 'query',
    input: ZSessionParams,
    output: ZLocalSessionDto,
    rest: { method: 'get', path: '/payments/local/:sessionId', tags: PAYMENTS, headers: NO_STORE, errors: { 404: 'Unknown session, or another provider' } },
    handler: ({ input, ctx }) => paymentsService(ctx).localSession(input.sessionId),
  }),
  localPay: defineOperation({
    summary: 'Pay on the local provider: the server delivers the signed "paid" webhook to itself',
    access: 'public',
    kind: 'mutation',
    input: ZSessionParams,
    output: ZLocalSessionDto,
    rest: {
      method: 'post',
      path: '/payments/local/:sessionId/pay',
      tags: PAYMENTS,
      status: 202,
      describe: 'Accepted: the payment is being processed',
      errors: { 404: 'Unknown session', 409: 'No longer open (paid, cancelled or its hold ran out)' },
    },
    handler: ({ input, ctx }) => paymentsService(ctx).localPay(input.sessionId),
  }),
  localCancel: defineOperation({
    summary: 'Cancel on the local provider: the hold is released at once, as the sweeper would',
    access: 'public',
    kind: 'mutation',
    input: ZSessionParams,
    output: ZLocalSessionDto,
    rest: { method: 'post', path: '/payments/local/:sessionId/cancel', tags: PAYMENTS, errors: { 404: 'Unknown session', 409: 'Already paid' } },
    async handler({ input, ctx }) {
      const { amountCents, currency, description, status } = await paymentsService(ctx).cancel(input.sessionId, 'local');
      return { amountCents, currency, description, status };
    },
  }),
  paidTickets: defineOperation({
    summary: 'The paid order’s tickets for the payer’s page (QR code, ticket type, PDF and Wallet keys; never a cancel token); empty until paid',
    access: 'public',
    kind: 'query',
    input: ZCheckoutParams,
    output: ZPaidTicketsDto,
    rest: {
      method: 'get',
      path: '/payments/checkout/:id/tickets',
      tags: PAYMENTS,
      headers: NO_STORE,
      describe: 'The tickets (none for a booking or an unpaid order)',
      errors: { 404: 'Unknown payment, or the free edition' },
    },
    handler: ({ input, ctx }) => paidTicketsService(ctx).ofPayment(input.id),
  }),
  webhook: defineOperation({
    summary: 'A payment provider’s webhook: the signature is checked on the raw body first; idempotent per provider event id',
    access: 'public',
    kind: 'mutation',
    input: z.object({ provider: z.string().max(40) }),
    output: ZWebhookAnswer,
    trpc: false,
    rest: {
      method: 'post',
      path: '/payments/:provider/webhook',
      tags: PAYMENTS,
      rawBody: 'The provider’s event, exactly as signed',
      errors: { 400: 'svc_invalid_signature: missing or wrong signature (nothing changed)', 404: 'Not the configured provider, or the free edition' },
    },
    async handler({ input, c, ctx }) {
      requireExtended(ctx);
      return paymentsService(ctx).receiveWebhook(input.provider, await c.req.text(), headersOf(c.req.header()));
    },
  }),

  orders: defineOperation({
    summary: 'Orders (paid sign-ups and shop orders); filters: eventId, status, search (email, name, shop id), ticketCategoryId, voucherCode (any case)',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZPagination.extend(ZOrderListQuery.shape),
    output: ZListOf(ZOrderDto),
    rest: { method: 'get', path: '/orders', tags: ORDERS, list: true, describe: 'Orders, newest first', errors: { 404: 'The free edition' } },
    handler: ({ input, ctx }) => {
      requireExtended(ctx);
      return ordersService(ctx).list(input);
    },
  }),
  order: defineOperation({
    summary: 'One order with its tickets',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams,
    output: ZOrderDetailDto,
    rest: { method: 'get', path: '/orders/:id', tags: ORDERS, errors: { 404: 'No such order' } },
    handler: ({ input, ctx }) => {
      requireExtended(ctx);
      return ordersService(ctx).get(input.id);
    },
  }),
  refundOrder: defineOperation({
    summary: 'Refund a paid order: every ticket cancelled (svc_rsvp_cancelled once per ticket), the money back through the provider',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZIdParams,
    output: ZOrderDetailDto,
    rest: { method: 'post', path: '/orders/:id/refund', tags: ORDERS, errors: { 404: 'No such order', 409: 'Not a paid checkout order' } },
    handler: ({ input, ctx }) => paymentsService(ctx).refundOrder(input.id),
  }),
  orderReceipt: defineOperation({
    summary: 'A paid order’s receipt (PDF): seller, number, lines, tax per rate, total, payment date and method, in the order’s language',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams,
    trpc: false,
    rest: { method: 'get', path: '/orders/:id/receipt.pdf', tags: ORDERS, ...PDF_REST, errors: { 404: 'No such order, or it has no receipt' } },
    handler: async ({ input, ctx }) => pdfDownload(await orderDocumentPdf(ctx, input.id, 'receipt'), RECEIPT_FILE),
  }),
  orderCreditNote: defineOperation({
    summary: 'A refunded order’s credit note (PDF), numbered in the receipts’ series',
    access: ADMIN_ONLY,
    kind: 'query',
    input: ZIdParams,
    trpc: false,
    rest: { method: 'get', path: '/orders/:id/credit-note.pdf', tags: ORDERS, ...PDF_REST, errors: { 404: 'No such order, or it has no credit note' } },
    handler: async ({ input, ctx }) => pdfDownload(await orderDocumentPdf(ctx, input.id, 'credit_note'), CREDIT_NOTE_FILE),
  }),
  checkoutReceipt: defineOperation({
    summary: 'The payer’s receipt of a paid order (PDF; public: the payment id is the capability)',
    access: 'public',
    kind: 'query',
    input: ZCheckoutParams,
    trpc: false,
    rest: { method: 'get', path: '/payments/checkout/:id/receipt.pdf', tags: PAYMENTS, ...PDF_REST, errors: { 404: 'Unknown payment, or no receipt (yet)' } },
    handler: async ({ input, ctx }) => pdfDownload(await payerDocumentPdf(ctx, input.id, 'receipt'), RECEIPT_FILE),
  }),
  checkoutCreditNote: defineOperation({
    summary: 'The payer’s credit note of a refunded order (PDF; public: the payment id is the capability)',
    access: 'public',
    kind: 'query',
    input: ZCheckoutParams,
    trpc: false,
    rest: { method: 'get', path: '/payments/checkout/:id/credit-note.pdf', tags: PAYMENTS, ...PDF_REST, errors: { 404: 'Unknown payment, or no credit note' } },
    handler: async ({ input, ctx }) => pdfDownload(await payerDocumentPdf(ctx, input.id, 'credit_note'), CREDIT_NOTE_FILE),
  }),
  commerceOrder: defineOperation({
    summary: 'An outside shop’s order webhook (Standard Webhooks, SVC_COMMERCE_SECRET): paid, refunded or cancelled; idempotent on (id, status)',
    access: 'public',
    kind: 'mutation',
    output: z.object({ result: z.enum(['applied', 'unchanged']), order: ZOrderDto }),
    trpc: false,
    rest: {
      method: 'post',
      path: '/commerce/orders',
      tags: ORDERS,
      rawBody: '{id, status: paid | refunded | cancelled, email, name, lines: [{eventId, quantity}]}, exactly as signed',
      errors: { 400: 'svc_invalid_signature (nothing changed), or an invalid body', 404: 'SVC_COMMERCE_SECRET unset, or the free edition' },
    },
    async handler({ c, ctx }) {
      requireExtended(ctx);
      return commerceService(ctx).receive(await c.req.text(), headersOf(c.req.header()));
    },
  }),
};
