/**
 * The one error type of svc and the one table of its codes (docs/api.md#errors).
 *
 * Services throw `new AppError(code, message?, data?)`; the REST layer answers
 * `{code, message, data: {status, ...}}` and the tRPC layer maps the same code to
 * a tRPC error code. Plugins receive this class as `ctx.SvcError`: it is the
 * contract's "error object" (a filter may return one to reject a request).
 */

export type TrpcCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'TOO_MANY_REQUESTS'
  | 'INTERNAL_SERVER_ERROR'
  | 'PRECONDITION_FAILED'
  | 'SERVICE_UNAVAILABLE';

interface CodeInfo {
  status: number;
  trpc: TrpcCode;
  /** The message a person sees when the thrower gives none. */
  message: string;
}

export const ERROR_CODES = {
  /** Input failed its zod schema; data.params names each bad field. */
  svc_invalid_param: { status: 400, trpc: 'BAD_REQUEST', message: 'Some fields are missing or invalid.' },
  /** The request body is not parseable JSON or form data. */
  svc_invalid_json: { status: 400, trpc: 'BAD_REQUEST', message: 'The request body could not be read.' },
  /** No valid session or token (checked before any lookup). */
  svc_unauthorized: { status: 401, trpc: 'UNAUTHORIZED', message: 'Please sign in.' },
  /** Signed in, but the role may not do this; also a failed Origin check. */
  svc_forbidden: { status: 403, trpc: 'FORBIDDEN', message: 'You are not allowed to do this.' },
  /** X-Svc-Nonce missing, forged or expired (POST /bookings, sign-up). */
  svc_invalid_nonce: { status: 403, trpc: 'FORBIDDEN', message: 'This form has expired. Reload the page and try again.' },
  /** Per-IP or per-email throttle hit; the REST answer carries Retry-After. */
  svc_rate_limited: { status: 429, trpc: 'TOO_MANY_REQUESTS', message: 'Too many attempts. Please wait a moment and try again.' },
  /** Unknown route, id or token; also a draft event seen by the public. */
  svc_not_found: { status: 404, trpc: 'NOT_FOUND', message: 'Not found.' },
  /** A body sent as anything but JSON where JSON is expected (a cross-site form posts text/plain). */
  svc_unsupported_media_type: { status: 415, trpc: 'BAD_REQUEST', message: 'The request body must be JSON (Content-Type: application/json).' },
  /** The request line (a huge query string) or the headers passed Node's 16 KB limit. */
  svc_request_too_large: { status: 431, trpc: 'BAD_REQUEST', message: 'The request line or its headers are too large.' },
  /** Body too large for the route. */
  svc_payload_too_large: { status: 413, trpc: 'BAD_REQUEST', message: 'The request is too large.' },
  /** The chosen slot is not in the live slot list (contract: 409). */
  svc_booking_slot_unavailable: { status: 409, trpc: 'CONFLICT', message: 'That time is no longer available.' },
  /** No host is free for the slot, or the strategy returned 0 (contract: 409). */
  svc_booking_no_host: { status: 409, trpc: 'CONFLICT', message: 'No host is available at that time.' },
  /** Approving a booking that is not awaiting approval (docs/api.md#errors). */
  svc_booking_already_approved: { status: 409, trpc: 'CONFLICT', message: 'This booking was already approved.' },
  /** A state change the booking's current status does not allow. */
  svc_booking_invalid_state: { status: 409, trpc: 'CONFLICT', message: 'This booking cannot be changed in its current state.' },
  /** Event is full and has no waitlist. */
  svc_event_full: { status: 409, trpc: 'CONFLICT', message: 'This event is full.' },
  /** Sign-up outside the event's sign-up window. */
  svc_signup_closed: { status: 409, trpc: 'CONFLICT', message: 'Sign-up for this event is closed.' },
  /** Honeypot filled or the form was sent faster than a person can. */
  svc_spam_suspected: { status: 400, trpc: 'BAD_REQUEST', message: 'The form could not be accepted. Please try again.' },
  /** The attendee or booking was already cancelled; nothing fired. */
  svc_already_cancelled: { status: 409, trpc: 'CONFLICT', message: 'This was already cancelled.' },
  /** A unique value (email, slug) is taken. */
  svc_conflict: { status: 409, trpc: 'CONFLICT', message: 'That conflicts with existing data.' },
  /** DELETE of a ticket category that tickets or orders name (any status): nothing is removed. */
  svc_ticket_category_in_use: { status: 409, trpc: 'CONFLICT', message: 'Tickets of this category exist; it cannot be deleted.' },
  /** Check-in: the ticket code is not known. */
  svc_ticket_unknown: { status: 404, trpc: 'NOT_FOUND', message: 'Unknown ticket.' },
  /** Check-in: the attendee is cancelled. */
  svc_ticket_cancelled: { status: 409, trpc: 'CONFLICT', message: 'This ticket was cancelled.' },
  /** Check-in: the attendee is on the waitlist. */
  svc_ticket_waitlist: { status: 409, trpc: 'CONFLICT', message: 'This attendee is on the waitlist.' },
  /** Check-in: the ticket belongs to another event. */
  svc_ticket_wrong_event: { status: 409, trpc: 'CONFLICT', message: 'This ticket is for another event.' },
  /** Check-in: the ticket's category is not on the scanning device's check-in list. */
  svc_ticket_wrong_category: { status: 409, trpc: 'CONFLICT', message: 'This ticket is of a category this door does not admit.' },
  /** Device pairing: the code is unknown, expired or already used (pairing codes are single use). */
  svc_pairing_code_invalid: { status: 400, trpc: 'BAD_REQUEST', message: 'This pairing code is not valid or has expired. Ask for a new one.' },
  /** A device token was revoked; its queued scans are not accepted. */
  svc_device_revoked: { status: 401, trpc: 'UNAUTHORIZED', message: 'This device was revoked.' },
  /** A payment provider's or shop's webhook without a valid signature; nothing changed. */
  svc_invalid_signature: { status: 400, trpc: 'BAD_REQUEST', message: 'The webhook signature is missing or does not match.' },
  /** Pay or Cancel on a checkout that is already paid, cancelled or expired. */
  svc_payment_closed: { status: 409, trpc: 'CONFLICT', message: 'This payment is no longer open.' },
  /** An order change its status does not allow (refunding an unpaid order). */
  svc_order_invalid_state: { status: 409, trpc: 'CONFLICT', message: 'This order cannot be changed in its current state.' },
  /** A voucher code this event does not have (matched without regard to case); data.params names `voucher`. */
  svc_voucher_unknown: { status: 404, trpc: 'NOT_FOUND', message: 'This code is not valid for this event.' },
  /** A voucher used before its validity window opens or after it closes. */
  svc_voucher_expired: { status: 409, trpc: 'CONFLICT', message: 'This code is not valid at this time.' },
  /** A voucher whose total limit the order's tickets would pass (data.remaining: tickets it may still discount). */
  svc_voucher_used_up: { status: 409, trpc: 'CONFLICT', message: 'This code has been used up.' },
  /** A voucher whose per-email limit the order's tickets would pass for the buyer's email. */
  svc_voucher_email_limit: { status: 409, trpc: 'CONFLICT', message: 'This code has already been used with this email address.' },
  /** A voucher that applies to none of the order's ticket categories. */
  svc_voucher_not_applicable: { status: 409, trpc: 'CONFLICT', message: 'This code does not apply to the tickets you chose.' },
  /** Creating or renaming a voucher to a code the event already has (without regard to case). */
  svc_voucher_code_taken: { status: 409, trpc: 'CONFLICT', message: 'This event already has a voucher with that code.' },
  /** No Apple Wallet passes here: the server has no `SVC_WALLET_*` certificates (docs/api.md#wallet-pass). */
  svc_wallet_unavailable: { status: 404, trpc: 'NOT_FOUND', message: 'Apple Wallet passes are not set up on this server.' },
  /** The database did not answer (health check). */
  svc_unavailable: { status: 503, trpc: 'SERVICE_UNAVAILABLE', message: 'The service is temporarily unavailable.' },
  /** Anything unexpected; never carries a stack trace or SQL. */
  svc_internal: { status: 500, trpc: 'INTERNAL_SERVER_ERROR', message: 'Something went wrong on our side.' },
} as const satisfies Record<string, CodeInfo>;

export type KnownErrorCode = keyof typeof ERROR_CODES;

export interface ErrorData {
  status: number;
  [key: string]: unknown;
}

export interface ErrorBody {
  code: string;
  message: string;
  data: ErrorData;
}

/**
 * `code` may be any string so a plugin can reject with a code of its own
 * (`new SvcError('my_plugin_bad_answer', 'Tell us more', {status: 400})`).
 */
export class AppError extends Error {
  readonly code: string;
  readonly data: ErrorData;

  constructor(code: KnownErrorCode | (string & {}), message?: string, data?: Partial<ErrorData> & Record<string, unknown>, options?: { cause?: unknown }) {
    const known = (ERROR_CODES as Record<string, CodeInfo>)[code];
    super(message ?? known?.message ?? code, options);
    this.name = 'AppError';
    this.code = code;
    this.data = { ...data, status: data?.status ?? known?.status ?? 500 };
  }

  get status(): number {
    return this.data.status;
  }

  toBody(): ErrorBody {
    return { code: this.code, message: this.message, data: this.data };
  }
}

export function trpcCodeFor(code: string, status: number): TrpcCode {
  const known = (ERROR_CODES as Record<string, CodeInfo>)[code];
  if (known) return known.trpc;
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'FORBIDDEN';
  if (status === 404) return 'NOT_FOUND';
  if (status === 409) return 'CONFLICT';
  if (status === 429) return 'TOO_MANY_REQUESTS';
  if (status >= 400 && status < 500) return 'BAD_REQUEST';
  return 'INTERNAL_SERVER_ERROR';
}
