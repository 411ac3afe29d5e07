import { describe, expect, it } from 'vitest';
import { buildIcsObject, calendarUid, isOwnCalendarUid } from '../../server/mail/ics';
import { eventUrl } from '../../server/modules/hosts/calendar-writer';
import { expandBusy } from '../../server/modules/hosts/calendar-busy';

// Write-back's pure parts (docs/decisions/042-calendar-write-back.md).
const ctx = { secret: 'a-test-secret-of-enough-length-000000', env: { publicUrl: 'https://book.example.org' } };
const other = { secret: 'another-installation-secret-0000000000', env: { publicUrl: 'https://book.example.org' } };

describe('calendar write-back, pure parts', () => {
  it("recognises this installation's booking UIDs only: not another installation's, not an attendee's, not a look-alike", () => {
    const own = isOwnCalendarUid(ctx, 'booking');
    expect(own(calendarUid(ctx, 'booking', 1))).toBe(true);
    expect(own(calendarUid(ctx, 'booking', 987654))).toBe(true);
    expect(own(calendarUid(other, 'booking', 1))).toBe(false);
    expect(own(calendarUid(ctx, 'attendee', 1))).toBe(false);
    expect(own(calendarUid(ctx, 'booking', 1).replace('booking-1-', 'booking-x1-'))).toBe(false);
    expect(own('dentist')).toBe(false);
  });

  it('names the resource by the UID as one percent-encoded path segment under the collection, with or without its slash', () => {
    const uid = calendarUid(ctx, 'booking', 7);
    const expected = `https://dav.example/u/cal/${encodeURIComponent(uid)}.ics`;
    expect(eventUrl('https://dav.example/u/cal/', uid)).toBe(expected);
    expect(eventUrl('https://dav.example/u/cal', uid)).toBe(expected);
    expect(eventUrl('https://dav.example/u/cal/', 'a/../b?c#d')).toBe('https://dav.example/u/cal/a%2F..%2Fb%3Fc%23d.ics');
  });

  it('builds a resource without METHOD, ORGANIZER or ATTENDEE, and its own event is left out of the busy time', () => {
    const uid = calendarUid(ctx, 'booking', 3);
    const text = buildIcsObject({
      uid,
      stampUtc: '2026-11-01 08:00:00',
      startUtc: '2026-11-21 09:00:00',
      endUtc: '2026-11-21 10:00:00',
      summary: 'Consultation',
      description: 'Consultation booked by Rosa (rosa@example.org)',
      sequence: 2,
    });
    expect(text).toContain(`UID:${uid}`);
    expect(text).toContain('SEQUENCE:2');
    expect(text).not.toMatch(/^(METHOD|ORGANIZER|ATTENDEE)/m);
    const span = { timezone: 'UTC', fromMs: Date.UTC(2026, 10, 1), toMs: Date.UTC(2026, 11, 1) };
    expect(expandBusy([text], span)).toEqual([{ startMs: Date.UTC(2026, 10, 21, 9), endMs: Date.UTC(2026, 10, 21, 10) }]);
    expect(expandBusy([text], { ...span, ignoreUid: isOwnCalendarUid(ctx, 'booking') })).toEqual([]);
  });
});
