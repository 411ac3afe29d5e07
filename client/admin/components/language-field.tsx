/**
 * The language selects of the admin forms (docs/decisions/027-languages.md): each language is
 * offered in its own name (LOCALE_NAMES), so an organizer finds theirs whatever the admin speaks.
 */
import type { JSX } from 'solid-js';
import { LOCALE_NAMES, LOCALES, type Locale } from '../../../shared/i18n/locales';
import { t } from '../../i18n/i18n';
import { SelectField } from './fields';

const LANGUAGE_OPTIONS = LOCALES.map((value) => ({ value, label: LOCALE_NAMES[value] }));

/** Settings: the organization's language, the last fallback of every page and mail. */
export function DefaultLanguageField(props: { value: Locale; onChange: (value: Locale) => void }): JSX.Element {
  return (
    <SelectField
      id="set-default-language"
      label={t('admin.language.defaultLabel')}
      hint={t('admin.language.defaultHint')}
      value={props.value}
      options={LANGUAGE_OPTIONS}
      onChange={props.onChange}
    />
  );
}

/** An event's language; '' leaves it to the organization's default. */
export function EventLanguageField(props: { value: Locale | ''; onChange: (value: Locale | '') => void }): JSX.Element {
  return (
    <SelectField<Locale | ''>
      id="event-language"
      label={t('admin.language.eventLabel')}
      hint={t('admin.language.eventHint')}
      value={props.value}
      options={[{ value: '', label: t('admin.language.orgDefault') }, ...LANGUAGE_OPTIONS]}
      onChange={props.onChange}
    />
  );
}
