/** The admin app's calls for a host's own working hours (docs/api.md#host-hours), through the typed tRPC client. */
import { call, rpc } from '../ui/trpc';
import type { HostHoursDto, HostHoursInput } from '../../shared/host-hours';

export type { HostHoursDto, HostHoursInput };

export const getHostHours = (userId: number) => call(rpc().hours.hostHours.query({ userId }));
export const saveHostHours = (userId: number, hours: HostHoursInput) => call(rpc().hours.setHostHours.mutate({ userId, ...hours }));
