/** The invite and password-reset mails (docs/api.md), in the user's own language (server/mail/language.ts). */
import type { Locale } from '../../shared/i18n/locales';
import { translator } from '../i18n/translate';
import type { Role } from './auth.sql';

export interface InviteMailInput {
  user: { email: string; displayName: string; role: Role; passwordHash: string | null };
  /** Who sent the link (their name or address); null: the user asked on the sign-in page, or the inviter is gone. */
  inviterName: string | null;
  /** null: the user asked for it on the sign-in page (a reset). */
  byAdministrator: boolean;
  link: string;
  expiresUtc: string;
}

/** A reset (asked on the sign-in page), a new-password link (an existing user) or an invite (a new one). */
export function buildInviteMail(input: InviteMailInput, locale: Locale): { subject: string; text: string } {
  const tr = translator(locale);
  const { user, link } = input;
  const inviter = input.inviterName ?? tr('mail.invite.anAdministrator');
  const greeting = tr('mail.hello', { name: user.displayName || user.email });
  const until = tr('mail.invite.until', { time: input.expiresUtc });
  if (!input.byAdministrator) {
    return {
      subject: tr('mail.invite.resetSubject'),
      text: [greeting, '', tr('mail.invite.resetBody'), link, '', until, tr('mail.invite.resetIgnore')].join('\n'),
    };
  }
  if (user.passwordHash) {
    return {
      subject: tr('mail.invite.newPasswordSubject'),
      text: [greeting, '', tr('mail.invite.newPasswordBody', { inviter }), link, '', until, tr('mail.invite.newPasswordIgnore')].join('\n'),
    };
  }
  return {
    subject: tr('mail.invite.subject'),
    text: [greeting, '', tr('mail.invite.body', { inviter, role: user.role }), link, '', until, tr('mail.invite.ignore')].join('\n'),
  };
}
