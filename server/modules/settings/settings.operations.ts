/** Site settings (docs/api.md): currency, location labels, payment hold window. */
import { ZSettingsDto, ZSettingsPatch } from '../../../shared/booking';
import { defineOperation } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { settingsService } from './settings.service';

const TAGS = ['settings'];

export const settingsOperations = {
  get: defineOperation({
    summary: 'Site settings: currency, location labels, payment hold hours (after their filters)',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZSettingsDto,
    rest: { method: 'get', path: '/settings', tags: TAGS, describe: 'Settings' },
    handler: ({ ctx }) => settingsService(ctx).get(),
  }),
  update: defineOperation({
    summary: 'Change settings; a currency is relabelled, never converted',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZSettingsPatch,
    output: ZSettingsDto,
    rest: { method: 'patch', path: '/settings', tags: TAGS, describe: 'Settings' },
    handler: ({ input, ctx }) => settingsService(ctx).update(input),
  }),
};
