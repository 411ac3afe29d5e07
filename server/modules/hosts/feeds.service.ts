/**
 * Private calendar feeds of bookings (docs/api.md#calendar-feeds): a host subscribes to their own
 * bookings, an administrator to every booking, from Google, Apple or Outlook Calendar. The
 * address is the credential: made on request, replaced on request (the old one stops at once)
 * and revoked by deleting it.
 */
import { AppError } from '../../../shared/errors';
import type { CalendarFeedDto, FeedScope } from '../../../shared/feeds';
import { toUtcString } from '../../../shared/time';
import type { AppContext } from '../../context';
import type { Principal } from '../../auth/principal';
import { assertMayManageOwn } from './host-access';
import { translator } from '../../i18n/translate';
import { buildIcsFeed, type IcsFeedEvent } from '../../mail/ics';
import { recipientLanguage } from '../../mail/language';
import { hmacHex, randomToken, safeEqual } from '../../security/crypto';
import { describeLocation } from '../booking/booking-type.service';
import { inviteUid } from '../booking/booking.notifications';
import { settingsService } from '../settings/settings.service';
import { feedsRepository, type CalendarFeedRow } from './feeds.repository';

/** What calendar apps are asked to wait between two fetches. */
export const FEED_REFRESH_MINUTES = 15;
/** A feed keeps bookings that ended up to this long ago: the recent past stays in the calendar. */
const FEED_PAST_DAYS = 90;
/** At most this many bookings in one feed, earliest first. */
const FEED_MAX_BOOKINGS = 2000;
const NONCE_BYTES = 16;
const SIGNATURE_CHARS = 32;
/** `{id}-{nonce}{signature}`: only characters a path segment keeps as they are. */
const TOKEN_SHAPE = /^(\d{1,10})-([A-Za-z0-9_-]{22})([0-9a-f]{32})$/;

type FeedContext = Pick<AppContext, 'db' | 'hooks' | 'env' | 'secret'>;

function signatureOf(secret: string, id: number, nonce: string): string {
  return hmacHex(secret, `calendar-feed|${id}|${nonce}`).slice(0, SIGNATURE_CHARS);
}

function tokenOf(secret: string, row: CalendarFeedRow): string {
  return `${row.id}-${row.nonce}${signatureOf(secret, row.id, row.nonce)}`;
}

/** A host's feed is theirs to see and change; an administrator may act for anyone, and alone has the feed of every booking. */
function assertMayManage(principal: Principal, userId: number, scope: FeedScope): void {
  if (principal.role === 'administrator') {
    if (scope === 'all' && principal.userId !== userId) throw new AppError('svc_forbidden');
    return;
  }
  if (scope === 'all') throw new AppError('svc_forbidden');
  assertMayManageOwn(principal, userId);
}

export function feedsService(ctx: FeedContext) {
  const { db } = ctx;

  function dtoOf(scope: FeedScope, row: CalendarFeedRow | null): CalendarFeedDto {
    if (!row) return { scope, url: null, webcalUrl: null, createdUtc: null };
    const url = `${ctx.env.publicUrl}/svc/v1/feeds/${tokenOf(ctx.secret, row)}.ics`;
    return { scope, url, webcalUrl: url.replace(/^https?:/, 'webcal:'), createdUtc: row.createdUtc };
  }

  async function userOrNotFound(userId: number) {
    const user = await feedsRepository.user(db, userId);
    if (!user) throw new AppError('svc_not_found', 'No such user.');
    return user;
  }

  return {
    async get(principal: Principal, userId: number, scope: FeedScope): Promise<CalendarFeedDto> {
      assertMayManage(principal, userId, scope);
      await userOrNotFound(userId);
      return dtoOf(scope, await feedsRepository.find(db, userId, scope));
    },

    /** Makes the feed's address, or replaces it: the one it had stops working at once. */
    async renew(principal: Principal, userId: number, scope: FeedScope): Promise<CalendarFeedDto> {
      assertMayManage(principal, userId, scope);
      await userOrNotFound(userId);
      return dtoOf(scope, await feedsRepository.replace(db, userId, scope, randomToken(NONCE_BYTES)));
    },

    async revoke(principal: Principal, userId: number, scope: FeedScope): Promise<void> {
      assertMayManage(principal, userId, scope);
      await userOrNotFound(userId);
      await feedsRepository.remove(db, userId, scope);
    },

    /**
     * The calendar behind `{token}.ics`: a malformed, forged, replaced or revoked address is 404
     * alike, and so is an administrator's feed once its owner is no longer one.
     */
    async render(file: string, nowMs = Date.now()): Promise<string> {
      const match = TOKEN_SHAPE.exec(file.endsWith('.ics') ? file.slice(0, -'.ics'.length) : '');
      const notFound = () => new AppError('svc_not_found', 'No such calendar feed.');
      if (!match) throw notFound();
      const [, idText, nonce, signature] = match;
      const row = await feedsRepository.findById(db, Number(idText));
      if (!row || row.nonce !== nonce || !safeEqual(signature!, signatureOf(ctx.secret, row.id, row.nonce))) throw notFound();
      const owner = await feedsRepository.user(db, row.userId);
      if (!owner || (row.scope === 'all' && owner.role !== 'administrator')) throw notFound();
      const since = toUtcString(nowMs - FEED_PAST_DAYS * 86_400_000);
      const [listed, labels, locale] = await Promise.all([
        feedsRepository.bookingsOf(db, row.scope === 'all' ? null : row.userId, since, FEED_MAX_BOOKINGS),
        settingsService({ db, hooks: ctx.hooks }).locationLabels(),
        recipientLanguage(db, owner.language),
      ]);
      const tr = translator(locale);
      const stampUtc = toUtcString(nowMs);
      const events: IcsFeedEvent[] = listed.map(({ booking, type, meetingUrl }) => ({
        uid: inviteUid(ctx, booking.bookingId),
        stampUtc,
        startUtc: booking.startUtc,
        endUtc: booking.endUtc,
        summary: tr('feed.booking.summary', { title: type.title, name: booking.customerName }),
        description: [
          ...(meetingUrl ? [tr('mail.booking.join', { url: meetingUrl })] : []),
          tr('feed.booking.customer', { name: booking.customerName, email: booking.customerEmail }),
          ...(booking.quantity > 1 ? [tr('mail.seats', { count: booking.quantity })] : []),
          ...(booking.status === 'pending_approval' ? [tr('feed.booking.awaitingApproval')] : []),
        ].join('\n'),
        // a virtual booking's own meeting room (docs/decisions/044-meeting-links.md)
        location: meetingUrl || describeLocation(type, labels) || undefined,
        sequence: booking.revision,
        status: booking.status === 'pending_approval' ? 'TENTATIVE' : 'CONFIRMED',
      }));
      const name = row.scope === 'all' ? tr('feed.name.all') : tr('feed.name.host', { name: owner.displayName || owner.email });
      return buildIcsFeed({ name, refreshMinutes: FEED_REFRESH_MINUTES, events });
    },
  };
}
