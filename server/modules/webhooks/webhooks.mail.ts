/**
 * The notice an administrator receives when an endpoint is disabled, in that administrator's own
 * language (docs/decisions/027-languages.md); the words come from the server's catalogue.
 */
import type { Locale } from '../../../shared/i18n/locales';
import type { MailMessage } from '../../mail/mailer';
import { translator } from '../../i18n/translate';

export interface DisabledEndpoint {
  id: number;
  url: string;
  description: string | null;
  failingSinceUtc: string | null;
}

export function buildEndpointDisabledMail(locale: Locale, to: string, endpoint: DisabledEndpoint, publicUrl: string): MailMessage {
  const tr = translator(locale);
  const link = `${publicUrl}/admin/webhooks/${endpoint.id}`;
  return {
    to,
    subject: tr('mail.webhookDisabled.subject'),
    text: [
      tr('mail.webhookDisabled.lead', { since: endpoint.failingSinceUtc }),
      '',
      endpoint.url,
      endpoint.description ? `(${endpoint.description})` : '',
      '',
      tr('mail.webhookDisabled.check', { link }),
    ]
      .filter((line, i, all) => line !== '' || all[i - 1] !== '')
      .join('\n'),
    topic: `webhook:${endpoint.id}`,
    linkOrigin: publicUrl,
    language: locale,
  };
}
