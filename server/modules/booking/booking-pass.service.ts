/**
 * The Apple Wallet pass of a confirmed booking (docs/api.md#wallet-pass,
 * docs/decisions/038-wallet-pass.md), opened with the manage link's token. No door scans a
 * booking, so the pass has no barcode: it carries the time, the host, the place and the link.
 */
import { CANCEL_TOKEN_RE } from '../../../shared/booking';
import { AppError } from '../../../shared/errors';
import { utcMs } from '../../../shared/time';
import { formatWhen } from '../../../shared/time-format';
import type { AppContext } from '../../context';
import { translator } from '../../i18n/translate';
import { recipientLanguage } from '../../mail/language';
import { hmacHex, safeEqual } from '../../security/crypto';
import { makeWalletPass, walletAvailable, type PassField } from '../../wallet/pass';
import { DEFAULT_ORGANIZATION_NAME } from '../attendees/ticket-pdf.service';
import { settingsService } from '../settings/settings.service';
import { describeLocation } from './booking-type.service';
import { bookingRepository } from './booking.repository';
import { walletLogo } from '../images/images.service';

export type BookingPassContext = Pick<AppContext, 'db' | 'hooks' | 'env' | 'secret'>;

/** A booking's serial number: stable for the booking (a moved booking's pass downloaded again replaces the old one). */
export function bookingPassSerial(secret: string, bookingId: number): string {
  return `booking-${hmacHex(secret, `wallet-booking:${bookingId}`).slice(0, 32)}`;
}

/** The booking behind a manage link's token as a signed `.pkpass`: unknown → 404, not confirmed → 409, no wallet setup → 404 `svc_wallet_unavailable`. */
export async function bookingPassByToken(ctx: BookingPassContext, token: string): Promise<Buffer> {
  if (!walletAvailable(ctx.env)) throw new AppError('svc_wallet_unavailable');
  const booking = CANCEL_TOKEN_RE.test(token) ? await bookingRepository.findBookingByToken(ctx.db, token) : null;
  if (!booking || !safeEqual(booking.cancelToken, token)) throw new AppError('svc_not_found', 'No such booking.');
  // only a booking that will happen: a request awaiting approval or payment, or a cancelled one, has no pass
  if (booking.status !== 'confirmed') throw new AppError('svc_booking_invalid_state');
  const type = await bookingRepository.findType(ctx.db, booking.bookingTypeId);
  if (!type) throw new AppError('svc_not_found', 'No such booking type.');
  const settings = settingsService(ctx);
  const [host, labels, seller, locale] = await Promise.all([
    bookingRepository.findUser(ctx.db, booking.hostUserId),
    settings.locationLabels(),
    settings.seller(),
    recipientLanguage(ctx.db, booking.language),
  ]);
  const tr = translator(locale);
  // the host's zone first and the customer's clock beside it when they differ: the mails' format
  const when = formatWhen({
    startUtc: booking.startUtc,
    endUtc: booking.endUtc,
    zone: type.timezone,
    viewerZone: booking.customerTz,
    locale,
    yourTime: (time) => tr('mail.yourTime', { time }),
  }).text;
  const location = describeLocation(type, labels);
  const auxiliary: PassField[] = [
    ...(host?.displayName ? [{ key: 'host', value: tr('mail.booking.with', { name: host.displayName }) }] : []),
    ...(location ? [{ key: 'where', label: tr('pdf.ticket.where'), value: location }] : []),
  ];
  const logo = await walletLogo(ctx.db);
  return makeWalletPass(ctx.env, {
    serialNumber: bookingPassSerial(ctx.secret, booking.bookingId),
    logo,
    description: tr('mail.booking.subjectConfirmed', { title: type.title }),
    organizationName: seller.sellerName.trim() || DEFAULT_ORGANIZATION_NAME,
    relevantDate: new Date(utcMs(booking.startUtc)),
    primary: [{ key: 'what', value: type.title }],
    secondary: [{ key: 'when', label: tr('pdf.ticket.when'), value: when }],
    auxiliary,
    back: [
      { key: 'name', label: tr('pdf.ticket.name'), value: booking.customerName },
      { key: 'manage', value: tr('mail.booking.manage', { url: `${ctx.env.publicUrl}/manage/${booking.cancelToken}` }) },
    ],
  });
}
