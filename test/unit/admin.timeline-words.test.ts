/**
 * The attendee history in the reader's words (docs/decisions/027-languages.md): English reads as
 * before; German gets its own words, seat plurals and statuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useBundle, useLocale } from '../../client/i18n/i18n';
import { describeTimelineEntry } from '../../client/admin/timeline-data';
import type { TimelineEntryDto } from '../../shared/timeline';

const entry = (kind: TimelineEntryDto['kind'], data: Record<string, unknown>): TimelineEntryDto => ({
  id: 1,
  attendeeId: 1,
  atUtc: '2030-01-01 10:00:00',
  kind,
  data,
});

beforeAll(async () => {
  await useLocale('en');
  await useBundle('admin');
});
afterAll(() => useLocale('en'));

describe('the attendee history in words', () => {
  it('English reads as before: seats and status, a status change, how a check-in was made, an order', () => {
    expect(describeTimelineEntry(entry('submitted', { quantity: 2, status: 'going' }))).toBe('Signed up (2 seats, going)');
    expect(describeTimelineEntry(entry('submitted', { quantity: 1 }))).toBe('Signed up (1 seat)');
    expect(describeTimelineEntry(entry('status_changed', { old: '', new: 'waitlist' }))).toBe('Status changed from (none) to waitlist');
    expect(describeTimelineEntry(entry('checked_in', { source: 'scan', device: 'Gate A' }))).toBe('Checked in (QR scan, Gate A)');
    expect(describeTimelineEntry(entry('paid', { orderId: 12 }))).toBe('Paid (order #12)');
  });

  it('German names the seats, the statuses and the way in in German', async () => {
    await useLocale('de');
    expect(describeTimelineEntry(entry('submitted', { quantity: 2, status: 'going' }))).toBe('Angemeldet (2 Plätze, angemeldet)');
    expect(describeTimelineEntry(entry('status_changed', { old: 'waitlist', new: 'cancelled' }))).toBe('Status geändert von Warteliste zu storniert');
    expect(describeTimelineEntry(entry('checked_in', { source: 'manual' }))).toBe('Eingecheckt (von Hand)');
    await useLocale('en');
  });
});
