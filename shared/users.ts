/** User and API-token shapes shared by the server and the admin app (docs/api.md#rest–5): one zod schema each, types inferred. */
import { z } from './validation';
import { ZLanguage } from './schemas';

export const ROLES = ['administrator', 'staff', 'host'] as const;
export type Role = (typeof ROLES)[number];
export const ZRole = z.enum(ROLES);

/** The public shape of a user (docs/api.md#rest): never the password hash. */
export const ZUserDto = z.object({
  id: z.number().int(),
  email: z.string(),
  displayName: z.string(),
  role: ZRole,
  timezone: z.string(),
  /** The user's own language for the admin app and their mails (docs/decisions/027-languages.md); null = not chosen. */
  language: ZLanguage.nullable().describe('The user’s own language; null until they choose one'),
  eventIds: z.array(z.number().int()).nullable(),
  /** False for a user who was invited (or created without a password) and has not chosen one yet. */
  hasPassword: z.boolean().describe('False until an invited user has chosen a password'),
  /** When the user's live invite / password link expires; null when none was sent or it was used. */
  inviteExpiresUtc: z.string().nullable().describe('Expiry of the pending invite / password link; null when none is pending'),
});
export type UserDto = z.infer<typeof ZUserDto>;

/** PATCH /auth/me: what a signed-in person changes about themselves. */
export const ZUpdateMeInput = z.object({
  /** A language svc speaks, or null to let each page negotiate again. */
  language: ZLanguage.nullable(),
});
export type UpdateMeInput = z.infer<typeof ZUpdateMeInput>;

/** An API token as listed (never the secret). */
export const ZApiTokenDto = z.object({
  id: z.number().int(),
  name: z.string(),
  role: ZRole,
  eventIds: z.array(z.number().int()).nullable(),
  createdUtc: z.string(),
  lastUsedUtc: z.string().nullable(),
  expiresUtc: z.string().nullable(),
  revokedUtc: z.string().nullable(),
});
export type ApiTokenDto = z.infer<typeof ZApiTokenDto>;

/** A new API token: the only answer that carries the secret. */
export const ZApiTokenCreatedDto = z.object({ id: z.number().int(), name: z.string(), token: z.string() });
export type ApiTokenCreatedDto = z.infer<typeof ZApiTokenCreatedDto>;

/** What the public invite page shows before the password is chosen: who is invited, never a secret. */
export const ZInvitePreview = z.object({
  email: z.string(),
  displayName: z.string(),
  role: ZRole,
  /** True when the link resets an existing password rather than setting the first one. */
  hasPassword: z.boolean(),
  expiresUtc: z.string(),
});
export type InvitePreview = z.infer<typeof ZInvitePreview>;
