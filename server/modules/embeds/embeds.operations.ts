/** Settings → Embeds (docs/api.md#embeds): the origins allowed to frame the embeddable pages. */
import { ZEmbedSettings, ZEmbedSettingsDto } from '../../../shared/embeds';
import { defineOperation } from '../../api/operation';
import { ADMIN_ONLY } from '../../auth/principal';
import { embedsService } from './embeds.service';

const TAGS = ['settings'];

export const embedsOperations = {
  get: defineOperation({
    summary: 'The origins allowed to frame the embeddable pages: saved here, and the operator’s SVC_EMBED_ORIGINS',
    access: ADMIN_ONLY,
    kind: 'query',
    output: ZEmbedSettingsDto,
    rest: { method: 'get', path: '/settings/embeds', tags: TAGS, describe: 'Embed settings' },
    handler: ({ ctx }) => embedsService(ctx).get(),
  }),
  update: defineOperation({
    summary: 'Replace the saved origins allowed to frame the embeddable pages (https://host[:port] each)',
    access: ADMIN_ONLY,
    kind: 'mutation',
    input: ZEmbedSettings,
    output: ZEmbedSettingsDto,
    rest: { method: 'put', path: '/settings/embeds', tags: TAGS, describe: 'Embed settings' },
    handler: ({ input, ctx }) => embedsService(ctx).update(input),
  }),
};
