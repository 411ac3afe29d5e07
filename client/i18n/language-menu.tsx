import { For, type JSX } from 'solid-js';
import { LOCALE_NAMES, LOCALES, type Locale } from '../../shared/i18n/locales';
import { chooseLocale, locale, t } from './i18n';

/**
 * The reader's language: each named in itself (a reader finds theirs whatever the page speaks).
 * Choosing one switches the page in place and is kept in the `svc_lang` cookie (per device: the
 * door keeps its own). `class` adds a place's own look (the door's, in client/styles/door.css).
 */
export function LanguageMenu(props: { class?: string }): JSX.Element {
  return (
    <select
      class={props.class ? `language-menu ${props.class}` : 'language-menu'}
      value={locale()}
      onChange={(e) => void chooseLocale(e.currentTarget.value as Locale)}
      aria-label={t('common.language')}
    >
      <For each={LOCALES}>
        {(code) => (
          <option value={code} lang={code} selected={code === locale()}>
            {LOCALE_NAMES[code]}
          </option>
        )}
      </For>
    </select>
  );
}
