/** A host's own working hours (docs/api.md#host-hours). */
import { ZHostHoursDto, ZHostHoursInput } from '../../../shared/host-hours';
import { z } from '../../../shared/validation';
import { defineOperation, ZId } from '../../api/operation';
import { SIGNED_IN } from '../../auth/principal';
import { hoursService } from './hours.service';

const TAGS = ['host hours'];
const ZHostParams = z.object({ userId: ZId });
const ERRORS = { 403: "Another user's hours (a host manages their own; an administrator anyone's)", 404: 'No such user' };

export const hoursOperations = {
  hostHours: defineOperation({
    summary: "A host's weekly hours and date overrides, in their zone (`stored: false`: none set, available around the clock)",
    access: SIGNED_IN,
    kind: 'query',
    input: ZHostParams,
    output: ZHostHoursDto,
    rest: { method: 'get', path: '/hosts/:userId/hours', tags: TAGS, describe: 'The hours', errors: ERRORS },
    handler: ({ input, principal, ctx }) => hoursService(ctx).get(principal, input.userId),
  }),
  setHostHours: defineOperation({
    summary: "Replaces a host's weekly hours and date overrides; the slots of every type they host follow at once",
    access: SIGNED_IN,
    kind: 'mutation',
    input: ZHostParams.extend(ZHostHoursInput.shape),
    output: ZHostHoursDto,
    rest: {
      method: 'put',
      path: '/hosts/:userId/hours',
      tags: TAGS,
      describe: 'The stored hours',
      errors: { ...ERRORS, 400: 'A bad zone, window, date or limit, named in params' },
    },
    handler: ({ input, principal, ctx }) => {
      const { userId, ...hours } = input;
      return hoursService(ctx).put(principal, userId, hours);
    },
  }),
};
