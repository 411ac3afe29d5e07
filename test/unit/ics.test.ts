import { describe, expect, it } from 'vitest';
import { buildIcs, type IcsInput } from '../../server/mail/ics';

const invite = (overrides: Partial<IcsInput> = {}): IcsInput => ({
  method: 'REQUEST',
  uid: 'booking-12@svc.local',
  stampUtc: '2026-11-01 08:15:30',
  startUtc: '2026-11-21 09:00:00',
  endUtc: '2026-11-21 09:30:00',
  summary: 'Consultation',
  description: 'Bring your papers',
  organizer: { name: 'Host Hanna', email: 'hanna@example.com' },
  attendee: { name: 'Carl Customer', email: 'carl@example.com' },
  sequence: 0,
  ...overrides,
});

/** RFC 5545 §3.1 unfolding: a CRLF followed by one space disappears. */
const unfold = (ics: string) => ics.replace(/\r\n /g, '');
const contentLines = (ics: string) => unfold(ics).split('\r\n').slice(0, -1);
const property = (ics: string, name: string) => contentLines(ics).find((line) => line.startsWith(`${name}:`) || line.startsWith(`${name};`));

describe('buildIcs structure', () => {
  it('wraps one VEVENT in a VCALENDAR with version, product id and method', () => {
    const lines = contentLines(buildIcs(invite()));
    expect(lines.slice(0, 5)).toEqual(['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//svc//booking//EN', 'METHOD:REQUEST', 'BEGIN:VEVENT']);
    expect(lines.slice(-2)).toEqual(['END:VEVENT', 'END:VCALENDAR']);
    expect(lines.filter((line) => line === 'BEGIN:VEVENT')).toHaveLength(1);
  });

  it('ends every line, the last included, with CRLF and has no bare line feed', () => {
    const ics = buildIcs(invite({ description: 'line one\nline two' }));
    expect(ics.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(ics.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('writes the event properties of a confirmed booking', () => {
    const lines = contentLines(buildIcs(invite({ sequence: 2 })));
    expect(lines).toEqual(
      expect.arrayContaining([
        'UID:booking-12@svc.local',
        'DTSTAMP:20261101T081530Z',
        'DTSTART:20261121T090000Z',
        'DTEND:20261121T093000Z',
        'SUMMARY:Consultation',
        'DESCRIPTION:Bring your papers',
        'ORGANIZER;CN="Host Hanna":mailto:hanna@example.com',
        'ATTENDEE;CN="Carl Customer";RSVP=FALSE:mailto:carl@example.com',
        'SEQUENCE:2',
        'STATUS:CONFIRMED',
      ]),
    );
  });

  it('marks a CANCEL invite as cancelled', () => {
    const ics = buildIcs(invite({ method: 'CANCEL', sequence: 1 }));
    expect(property(ics, 'METHOD')).toBe('METHOD:CANCEL');
    expect(property(ics, 'STATUS')).toBe('STATUS:CANCELLED');
  });

  it('leaves out LOCATION and URL when not given', () => {
    const ics = buildIcs(invite());
    expect(property(ics, 'LOCATION')).toBeUndefined();
    expect(property(ics, 'URL')).toBeUndefined();
  });

  it('writes LOCATION and URL when given', () => {
    const ics = buildIcs(invite({ location: 'Room 4', url: 'https://svc.example/manage/abc' }));
    expect(property(ics, 'LOCATION')).toBe('LOCATION:Room 4');
    expect(property(ics, 'URL')).toBe('URL:https://svc.example/manage/abc');
  });
});

describe('buildIcs text values', () => {
  it('escapes backslash, semicolon, comma and newlines in text', () => {
    const ics = buildIcs(invite({ summary: 'a\\b;c,d\ne\r\nf\rg', location: 'Hall; B, 2' }));
    expect(property(ics, 'SUMMARY')).toBe('SUMMARY:a\\\\b\\;c\\,d\\ne\\nf\\ng');
    expect(property(ics, 'LOCATION')).toBe('LOCATION:Hall\\; B\\, 2');
  });

  it('drops control characters other than tab from text', () => {
    const ics = buildIcs(invite({ description: 'a\u0000b\u0007c\td' }));
    expect(property(ics, 'DESCRIPTION')).toBe('DESCRIPTION:abc\td');
  });

  it('quotes a common name and removes double quotes and line breaks from it', () => {
    const ics = buildIcs(invite({ attendee: { name: 'Doe, "JD"\r\nX-INJECTED:1', email: 'jd@example.com' } }));
    expect(property(ics, 'ATTENDEE')).toBe('ATTENDEE;CN="Doe, JDX-INJECTED:1";RSVP=FALSE:mailto:jd@example.com');
    expect(property(ics, 'X-INJECTED')).toBeUndefined();
  });
});

describe('buildIcs line folding', () => {
  it('folds a long line into parts of at most 75 octets that unfold to the original', () => {
    const description = 'x'.repeat(300);
    const ics = buildIcs(invite({ description }));
    const physical = ics.split('\r\n').slice(0, -1);
    for (const line of physical) expect(Buffer.byteLength(line, 'utf8')).toBeLessThanOrEqual(75);
    const folded = physical.filter((line) => line.startsWith(' '));
    expect(folded.length).toBeGreaterThanOrEqual(4);
    expect(property(ics, 'DESCRIPTION')).toBe(`DESCRIPTION:${description}`);
  });

  it('keeps a line of exactly 75 octets whole and folds one of 76', () => {
    const prefix = 'DESCRIPTION:';
    const exact = buildIcs(invite({ description: 'y'.repeat(75 - prefix.length) }));
    const over = buildIcs(invite({ description: 'y'.repeat(76 - prefix.length) }));
    expect(exact.split('\r\n').some((line) => line.startsWith(' '))).toBe(false);
    expect(over).toContain(`${prefix}${'y'.repeat(75 - prefix.length)}\r\n y\r\n`);
  });

  it('counts octets, not characters, and never splits a multi-byte character', () => {
    const description = 'Zoë 会議 🗓️ '.repeat(20);
    const bytes = Buffer.from(buildIcs(invite({ description })), 'utf8');
    const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
    let start = 0;
    for (let i = 0; i < bytes.length - 1; i++) {
      if (bytes[i] !== 0x0d || bytes[i + 1] !== 0x0a) continue;
      const line = bytes.subarray(start, i);
      expect(line.length).toBeLessThanOrEqual(75);
      expect(() => strictUtf8.decode(line)).not.toThrow();
      start = i + 2;
    }
    expect(property(strictUtf8.decode(bytes), 'DESCRIPTION')).toBe(`DESCRIPTION:${description}`);
  });

  it('keeps both halves of an emoji on one line where a fold falls inside it', () => {
    // 'DESCRIPTION:' is 12 octets; counted per UTF-16 unit, the 11th emoji would straddle octet 75.
    const description = '😀'.repeat(30);
    const ics = buildIcs(invite({ description }));
    const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    for (const line of ics.split('\r\n')) expect(line).not.toMatch(loneSurrogate);
    expect(property(ics, 'DESCRIPTION')).toBe(`DESCRIPTION:${description}`);
  });
});

describe('buildIcs input checks', () => {
  it.each([
    ['an ISO time', { startUtc: '2026-11-21T09:00:00Z' }],
    ['a time without seconds', { endUtc: '2026-11-21 09:30' }],
    ['an impossible date', { stampUtc: '2026-02-30 08:00:00' }],
  ])('refuses %s', (_label, overrides) => {
    expect(() => buildIcs(invite(overrides))).toThrow(/must be a UTC "Y-m-d H:i:s" time/);
  });

  it('refuses an email address that could end the property early', () => {
    expect(() => buildIcs(invite({ attendee: { name: 'X', email: 'x@example.com\r\nSTATUS:CANCELLED' } }))).toThrow(/not an email address/);
  });

  it('refuses a URL that is not http(s)', () => {
    expect(() => buildIcs(invite({ url: 'javascript:alert(1)' }))).toThrow(/http\(s\) URL/);
  });

  it('refuses a negative or fractional sequence', () => {
    expect(() => buildIcs(invite({ sequence: -1 }))).toThrow(/sequence/);
    expect(() => buildIcs(invite({ sequence: 1.5 }))).toThrow(/sequence/);
  });
});

describe('ORGANIZER SENT-BY (RFC 5545 §3.2.18)', () => {
  it('names the sender when it is not the organizer', () => {
    const ics = unfold(buildIcs(invite({ organizer: { name: 'Host Hanna', email: 'hanna@example.com', sentBy: 'no-reply@svc.local' } })));
    expect(ics).toContain('ORGANIZER;CN="Host Hanna";SENT-BY="mailto:no-reply@svc.local":mailto:hanna@example.com\r\n');
  });

  it('is left out when the organizer sends it herself (any case)', () => {
    const ics = unfold(buildIcs(invite({ organizer: { name: 'Host Hanna', email: 'hanna@example.com', sentBy: 'Hanna@Example.com' } })));
    expect(ics).toContain('ORGANIZER;CN="Host Hanna":mailto:hanna@example.com\r\n');
  });

  it('refuses a sender that is not an address (it could end the parameter early)', () => {
    expect(() => buildIcs(invite({ organizer: { name: 'H', email: 'hanna@example.com', sentBy: 'a"b@example.com' } }))).toThrow(/not an email address/);
  });
});
