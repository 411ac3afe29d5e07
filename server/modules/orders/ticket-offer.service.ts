/**
 * What the sign-up form sells (docs/api.md#tickets): an event's categories on sale now, the hidden
 * ones a typed code unlocks, that code's terms (the page prices the order with the same rule the
 * server stores, shared/pricing.ts), and whether paid tickets are paid online or at the door.
 * Checking a code is throttled per visitor IP, so codes cannot be guessed by trying them here.
 */
import { AppError, ERROR_CODES, type KnownErrorCode } from '../../../shared/errors';
import { visibleCategories } from '../../../shared/pricing';
import type { OfferedTicketCategory, TicketOfferDto } from '../../../shared/tickets';
import { voucherCodeKey } from '../../../shared/vouchers';
import { toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import { enforceRateLimit, type RateLimit } from '../../security/throttle';
import { eventsRepository } from '../events/events.repository';
import { settingsService } from '../settings/settings.service';
import { onSale } from './ticket-categories.service';
import { paymentsEnabled } from './payments.service';
import { ticketsRepository, type TicketCategoryWithSold } from './tickets.repository';
import { vouchersRepository } from './vouchers.repository';
import { voucherTermsOf } from './vouchers.service';

/** Codes a visitor IP may check: enough for typos, too few to guess codes (the sign-up's own checks are throttled too). */
export const VOUCHER_CHECK_IP_LIMIT: RateLimit = { limit: 30, windowSeconds: 600 };

function offered(c: TicketCategoryWithSold): OfferedTicketCategory {
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    priceCents: c.priceCents,
    taxRateBp: c.taxRateBp,
    taxMode: c.taxMode,
    minPerOrder: c.minPerOrder,
    maxPerOrder: c.maxPerOrder,
    hidden: c.hidden,
    position: c.position,
    seatsLeft: c.quota === null ? null : Math.max(0, c.quota - c.soldCount),
  };
}

/** A code that does not open anything: the sign-up's own refusal, naming the `voucher` field. */
function refuse(code: KnownErrorCode): AppError {
  const said = ERROR_CODES[code].message;
  return new AppError(code, said, { params: { voucher: said } });
}

export function ticketOfferService(ctx: AppContext) {
  const { db } = ctx;
  return {
    async offer(eventId: number, code: string | undefined, ip: string): Promise<TicketOfferDto> {
      const event = await eventsRepository(db).findById(eventId);
      if (!event || event.status !== 'published') throw new AppError('svc_not_found', 'No such event.');
      const nowUtc = toUtcString(Date.now());
      let voucher: TicketOfferDto['voucher'] = null;
      if (code !== undefined && code.trim() !== '') {
        if (ip !== '') await enforceRateLimit(db, `voucher-check:ip:${ip}`, VOUCHER_CHECK_IP_LIMIT);
        const row = await vouchersRepository.findByCode(db, eventId, voucherCodeKey(code));
        if (!row) throw refuse('svc_voucher_unknown');
        if ((row.validFromUtc !== null && nowUtc < row.validFromUtc) || (row.validUntilUtc !== null && nowUtc >= row.validUntilUtc))
          throw refuse('svc_voucher_expired');
        if (row.maxUses !== null && row.usedCount >= row.maxUses) throw refuse('svc_voucher_used_up');
        const terms = voucherTermsOf(row);
        voucher = {
          code: row.code,
          kind: terms.kind,
          value: terms.value,
          categoryIds: terms.categoryIds ? [...terms.categoryIds] : null,
          unlocksHidden: terms.unlocksHidden,
        };
      }
      const settings = settingsService(ctx);
      const [rows, holdHours, currency] = await Promise.all([ticketsRepository(db).listOfEvent(eventId), settings.paymentHoldHours(), settings.currency()]);
      const categories = visibleCategories(
        rows.filter((c) => onSale(c, nowUtc)),
        voucher,
      ).map(offered);
      return { sellsCategories: rows.length > 0, currency, onlinePayment: paymentsEnabled(ctx), holdHours, categories, voucher };
    },
  };
}
