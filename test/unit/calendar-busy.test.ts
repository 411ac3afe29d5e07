import { describe, expect, it } from 'vitest';
import { expandBusy, mergeBusy, NotACalendarError } from '../../server/modules/hosts/calendar-busy';

const ms = (iso: string) => Date.parse(iso);
const cal = (...body: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...body, 'END:VCALENDAR'].join('\r\n');
const event = (...props: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...props, 'END:VEVENT'].join('\r\n');
const range = { fromMs: ms('2026-01-01T00:00:00Z'), toMs: ms('2027-01-01T00:00:00Z') };
const busy = (text: string, timezone = 'UTC') =>
  expandBusy([text], { timezone, ...range }).map((b) => [new Date(b.startMs).toISOString(), new Date(b.endMs).toISOString()]);

const BERLIN_VTIMEZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Custom Berlin',
  'BEGIN:DAYLIGHT',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'DTSTART:19700329T020000',
  'RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU',
  'END:DAYLIGHT',
  'BEGIN:STANDARD',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'DTSTART:19701025T030000',
  'RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU',
  'END:STANDARD',
  'END:VTIMEZONE',
].join('\r\n');

describe('busy time of an iCalendar file', () => {
  it('an opaque UTC event is busy from its start to its end', () => {
    expect(busy(cal(event('UID:a', 'DTSTART:20260310T090000Z', 'DTEND:20260310T100000Z')))).toEqual([['2026-03-10T09:00:00.000Z', '2026-03-10T10:00:00.000Z']]);
  });

  it('a transparent event and a cancelled event are not busy', () => {
    const text = cal(
      event('UID:t', 'DTSTART:20260310T090000Z', 'DTEND:20260310T100000Z', 'TRANSP:TRANSPARENT'),
      event('UID:c', 'DTSTART:20260311T090000Z', 'DTEND:20260311T100000Z', 'STATUS:CANCELLED'),
      event('UID:k', 'DTSTART:20260312T090000Z', 'DURATION:PT30M', 'STATUS:TENTATIVE'),
    );
    expect(busy(text)).toEqual([['2026-03-12T09:00:00.000Z', '2026-03-12T09:30:00.000Z']]);
  });

  it('a weekly RRULE with COUNT yields each instance; EXDATE removes one, RDATE adds one', () => {
    const text = cal(
      event('UID:w', 'DTSTART:20260302T090000Z', 'DTEND:20260302T100000Z', 'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE:20260309T090000Z', 'RDATE:20260304T150000Z'),
    );
    expect(busy(text)).toEqual([
      ['2026-03-02T09:00:00.000Z', '2026-03-02T10:00:00.000Z'],
      ['2026-03-04T15:00:00.000Z', '2026-03-04T16:00:00.000Z'],
      ['2026-03-16T09:00:00.000Z', '2026-03-16T10:00:00.000Z'],
      ['2026-03-23T09:00:00.000Z', '2026-03-23T10:00:00.000Z'],
    ]);
  });

  it('a RECURRENCE-ID override moves one instance, a cancelled override removes one, a transparent one frees it', () => {
    const text = cal(
      event('UID:r', 'DTSTART:20260302T090000Z', 'DTEND:20260302T100000Z', 'RRULE:FREQ=DAILY;UNTIL=20260305T235959Z'),
      event('UID:r', 'RECURRENCE-ID:20260303T090000Z', 'DTSTART:20260303T140000Z', 'DTEND:20260303T150000Z'),
      event('UID:r', 'RECURRENCE-ID:20260304T090000Z', 'DTSTART:20260304T090000Z', 'DTEND:20260304T100000Z', 'STATUS:CANCELLED'),
      event('UID:r', 'RECURRENCE-ID:20260305T090000Z', 'DTSTART:20260305T090000Z', 'DTEND:20260305T100000Z', 'TRANSP:TRANSPARENT'),
    );
    expect(busy(text)).toEqual([
      ['2026-03-02T09:00:00.000Z', '2026-03-02T10:00:00.000Z'],
      ['2026-03-03T14:00:00.000Z', '2026-03-03T15:00:00.000Z'],
    ]);
  });

  it("an all-day event blocks the whole day in the host's zone", () => {
    const text = cal(event('UID:d', 'DTSTART;VALUE=DATE:20260310', 'DTEND;VALUE=DATE:20260312'));
    expect(busy(text, 'Europe/Berlin')).toEqual([['2026-03-09T23:00:00.000Z', '2026-03-11T23:00:00.000Z']]);
    // an all-day event without DTEND lasts one day
    expect(busy(cal(event('UID:e', 'DTSTART;VALUE=DATE:20260701')), 'America/New_York')).toEqual([['2026-07-01T04:00:00.000Z', '2026-07-02T04:00:00.000Z']]);
  });

  it("a floating time is read in the host's zone", () => {
    const text = cal(event('UID:f', 'DTSTART:20260710T090000', 'DTEND:20260710T100000'));
    expect(busy(text, 'Europe/Berlin')).toEqual([['2026-07-10T07:00:00.000Z', '2026-07-10T08:00:00.000Z']]);
    expect(busy(text, 'Asia/Tokyo')).toEqual([['2026-07-10T00:00:00.000Z', '2026-07-10T01:00:00.000Z']]);
  });

  it('a weekly series with an IANA TZID keeps its wall-clock time across DST', () => {
    const text = cal(event('UID:z', 'DTSTART;TZID=Europe/Berlin:20260323T090000', 'DTEND;TZID=Europe/Berlin:20260323T100000', 'RRULE:FREQ=WEEKLY;COUNT=2'));
    expect(busy(text, 'UTC')).toEqual([
      ['2026-03-23T08:00:00.000Z', '2026-03-23T09:00:00.000Z'],
      ['2026-03-30T07:00:00.000Z', '2026-03-30T08:00:00.000Z'],
    ]);
  });

  it('a series in an IANA zone without VTIMEZONE ends at its UTC UNTIL, read in that zone', () => {
    // 13:00 in Sydney is 02:00 UTC; UNTIL 12:59:59 UTC still includes the first day's instance
    const text = cal(event('UID:u', 'DTSTART;TZID=Australia/Sydney:20260201T130000', 'DURATION:PT15M', 'RRULE:FREQ=DAILY;UNTIL=20260202T125959Z'));
    expect(busy(text, 'UTC')).toEqual([
      ['2026-02-01T02:00:00.000Z', '2026-02-01T02:15:00.000Z'],
      ['2026-02-02T02:00:00.000Z', '2026-02-02T02:15:00.000Z'],
    ]);
  });

  it('a TZID defined only by its VTIMEZONE is read with that definition across DST', () => {
    const text = cal(
      BERLIN_VTIMEZONE,
      event('UID:v', 'DTSTART;TZID=Custom Berlin:20261019T090000', 'DTEND;TZID=Custom Berlin:20261019T093000', 'RRULE:FREQ=WEEKLY;COUNT=2'),
    );
    expect(busy(text, 'UTC')).toEqual([
      ['2026-10-19T07:00:00.000Z', '2026-10-19T07:30:00.000Z'],
      ['2026-10-26T08:00:00.000Z', '2026-10-26T08:30:00.000Z'],
    ]);
  });

  it('VFREEBUSY periods of type BUSY, BUSY-UNAVAILABLE and BUSY-TENTATIVE are busy; FREE is not', () => {
    const text = cal(
      [
        'BEGIN:VFREEBUSY',
        'DTSTAMP:20260101T000000Z',
        'FREEBUSY:20260401T090000Z/20260401T100000Z,20260402T090000Z/PT30M',
        'FREEBUSY;FBTYPE=BUSY-UNAVAILABLE:20260403T090000Z/20260403T100000Z',
        'FREEBUSY;FBTYPE=BUSY-TENTATIVE:20260404T090000Z/20260404T100000Z',
        'FREEBUSY;FBTYPE=FREE:20260405T090000Z/20260405T100000Z',
        'END:VFREEBUSY',
      ].join('\r\n'),
    );
    expect(busy(text)).toEqual([
      ['2026-04-01T09:00:00.000Z', '2026-04-01T10:00:00.000Z'],
      ['2026-04-02T09:00:00.000Z', '2026-04-02T09:30:00.000Z'],
      ['2026-04-03T09:00:00.000Z', '2026-04-03T10:00:00.000Z'],
      ['2026-04-04T09:00:00.000Z', '2026-04-04T10:00:00.000Z'],
    ]);
  });

  it('instances outside the horizon are left out, and an endless series stops at its end', () => {
    const text = cal(event('UID:x', 'DTSTART:20200106T090000Z', 'DTEND:20200106T100000Z', 'RRULE:FREQ=DAILY'));
    const list = expandBusy([text], { timezone: 'UTC', fromMs: ms('2026-06-01T00:00:00Z'), toMs: ms('2026-06-04T00:00:00Z') });
    expect(list.map((b) => new Date(b.startMs).toISOString())).toEqual(['2026-06-01T09:00:00.000Z', '2026-06-02T09:00:00.000Z', '2026-06-03T09:00:00.000Z']);
  });

  it('an override whose series is absent stands alone', () => {
    const text = cal(event('UID:o', 'RECURRENCE-ID:20260303T090000Z', 'DTSTART:20260303T110000Z', 'DTEND:20260303T120000Z'));
    expect(busy(text)).toEqual([['2026-03-03T11:00:00.000Z', '2026-03-03T12:00:00.000Z']]);
  });

  it('text that is not an iCalendar file is refused', () => {
    expect(() => expandBusy(['<html>hello</html>'], { timezone: 'UTC', ...range })).toThrow(NotACalendarError);
    expect(() => expandBusy(['BEGIN:VCARD\r\nEND:VCARD'], { timezone: 'UTC', ...range })).toThrow(NotACalendarError);
  });

  it('mergeBusy joins overlapping and touching intervals', () => {
    expect(
      mergeBusy([
        { startMs: 5, endMs: 7 },
        { startMs: 0, endMs: 2 },
        { startMs: 2, endMs: 3 },
        { startMs: 6, endMs: 9 },
      ]),
    ).toEqual([
      { startMs: 0, endMs: 3 },
      { startMs: 5, endMs: 9 },
    ]);
  });
});
