/**
 * The lint rule over the mail modules (eslint.config.js, docs/decisions/027-languages.md "Mails"):
 * a sentence written into a mail template fails the lint; the same mail through the catalogue,
 * markup, protocol tokens, errors and log lines pass.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The lines the mail rule flags in `code`, linted as if it were the file at `filePath` (a node two selectors match counts once). */
async function mailFindings(code: string, filePath = 'server/modules/example/example.mail.ts'): Promise<number[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return [...new Set(result!.messages.filter((m) => m.ruleId === 'no-restricted-syntax' && /server's catalogue/.test(m.message)).map((m) => m.line))];
}

describe('mail templates take their words from the server catalogue', () => {
  it('flags hard-coded English in a subject, a text line, a pushed line, a template and a layout call', async () => {
    const code = [
      'declare const title: string, name: string, tr: (k: string, v?: object) => string, mailHtml: (s: string) => string;',
      'export const a = { subject: `Reminder: ${title}` };',
      "export const b = { subject: 'Reminder' };",
      "export const c = { text: ['', 'Your booking is confirmed.'].join('\\n') };",
      'export const d = [`Hello ${name},`];',
      "export const e: string[] = []; e.push('Show each QR code at the door.');",
      "export const f = mailHtml('Welcome');",
      "export const g = { subject: name ? tr('mail.x') : 'Booking cancelled' };",
    ].join('\n');
    expect(await mailFindings(code)).toEqual([2, 3, 4, 5, 6, 7, 8]);
  });

  it('passes the translated mail, markup, keys, paths, file names, thrown errors and log lines', async () => {
    const code = [
      'declare const title: string, url: string, locale: string, tr: (k: string, v?: object) => string;',
      'declare const logger: { warn(o: object, m: string): void };',
      "export const a = { subject: tr('mail.booking.subjectConfirmed', { title }), text: [tr('mail.hello'), ''].join('\\n') };",
      "export const b = { url: `${url}/cancel/${title}`, filename: 'invite.ics', contentType: `text/calendar; charset=utf-8; method=${title}` };",
      'export const c = [`<html lang="${locale}" dir="ltr">`, \'<head><meta charset="utf-8"></head>\', \'BEGIN:VCALENDAR\'];',
      'export function d(): never { throw new TypeError(`buildIcs: ${title} is not an email address.`); }',
      "logger.warn({}, 'announced a booking after its request');",
    ].join('\n');
    expect(await mailFindings(code)).toEqual([]);
  });

  it('covers the mail modules and not other server files', async () => {
    const sentence = "export const m = { subject: 'Your ticket is here' };";
    expect(await mailFindings(sentence, 'server/modules/booking/booking.notifications.ts')).toEqual([1]);
    expect(await mailFindings(sentence, 'server/mail/ics.ts')).toEqual([1]);
    expect(await mailFindings(sentence, 'server/auth/invites.mail.ts')).toEqual([1]);
    expect(await mailFindings(sentence, 'server/pdf/ticket-pdf.ts')).toEqual([1]);
    expect(await mailFindings(sentence, 'server/modules/attendees/ticket-pdf.service.ts')).toEqual([1]);
    expect(await mailFindings(sentence, 'server/modules/booking/booking.service.ts')).toEqual([]);
  });
});
