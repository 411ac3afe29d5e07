/**
 * API error messages in the language a request names (docs/decisions/027-languages.md): the
 * link's `?lang=`, else the first `Accept-Language` tag svc speaks. The `code` (svc_*) and the
 * status never change, so programs keep reading the code; only the sentence for a person is
 * translated. With no language named, or English, the message stays the thrower's own words.
 */
import type { Context } from 'hono';
import type { AppError, ErrorBody, KnownErrorCode } from '../../shared/errors';
import { LANG_PARAM, matchLocale, parseAcceptLanguage, type Locale } from '../../shared/i18n/locales';
import { translate, type ServerMessageKey } from '../i18n/translate';

/** Each code's sentence in the server catalogue, written out so the unused-key check finds every key. */
const MESSAGE_KEYS: Partial<Record<KnownErrorCode, ServerMessageKey>> = {
  svc_invalid_param: 'error.invalidParam',
  svc_invalid_json: 'error.invalidJson',
  svc_unauthorized: 'error.unauthorized',
  svc_forbidden: 'error.forbidden',
  svc_invalid_nonce: 'error.invalidNonce',
  svc_rate_limited: 'error.rateLimited',
  svc_not_found: 'error.notFound',
  svc_wallet_unavailable: 'error.walletUnavailable',
  svc_unsupported_media_type: 'error.unsupportedMediaType',
  svc_payload_too_large: 'error.payloadTooLarge',
  svc_booking_slot_unavailable: 'error.bookingSlotUnavailable',
  svc_booking_no_host: 'error.bookingNoHost',
  svc_booking_already_approved: 'error.bookingAlreadyApproved',
  svc_booking_invalid_state: 'error.bookingInvalidState',
  svc_event_full: 'error.eventFull',
  svc_signup_closed: 'error.signupClosed',
  svc_spam_suspected: 'error.spamSuspected',
  svc_already_cancelled: 'error.alreadyCancelled',
  svc_conflict: 'error.conflict',
  svc_ticket_unknown: 'error.ticketUnknown',
  svc_ticket_cancelled: 'error.ticketCancelled',
  svc_ticket_waitlist: 'error.ticketWaitlist',
  svc_ticket_wrong_event: 'error.ticketWrongEvent',
  svc_ticket_wrong_category: 'error.ticketWrongCategory',
  svc_pairing_code_invalid: 'error.pairingCodeInvalid',
  svc_device_revoked: 'error.deviceRevoked',
  svc_invalid_signature: 'error.invalidSignature',
  svc_payment_closed: 'error.paymentClosed',
  svc_order_invalid_state: 'error.orderInvalidState',
  svc_voucher_unknown: 'error.voucherUnknown',
  svc_voucher_expired: 'error.voucherExpired',
  svc_voucher_used_up: 'error.voucherUsedUp',
  svc_voucher_email_limit: 'error.voucherEmailLimit',
  svc_voucher_not_applicable: 'error.voucherNotApplicable',
  svc_voucher_code_taken: 'error.voucherCodeTaken',
  svc_unavailable: 'error.unavailable',
  svc_internal: 'error.internal',
};

/** A refusal whose own words say more than its code's sentence: kept apart so the reader still learns it. */
const SPECIFIC_MESSAGES: Record<string, ServerMessageKey> = {
  'Wrong email or password.': 'error.wrongCredentials',
};

/** The language a request names (`?lang=`, then Accept-Language), or null when it names none svc speaks. */
export function requestLocale(c: Context): Locale | null {
  const param = matchLocale(c.req.query(LANG_PARAM));
  if (param) return param;
  for (const tag of parseAcceptLanguage(c.req.header('accept-language'))) {
    const found = matchLocale(tag);
    if (found) return found;
  }
  return null;
}

/**
 * The error's message in `locale`: its code's sentence (a field refusal names the fields), or
 * the message as thrown for English, for no language, and for a code of a plugin's own.
 */
export function localizedMessage(err: AppError, locale: Locale | null): string {
  if (!locale || locale === 'en') return err.message;
  const specific = SPECIFIC_MESSAGES[err.message];
  if (specific) return translate(locale, specific);
  const key = MESSAGE_KEYS[err.code as KnownErrorCode];
  if (!key) return err.message;
  const params = err.data.params;
  if (err.code === 'svc_invalid_param' && params && typeof params === 'object' && Object.keys(params).length > 0) {
    return translate(locale, 'error.invalidParams', { fields: Object.keys(params).join(', ') });
  }
  return translate(locale, key);
}

/** The REST error body, its message in the language the request names. */
export function localizedBody(err: AppError, c: Context | null): ErrorBody {
  const body = err.toBody();
  return c ? { ...body, message: localizedMessage(err, requestLocale(c)) } : body;
}
