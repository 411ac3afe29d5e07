/** The first-run checklist (docs/api.md#first-run-checklist). */
import { ZSetup } from '../../../shared/setup';
import { defineOperation } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { setupService } from './setup.service';

export const setupOperations = {
  get: defineOperation({
    summary:
      'The first-run checklist, each step done when its data exists: organization named, currency and zone saved, an event published, a booking type, a staff account, a paired door',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZSetup,
    rest: { method: 'get', path: '/setup', tags: ['setup'], describe: 'The checklist' },
    handler: ({ ctx }) => setupService(ctx).checklist(),
  }),
};
