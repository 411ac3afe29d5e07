import { describe, expect, it } from 'vitest';
import { calendarLinks, GOOGLE_CALENDAR_URL, OUTLOOK_CALENDAR_URL } from '../../shared/calendar-links';
import { calendarLinkLines } from '../../server/mail/calendar-links';
import { textToHtml } from '../../server/mail/layout';
import { translator } from '../../server/i18n/translate';

const event = {
  title: 'Winter concert',
  startUtc: '2026-12-03 18:30:00',
  endUtc: '2026-12-03 21:00:00',
  location: 'Town Hall, Leeds',
  details: 'Cannot come? Cancel: https://svc.example.test/cancel/abc123',
};

/** The link's query as ordered pairs, decoded as the provider reads them. */
const query = (url: string) => [...new URL(url).searchParams.entries()];
const base = (url: string) => url.slice(0, url.indexOf('?'));

describe('calendar composer links', () => {
  it('gives Google the template action, title, compact UTC dates, notes and place, in that order', () => {
    const { google } = calendarLinks(event);
    expect(base(google)).toBe(GOOGLE_CALENDAR_URL);
    expect(query(google)).toEqual([
      ['action', 'TEMPLATE'],
      ['text', 'Winter concert'],
      ['dates', '20261203T183000Z/20261203T210000Z'],
      ['details', 'Cannot come? Cancel: https://svc.example.test/cancel/abc123'],
      ['location', 'Town Hall, Leeds'],
    ]);
  });

  it('gives Outlook.com the compose path, subject, ISO UTC start and end, body and place', () => {
    const { outlook } = calendarLinks(event);
    expect(base(outlook)).toBe(OUTLOOK_CALENDAR_URL);
    expect(query(outlook)).toEqual([
      ['path', '/calendar/action/compose'],
      ['rru', 'addevent'],
      ['subject', 'Winter concert'],
      ['startdt', '2026-12-03T18:30:00Z'],
      ['enddt', '2026-12-03T21:00:00Z'],
      ['body', 'Cannot come? Cancel: https://svc.example.test/cancel/abc123'],
      ['location', 'Town Hall, Leeds'],
    ]);
  });

  it('encodes spaces as %20, never +, and a literal + or & in a title as %2B and %26', () => {
    const { google, outlook } = calendarLinks({ ...event, title: 'Rock & Roll + Jazz', location: 'Café Müller' });
    for (const url of [google, outlook]) {
      expect(url).toContain('Rock%20%26%20Roll%20%2B%20Jazz');
      expect(url).toContain('Caf%C3%A9%20M%C3%BCller');
      expect(url).not.toMatch(/\+/);
      expect(url.split('&').every((pair) => /^[a-z]+=/.test(pair) || pair.startsWith('https://'))).toBe(true);
    }
    expect(new URL(google).searchParams.get('text')).toBe('Rock & Roll + Jazz');
    expect(new URL(outlook).searchParams.get('subject')).toBe('Rock & Roll + Jazz');
    expect(new URL(outlook).searchParams.get('location')).toBe('Café Müller');
  });

  it('keeps an Arabic title and a line break in the notes whole', () => {
    const { google, outlook } = calendarLinks({ ...event, title: 'أمسية موسيقية', details: 'سطر أول\nhttps://svc.example.test/cancel/abc' });
    expect(new URL(google).searchParams.get('text')).toBe('أمسية موسيقية');
    expect(new URL(outlook).searchParams.get('subject')).toBe('أمسية موسيقية');
    expect(google).toContain('%0A');
    expect(new URL(outlook).searchParams.get('body')).toBe('سطر أول\nhttps://svc.example.test/cancel/abc');
  });

  it('gives an event without an end the calendar file’s default hour', () => {
    const { google, outlook } = calendarLinks({ ...event, endUtc: null });
    expect(new URL(google).searchParams.get('dates')).toBe('20261203T183000Z/20261203T193000Z');
    expect(new URL(outlook).searchParams.get('enddt')).toBe('2026-12-03T19:30:00Z');
    expect(new URL(calendarLinks({ ...event, endUtc: undefined }).google).searchParams.get('dates')).toBe('20261203T183000Z/20261203T193000Z');
  });

  it('crosses midnight and the year end in UTC', () => {
    const { google } = calendarLinks({ ...event, startUtc: '2026-12-31 23:30:00', endUtc: null });
    expect(new URL(google).searchParams.get('dates')).toBe('20261231T233000Z/20270101T003000Z');
  });

  it('leaves out an empty place and empty notes rather than sending blank fields', () => {
    const { google, outlook } = calendarLinks({ title: 'Quiz', startUtc: '2026-12-03 18:30:00', location: '  ', details: '' });
    expect(query(google).map(([k]) => k)).toEqual(['action', 'text', 'dates']);
    expect(query(outlook).map(([k]) => k)).toEqual(['path', 'rru', 'subject', 'startdt', 'enddt']);
  });

  it('refuses a malformed time instead of making a link to the wrong day', () => {
    expect(() => calendarLinks({ ...event, startUtc: '2026-12-03T18:30:00Z' })).toThrow(/startUtc/);
    expect(() => calendarLinks({ ...event, endUtc: '2026-02-30 10:00:00' })).toThrow(/endUtc/);
  });
});

describe('calendar links in a mail', () => {
  it('writes labelled lines in the reader’s language and names each link in the HTML part', () => {
    const { lines, links } = calendarLinkLines(translator('de'), event);
    const { google, outlook } = calendarLinks(event);
    expect(lines).toEqual([`Google Kalender: ${google}`, `Outlook.com: ${outlook}`]);
    const html = textToHtml(['Hallo', '', ...lines].join('\n'), 'https://svc.example.test', links);
    expect(html).toContain(`<a href="${google.replace(/&/g, '&amp;')}">Zu Google Kalender hinzufügen</a>`);
    expect(html).toContain(`<a href="${outlook.replace(/&/g, '&amp;')}">Zu Outlook.com hinzufügen</a>`);
    expect(html).not.toContain('Google Kalender: https://');
  });

  it('leaves a composer URL a visitor typed as text: only the lines the template made are links', () => {
    const { google } = calendarLinks(event);
    const { links } = calendarLinkLines(translator('en'), event);
    const html = textToHtml(`Hello ${google}`, 'https://svc.example.test', links);
    expect(html).not.toContain('<a ');
  });
});
