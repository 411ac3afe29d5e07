/**
 * What a page's own data says about its language, for the shell's negotiation
 * (docs/decisions/027-languages.md): an event's page falls back to the event's language, then
 * the organization's default; every other page (a booking type has no language of its own) to
 * the organization's default. Asked only when the reader's choice and browser name nothing we speak.
 */
import type { AppContext } from '../context';
import type { LocaleInputs } from '../../shared/i18n/locales';
import { eventsRepository } from '../modules/events/events.repository';
import { readDefaultLanguage } from '../modules/settings/default-language';

export type PageLanguageHints = Pick<LocaleInputs, 'eventLocale' | 'orgDefault'>;

const EVENT_PAGE = /^\/events\/(\d{1,10})\/?$/;

export function pageLanguageHints(ctx: Pick<AppContext, 'db' | 'logger'>) {
  return async (urlPath: string): Promise<PageLanguageHints> => {
    try {
      const eventId = EVENT_PAGE.exec(urlPath)?.[1];
      const [orgDefault, event] = await Promise.all([
        readDefaultLanguage(ctx.db),
        eventId && Number(eventId) <= 2_147_483_647 ? eventsRepository(ctx.db).findById(Number(eventId)) : null,
      ]);
      // a draft's page is 404 to the public: its language says nothing either
      return { orgDefault, eventLocale: event?.status === 'published' ? event.language : null };
    } catch (err) {
      // the page still opens (in English) when the database does not answer; its scripts say why
      ctx.logger.warn({ err }, 'page language not read; the shell falls back to English');
      return {};
    }
  };
}
