/** A host's connected calendars, whose busy time blocks their slots (docs/api.md#host-calendars). */
import { ZHostCalendarDto, ZHostCalendarInput } from '../../../shared/host-calendars';
import { z } from '../../../shared/validation';
import { defineOperation, ZId, ZIdParams } from '../../api/operation';
import { SIGNED_IN } from '../../auth/principal';
import { calendarsService } from './calendars.service';

const TAGS = ['host calendars'];
const ZHostParams = z.object({ userId: ZId });
const FORBIDDEN = "Another user's calendar (a host manages their own; an administrator anyone's)";

export const calendarsOperations = {
  listHostCalendars: defineOperation({
    summary: "A host's connected calendars with their refresh status (the password is never returned)",
    access: SIGNED_IN,
    kind: 'query',
    input: ZHostParams,
    output: z.array(ZHostCalendarDto),
    rest: {
      method: 'get',
      path: '/hosts/:userId/calendars',
      tags: TAGS,
      describe: 'The calendars, oldest first',
      errors: { 403: FORBIDDEN, 404: 'No such user' },
    },
    handler: ({ input, principal, ctx }) => calendarsService(ctx).list(principal, input.userId),
  }),
  addHostCalendar: defineOperation({
    summary: 'Connects a CalDAV or ICS calendar whose busy time blocks the host; the address is read once before it is kept',
    access: SIGNED_IN,
    kind: 'mutation',
    input: z.strictObject({ userId: ZId, ...ZHostCalendarInput.shape }),
    output: ZHostCalendarDto,
    rest: {
      method: 'post',
      path: '/hosts/:userId/calendars',
      tags: TAGS,
      status: 201,
      describe: 'Connected and read',
      errors: { 400: 'Bad input, or an address that cannot be read as a calendar (nothing is kept)', 403: FORBIDDEN, 404: 'No such user' },
    },
    handler: ({ input, principal, ctx }) => {
      const { userId, ...body } = input;
      return calendarsService(ctx).add(principal, userId, body);
    },
  }),
  removeCalendar: defineOperation({
    summary: 'Disconnects a calendar: its busy time stops blocking slots at once',
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZIdParams,
    rest: { method: 'delete', path: '/calendars/:id', tags: TAGS, describe: 'Disconnected', errors: { 403: FORBIDDEN, 404: 'No such calendar' } },
    handler: ({ input, principal, ctx }) => calendarsService(ctx).remove(principal, input.id),
  }),
  refreshCalendar: defineOperation({
    summary: 'Reads a calendar now and answers when done, with its status (an unreachable calendar keeps its last known busy time)',
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZIdParams,
    output: ZHostCalendarDto,
    rest: {
      method: 'post',
      path: '/calendars/:id/refresh',
      tags: TAGS,
      status: 200,
      describe: 'The calendar after the refresh',
      errors: { 403: FORBIDDEN, 404: 'No such calendar' },
    },
    handler: ({ input, principal, ctx }) => calendarsService(ctx).refreshNow(principal, input.id),
  }),
};
