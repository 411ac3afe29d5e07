/** Site settings (docs/api.md): currency, location labels, payment hold window. */
import { ZSettingsDto, ZSettingsPatch } from '../../../shared/booking';
import { defineOperation } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { settingsService } from './settings.service';
import { organizationService } from './organization.service';
import { ZOrganization, ZOrganizationInput } from '../../../shared/organization-schemas';

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
  organization: defineOperation({
    summary: "The organization's identity: name (the seller's name too), accent colour, contact address, privacy and imprint links, the mail sender's name",
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZOrganization,
    rest: { method: 'get', path: '/settings/organization', tags: TAGS, describe: 'Organization identity' },
    handler: ({ ctx }) => organizationService(ctx).get(),
  }),
  putOrganization: defineOperation({
    summary: 'Replace the organization identity (a field left out is cleared); an accent colour under WCAG AA contrast is refused',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZOrganizationInput,
    output: ZOrganization,
    rest: { method: 'put', path: '/settings/organization', tags: TAGS, describe: 'Organization identity' },
    handler: ({ input, ctx }) => organizationService(ctx).put(input),
  }),
};
