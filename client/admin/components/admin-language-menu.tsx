import type { JSX } from 'solid-js';
import { LanguageMenu } from '../../i18n/language-menu';
import type { Locale } from '../../../shared/i18n/locales';

/**
 * The admin frame's language menu: the shared menu (switches in place, kept in the `svc_lang`
 * cookie), and `onChoose` told of the choice so the signed-in person's own language setting can
 * be saved with it (docs/decisions/027-languages.md).
 */
export function AdminLanguageMenu(props: { onChoose?: (chosen: Locale) => void }): JSX.Element {
  return (
    // `change` bubbles from the menu's <select>: the shared menu stays as it is
    <div class="admin-language" onChange={(event) => props.onChoose?.((event.target as HTMLSelectElement).value as Locale)}>
      <LanguageMenu />
    </div>
  );
}
