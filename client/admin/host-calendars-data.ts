/** The admin app's calls for a host's connected calendars (docs/api.md#host-calendars), through the typed tRPC client. */
import { call, rpc } from '../ui/trpc';
import type { HostCalendarDto, HostCalendarInput } from '../../shared/host-calendars';

export type { HostCalendarDto, HostCalendarInput };

export const listHostCalendars = (userId: number) => call(rpc().calendars.listHostCalendars.query({ userId }));
export const addHostCalendar = (userId: number, input: HostCalendarInput) => call(rpc().calendars.addHostCalendar.mutate({ userId, ...input }));
export const refreshCalendar = (id: number) => call(rpc().calendars.refreshCalendar.mutate({ id }));
export const removeCalendar = (id: number) => call(rpc().calendars.removeCalendar.mutate({ id }));
