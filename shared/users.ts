/** User and API-token shapes shared by the server and the admin app (SPEC §4–5). */
export const ROLES = ['administrator', 'staff', 'host'] as const;
export type Role = (typeof ROLES)[number];

/** The public shape of a user (SPEC §4): never the password hash. */
export interface UserDto {
  id: number;
  email: string;
  displayName: string;
  role: Role;
  timezone: string;
  eventIds: number[] | null;
  /** False for a user who was invited (or created without a password) and has not chosen one yet. */
  hasPassword: boolean;
  /** When the user's live invite / password link expires; null when none was sent or it was used. */
  inviteExpiresUtc: string | null;
}

/** An API token as listed (never the secret). */
export interface ApiTokenDto {
  id: number;
  name: string;
  role: Role;
  eventIds: number[] | null;
  createdUtc: string;
  lastUsedUtc: string | null;
  expiresUtc: string | null;
  revokedUtc: string | null;
}
