/**
 * Every public page in every locale on a 390 px phone, in real Chromium against one real server:
 * the events list, an event, a booking page, the cancel link of a real sign-up and the manage
 * link of a real booking (from their mails), sign-in, the door's pairing screen and a page that
 * does not exist, each opened with `?lang=<locale>`. Each proves the shell's `<html lang dir>`
 * and Content-Language as negotiated, nothing wider than the screen, and axe clean (a named PNG
 * under test-results/screens for a human). The data is seeded once and one page walks them all;
 * a finding is recorded softly so one run names every page and locale that fails.
 * Words are not asserted (other screens' tests do that): this is layout and accessibility in
 * each language, right to left included (docs/decisions/027-languages.md).
 */
import { describe, expect, test } from 'vitest';
import { createHost, createType, futureStart, submitBooking, bookingBody } from '../helpers/booking';
import { seriousViolations, useE2e } from '../helpers/e2e';
import { createEvent, signUp, uniqueEmail } from '../helpers/registration';
import { horizontalOverflow, PHONE_390, screenshot } from '../helpers/screens';
import { linkFromOutbox, phoneProfile } from '../helpers/visitor-e2e';
import { LOCALES, localeDirection } from '../../shared/i18n/locales';

// a browser that asks for nothing we speak: the language comes from the link alone; no service
// worker, so every page is the server's shell (its Content-Language is what is checked)
const e2e = useE2e({
  env: { SVC_JOBS: 'off' },
  login: true,
  context: { ...phoneProfile({ locale: 'ja-JP', timezoneId: 'Asia/Tokyo' }), serviceWorkers: 'block' },
});

interface Screen {
  name: string;
  path: string;
  /** What shows once the page has its data (words differ per locale; the structure does not). */
  ready: string;
}

describe('public pages in every locale at 390 px', () => {
  test(
    'events, event, booking, cancel, manage, sign-in, door pairing and not-found: lang and dir as linked, no overflow, axe clean',
    { timeout: 900_000 },
    async () => {
      // a German compound as long as real ones (26 letters) in the title and a place, to see that it wraps
      const event = await createEvent(e2e.admin.api, {
        title: 'Jahresmitgliederversammlung des Kulturvereins',
        venue: 'Veranstaltungszentrumsfoyer, Hauptstraße 1',
        priceCents: 1250,
        capacity: 40,
        waitlist: true,
        maxPerSignup: 4,
      });
      const email = uniqueEmail('locales');
      expect((await signUp(e2e.server, event.id, { quantity: 2, email })).status).toBe(201);
      const cancelPath = await linkFromOutbox(e2e.server, email, 'cancel');
      const host = await createHost(e2e.admin.api);
      const type = await createType(e2e.admin.api, { title: 'Beratungsgespräch', hosts: [host] });
      const booking = bookingBody(type.id as number, futureStart(3, 10));
      expect((await submitBooking(e2e.server.url, booking)).status).toBe(201);
      const managePath = await linkFromOutbox(e2e.server, String(booking.customerEmail), 'manage');

      const screens: Screen[] = [
        { name: 'events', path: '/events', ready: `main a[href="/events/${event.id}"]` },
        { name: 'event', path: `/events/${event.id}`, ready: '#signup-email' },
        { name: 'book', path: `/book/${type.id}`, ready: '[data-day]' },
        { name: 'cancel', path: cancelPath, ready: 'main .v-actions button' },
        { name: 'manage', path: managePath, ready: 'main .v-actions button' },
        { name: 'login', path: '/login', ready: 'main form input[type="password"]' },
        { name: 'door', path: '/door', ready: 'section.door-pair input' },
        { name: 'not-found', path: '/no-such-page', ready: 'main h1' },
      ];

      const page = await e2e.newPage({ viewport: PHONE_390 });
      for (const locale of LOCALES) {
        const dir = localeDirection(locale);
        for (const screen of screens) {
          const label = `${locale} ${screen.name}`;
          const url = new URL(screen.path, e2e.server.url);
          url.searchParams.set('lang', locale);
          const response = await page.goto(url.href);
          expect.soft(response?.headers()['content-language'], `${label}: Content-Language`).toBe(locale);
          await page.locator(screen.ready).first().waitFor();
          // the shell's attributes, and still the same once the page has rendered in that language
          expect
            .soft(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), `${label}: <html lang dir>`)
            .toEqual([locale, dir]);
          await screenshot(page, `visitor-390-${locale}-${screen.name}`);
          expect.soft(await horizontalOverflow(page), `${label}: page wider than the viewport`).toBe(0);
          expect.soft(await seriousViolations(page), `${label}: axe`).toEqual([]);
        }
      }
    },
  );
});
