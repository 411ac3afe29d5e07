/** Times on the visitor pages in the reader's language (shared/time-format.ts prints them; the words come from the catalogue). */
import { formatWhen, type When, type WhenInput } from '../../shared/time-format';
import { intlLocale, t } from '../i18n/i18n';

/** `formatWhen` for the reader: their locale's day and clock, "your time" in their words (reactive to a language switch). */
export function formatWhenHere(input: Omit<WhenInput, 'locale' | 'yourTime'>): When {
  return formatWhen({ ...input, locale: intlLocale(), yourTime: (time) => t('common.yourTime', { time }) });
}
