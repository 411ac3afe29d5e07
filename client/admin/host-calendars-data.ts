/** The admin app's calls for a host's connected calendars (docs/api.md#host-calendars), through the typed tRPC client. */
import { ApiError } from '../ui/errors';
import { call, rpc } from '../ui/trpc';
import { t } from '../i18n/i18n';
import type { HostCalendarDto, HostCalendarInput } from '../../shared/host-calendars';

export type { HostCalendarDto, HostCalendarInput };

export const listHostCalendars = (userId: number) => call(rpc().calendars.listHostCalendars.query({ userId }));
export const addHostCalendar = (userId: number, input: HostCalendarInput) => call(rpc().calendars.addHostCalendar.mutate({ userId, ...input }));
export const refreshCalendar = (id: number) => call(rpc().calendars.refreshCalendar.mutate({ id }));
export const removeCalendar = (id: number) => call(rpc().calendars.removeCalendar.mutate({ id }));

/** The address as shown: never with credentials in it (the server refuses those, but an old row may not). */
export function shownAddress(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return url;
  }
}

export type CalendarField = 'url' | 'username' | 'password' | 'writeBack' | 'timezone';

/** The server's refusal of a field (`svc_invalid_param` names it) in the reader's words, at that field. */
export function calendarFieldErrors(error: unknown): Partial<Record<CalendarField, string>> {
  if (!(error instanceof ApiError) || error.code !== 'svc_invalid_param') return {};
  const refused: Partial<Record<CalendarField, string>> = {};
  for (const [key, problem] of Object.entries(error.data?.params ?? {})) {
    const field = key.split('.')[0];
    const said = typeof problem === 'string' ? problem : '';
    if (field === 'url') {
      refused.url = /could not be read/i.test(said) ? t('admin.hostCalendars.error.urlUnreadable') : t('admin.hostCalendars.error.urlInvalid');
    } else if (field === 'password') refused.password = t('admin.hostCalendars.error.password');
    else if (field === 'username') refused.username = t('admin.hostCalendars.error.username');
    else if (field === 'writeBack') refused.writeBack = t('admin.hostCalendars.error.writeBack');
    else if (field === 'timezone') refused.timezone = t('admin.hostCalendars.error.timezone');
  }
  return refused;
}
