/** The attendee timeline's calls of the admin app, and an entry in the reader's words (docs/api.md#timeline), typed from the server's operations. */
import type { TimelineEntryDto } from '../../shared/timeline';
import { call, rpc } from '../ui/trpc';
import { intlLocale, t } from '../i18n/i18n';

export type { TimelineEntryDto };

/** The newest entries first (one page of up to 500: a person's history is short). */
export async function getTimeline(attendeeId: number): Promise<{ items: TimelineEntryDto[]; total: number }> {
  return call(rpc().timeline.get.query({ id: attendeeId, page: 1, perPage: 500 }));
}

/** How a check-in was made, in plain words (docs/api.md#checkin "source"); read when drawn, in the reader's language. */
function sourceWords(source: string): string {
  switch (source) {
    case 'scan':
      return t('admin.timeline.source.scan');
    case 'manual':
      return t('admin.timeline.source.manual');
    case 'search':
      return t('admin.timeline.source.search');
    case 'rest':
      return t('admin.timeline.source.rest');
    default:
      return source;
  }
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
/** A stored status (going, waitlist, cancelled; another plugin's as stored) in the reader's words. */
const statusWord = (value: unknown): string => t('admin.timeline.status', { status: text(value) || 'none' });

/** One entry in plain words: "Status changed from waitlist to going". */
export function describeTimelineEntry(entry: TimelineEntryDto): string {
  const d = entry.data;
  switch (entry.kind) {
    case 'submitted': {
      const seats = typeof d.quantity === 'number' ? t('admin.timeline.seats', { count: d.quantity }) : '';
      const parts = [seats, text(d.status) ? statusWord(d.status) : ''].filter(Boolean);
      // a unit list ("2 seats, going"): the parts are facts side by side, not a sentence's "and"
      const detail = parts.length > 0 ? new Intl.ListFormat(intlLocale(), { type: 'unit', style: 'short' }).format(parts) : '';
      return detail ? t('admin.timeline.signedUpWith', { detail }) : t('admin.timeline.signedUp');
    }
    case 'status_changed':
      return t('admin.timeline.statusChanged', { old: statusWord(d.old), new: statusWord(d.new) });
    case 'checked_in': {
      const parts = [sourceWords(text(d.source)), text(d.device)].filter(Boolean);
      const how = parts.length > 0 ? new Intl.ListFormat(intlLocale(), { type: 'unit', style: 'short' }).format(parts) : '';
      return how ? t('admin.timeline.checkedInHow', { how }) : t('admin.timeline.checkedIn');
    }
    case 'cancelled':
      return t('admin.timeline.cancelled');
    case 'paid':
      return typeof d.orderId === 'number' ? t('admin.timeline.paidOrder', { id: d.orderId }) : t('admin.timeline.paid');
    case 'refunded':
      return typeof d.orderId === 'number' ? t('admin.timeline.refundedOrder', { id: d.orderId }) : t('admin.timeline.refunded');
  }
}
