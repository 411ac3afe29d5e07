/**
 * Each admin's own language (docs/decisions/027-languages.md): kept on their user
 * (`PATCH /auth/me`), so it follows them to every device and their mails. A choice made on this
 * device (the `svc_lang` cookie, or `?lang=` on the link) still wins there: it is the reader's
 * latest word, and the server's shell already answered in it.
 */
import { LANG_COOKIE, LANG_PARAM, matchLocale, readCookie, type Locale } from '../../shared/i18n/locales';
import type { UserDto } from '../../shared/users';
import { chooseLocale, locale, useLocale } from '../i18n/i18n';
import { call, rpc } from '../ui/trpc';

/** Whether the reader chose a language on this device (the cookie or the link): then that one stays. */
function choseOnThisDevice(): boolean {
  return matchLocale(readCookie(document.cookie, LANG_COOKIE)) !== null || matchLocale(new URLSearchParams(window.location.search).get(LANG_PARAM)) !== null;
}

/**
 * After sign-in and at the admin's start: speak the user's stored language unless this device
 * chose one. Not written to the cookie, so a later change made on another device is heard here.
 */
export async function applyMyLanguage(user: Pick<UserDto, 'language'> | null): Promise<void> {
  const mine = matchLocale(user?.language);
  if (!mine || mine === locale() || choseOnThisDevice()) return;
  await useLocale(mine);
}

/**
 * The language menu's choice in the admin: shown at once and kept on this device, then stored on
 * the user. Answers whether it was stored; offline it is not, and the device's choice holds.
 */
export async function chooseMyLanguage(next: Locale): Promise<boolean> {
  await chooseLocale(next);
  try {
    await call(rpc().auth.updateMe.mutate({ language: next }));
    return true;
  } catch {
    return false;
  }
}
