/**
 * A form's fields are found by their label (screen readers list them by it, tests select them by
 * it): in every language the labels of each form's fields (events, ticket categories, vouchers, attendees, webhooks) differ.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../shared/i18n/locales';

const FORMS = ['admin.eventForm.field.', 'admin.tickets.field.', 'admin.vouchers.field.', 'admin.attendees.field.', 'admin.webhook.field.'];

describe('admin form labels', () => {
  it.each([...LOCALES])('in %s no two fields of one form share a label', (locale) => {
    const catalogue = JSON.parse(readFileSync(`client/i18n/admin/${locale}.json`, 'utf8')) as Record<string, string>;
    for (const prefix of FORMS) {
      const byLabel = new Map<string, string[]>();
      for (const [key, text] of Object.entries(catalogue)) {
        if (!key.startsWith(prefix) || key.slice(prefix.length).includes('.') || /hint|Hint/.test(key)) continue;
        const label = text.trim().toLowerCase();
        byLabel.set(label, [...(byLabel.get(label) ?? []), key]);
      }
      const shared = [...byLabel.entries()].filter(([, keys]) => keys.length > 1);
      expect(shared, `${locale} ${prefix}`).toEqual([]);
    }
  });
});
