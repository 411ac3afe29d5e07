/**
 * The extended edition's payment path for bookings (docs/api.md#payments), attached through the
 * contract's filters at priority 10: a priced booking type awaits payment, and its payment URL
 * is the checkout page of a payment opened for it. (Paid sign-ups have no contract hook: the
 * sign-up service holds seats in an order when the edition is extended.)
 */
import type { Hooks } from '../hooks';
import type { PluginContext } from '../plugins/load';
import { PRIORITY_PAYMENT_PATH } from '../hooks/priorities';
import { bookingRepository } from '../modules/booking/booking.repository';
import { openPayment } from '../modules/orders/payments.service';
import { settingsService } from '../modules/settings/settings.service';
import { formatAmount } from '../modules/orders/orders.mail';
import { formatWhen } from '../../shared/time-format';

export function registerPaymentPath(hooks: Hooks, ctx: PluginContext): void {
  hooks.addFilter('svc_booking_awaiting_payment', (awaiting, _typeId, config) => awaiting === true || config.price_cents > 0, PRIORITY_PAYMENT_PATH, 3);

  hooks.addFilter(
    'svc_booking_payment_url',
    async (url, bookingId) => {
      // Another plugin's checkout wins; ours opens only when nobody answered.
      if (typeof url === 'string' && url !== '') return url;
      const booking = await bookingRepository.findBooking(ctx.db, bookingId);
      const type = booking && (await bookingRepository.findType(ctx.db, booking.bookingTypeId));
      if (!booking || !type || booking.status !== 'pending_payment') return '';
      const currency = await settingsService({ db: ctx.db, hooks }).currency();
      const amountCents = type.priceCents * booking.quantity;
      // What the pay page (and a provider's checkout) shows: the slot in the place's zone, named,
      // then the customer's clock when it differs — as the booking page and its mails say it.
      const when = formatWhen({ startUtc: booking.startUtc, endUtc: booking.endUtc, zone: type.timezone, viewerZone: booking.customerTz }).text;
      const opened = await ctx.db.transaction((tx) =>
        openPayment({ env: ctx.config }, tx, {
          bookingId,
          amountCents,
          currency,
          description: `${type.title}, ${when}${booking.quantity > 1 ? ` (${booking.quantity} seats)` : ''}`,
          customerEmail: booking.customerEmail,
        }),
      );
      ctx.logger.debug({ bookingId, amount: formatAmount(amountCents, currency) }, 'checkout opened');
      return opened.url;
    },
    PRIORITY_PAYMENT_PATH,
    3,
  );
}
