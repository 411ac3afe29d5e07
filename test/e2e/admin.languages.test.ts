/**
 * One admin flow in German and in Arabic (issue 28): sign in, create and publish an event, find
 * it on the overview and the events list, open its attendees and edit one — every screen in the
 * reader's language, Arabic laid out right to left, nothing wider than a 390 px phone, axe clean.
 * Then the frame's language menu switches the admin back to English in place.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { queryRows } from '../../server/db/client';
import type { Page } from 'playwright-core';
import { createAttendee } from '../helpers/checkin';
import { useE2e } from '../helpers/e2e';
import { checkScreen, PHONE_390 } from '../helpers/screens';

const e2e = useE2e({ env: { SVC_JOBS: 'off' }, context: { viewport: PHONE_390 } });

/** What the flow reads on each screen, per language (the catalogue's words, typed here as a reader sees them). */
const WORDS = {
  de: {
    dir: 'ltr',
    signIn: 'Anmelden',
    password: 'Passwort',
    email: 'E-Mail',
    signedInAs: 'Angemeldet als',
    nav: 'Verwaltung',
    events: 'Veranstaltungen',
    newEvent: 'Neue Veranstaltung',
    title: 'Titel',
    starts: 'Beginn',
    saveAndPublish: 'Speichern und veröffentlichen',
    upcoming: 'Heute und demnächst',
    published: 'Veröffentlicht',
    attendees: 'Teilnehmende',
    oneAttendee: '1 teilnehmende Person',
    actionsFor: 'Aktionen für',
    edit: 'Bearbeiten',
    status: 'Status',
    save: 'Speichern',
    saved: (name: string) => `✓ ${name} gespeichert.`,
    waitlist: 'Warteliste',
    dashboard: 'Veranstaltungsübersicht',
    figures: 'Check-in-Zahlen, in Plätzen',
    seatsGoing: 'Plätze angemeldet',
    noLimit: 'Unbegrenzt',
    arrivalsLater: 'Ankünfte erscheinen hier, sobald die Veranstaltung beginnt.',
    noCheckins: 'Noch keine Check-ins.',
  },
  ar: {
    dir: 'rtl',
    signIn: 'تسجيل الدخول',
    password: 'كلمة المرور',
    email: 'البريد الإلكتروني',
    signedInAs: 'سجّلت الدخول باسم',
    nav: 'الإدارة',
    events: 'الفعاليات',
    newEvent: 'فعالية جديدة',
    title: 'العنوان',
    starts: 'تبدأ',
    saveAndPublish: 'حفظ ونشر',
    upcoming: 'اليوم والقادم',
    published: 'منشورة',
    attendees: 'الحضور',
    oneAttendee: 'حاضر واحد',
    actionsFor: 'إجراءات',
    edit: 'تعديل',
    status: 'الحالة',
    save: 'حفظ',
    saved: (name: string) => `✓ حُفظ ${name}.`,
    waitlist: 'قائمة الانتظار',
    dashboard: 'لوحة متابعة الفعالية',
    figures: 'أرقام تسجيل الدخول بالمقاعد',
    seatsGoing: 'مقاعد مؤكدة',
    noLimit: 'بلا حد',
    arrivalsLater: 'تظهر أعداد الوصول هنا بمجرد بدء الفعالية.',
    noCheckins: 'لا توجد عمليات تسجيل دخول بعد.',
  },
} as const;

/** The admin pages' own visible text (navigation and content, not the shared header). */
const pageText = (page: Page) => page.locator('main').innerText();

async function adminFlow(lang: keyof typeof WORDS): Promise<void> {
  const w = WORDS[lang];
  const eventTitle = lang === 'de' ? 'Sommerfest im Hof' : 'أمسية موسيقية';
  // a shared link's ?lang= chooses the language (and keeps it in the svc_lang cookie)
  const page = await e2e.openPage(`/login?lang=${lang}`);
  await page.getByRole('heading', { name: w.signIn }).waitFor();
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([lang, w.dir]);
  await checkScreen(page, `admin-languages-${lang}-login`);

  await page.getByLabel(w.email).fill(e2e.server.admin.email);
  await page.getByLabel(w.password).fill(e2e.server.admin.password);
  await page.getByRole('button', { name: w.signIn, exact: true }).click();

  // the overview, in the language the sign-in page spoke
  await page.getByText(w.signedInAs).waitFor();
  const nav = page.getByRole('navigation', { name: w.nav });
  expect(await nav.innerText()).toContain(w.events);
  await checkScreen(page, `admin-languages-${lang}-overview`);

  await nav.getByRole('link', { name: w.events }).click();
  await page.getByRole('link', { name: w.newEvent }).click();
  await page.getByLabel(w.title, { exact: true }).fill(eventTitle);
  await page.getByLabel(w.starts, { exact: true }).fill('2031-06-20T18:30');
  await checkScreen(page, `admin-languages-${lang}-event-form`);
  await page.getByRole('button', { name: w.saveAndPublish }).click();
  await page.waitForURL(/\/admin\/events\/\d+$/);
  const eventId = Number(new URL(page.url()).pathname.split('/').pop());
  expect(await queryRows<{ status: string }>(e2e.db(), sql`select status from svc_events where id = ${eventId}`)).toEqual([{ status: 'published' }]);
  // the new event's dashboard: figures, the chart's place and the check-in tables in the reader's words
  await page.getByRole('heading', { name: w.dashboard, level: 1 }).waitFor();
  const figures = page.getByRole('region', { name: w.figures });
  await figures.waitFor();
  expect(await figures.innerText()).toContain(w.seatsGoing);
  expect(await figures.innerText()).toContain(w.noLimit);
  expect(await pageText(page)).toContain(w.arrivalsLater);
  expect(await pageText(page)).toContain(w.noCheckins);
  expect(await pageText(page)).not.toMatch(/\b(seats|Arrivals|Conflicts|Latest check-ins|No limit|capacity|Published)\b/);
  await checkScreen(page, `admin-languages-${lang}-dashboard`);

  // the overview lists it under "today and upcoming", published; so does the events list
  await nav.getByRole('link', { name: lang === 'de' ? 'Übersicht' : 'نظرة عامة' }).click();
  const upcoming = page.locator('section', { has: page.getByRole('heading', { name: w.upcoming }) });
  await upcoming.getByRole('link', { name: eventTitle }).waitFor();
  expect(await upcoming.innerText()).toContain(w.published);

  await nav.getByRole('link', { name: w.events }).click();
  const row = page.getByRole('row', { name: new RegExp(eventTitle) });
  await row.waitFor();
  expect(await row.innerText()).toContain(w.published);
  expect(await pageText(page)).not.toMatch(/\b(Published|Draft|Unlimited|Capacity|Actions)\b/);
  await checkScreen(page, `admin-languages-${lang}-events`);

  // someone signs up; the admin opens the attendees and moves them to the waitlist
  const guestName = lang === 'de' ? 'Jürgen Maier' : 'ليلى حسن';
  const guest = await createAttendee(e2e.db(), eventId, { name: guestName });
  await row.getByRole('link', { name: w.attendees }).click();
  await page.getByText(w.oneAttendee).waitFor();
  await page.locator('tr.vrow[data-attendee-id]').first().waitFor();
  await checkScreen(page, `admin-languages-${lang}-attendees`);
  await page.getByRole('button', { name: `${w.actionsFor} ${guestName}` }).click();
  await page.getByRole('menuitem', { name: w.edit }).click();
  const panel = page.getByRole('dialog');
  await panel.getByLabel(w.status).selectOption('waitlist');
  expect(await panel.getByLabel(w.status).locator('option:checked').innerText()).toBe(w.waitlist);
  await checkScreen(page, `admin-languages-${lang}-edit-panel`);
  await panel.getByRole('button', { name: w.save, exact: true }).click();
  await page.getByText(w.saved(guestName)).waitFor();
  await expect
    .poll(() => queryRows<{ status: string }>(e2e.db(), sql`select status from svc_attendees where id = ${guest.id}`))
    .toEqual([{ status: 'waitlist' }]);
  expect(await page.locator(`tr[data-attendee-id="${guest.id}"] .col-status`).innerText()).toBe(w.waitlist);
  expect(await horizontalScrollOfMain(page)).toBe(0);

  // the frame's menu switches the admin to English in place (no reload: the edited row stays)
  await page.locator('.admin-language select').selectOption('en');
  await page.getByRole('heading', { name: 'Attendees', level: 1 }).waitFor();
  expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['en', 'ltr']);
  expect(await page.locator(`tr[data-attendee-id="${guest.id}"] .col-status`).innerText()).toBe('waitlist');
}

/** The page's own horizontal scroll (a table scrolls inside its box; the page never does). */
function horizontalScrollOfMain(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth));
}

describe('the admin in the reader’s language', () => {
  for (const lang of ['de', 'ar'] as const) {
    test(`${lang}: sign in, create and publish an event, find it on the overview and the list, edit an attendee; then switch to English in place`, async () => {
      await adminFlow(lang);
    });
  }
});
