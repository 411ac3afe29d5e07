/** The organization identity's schemas (docs/api.md#organization), for the server and the admin. */
import { z } from './validation';
import { ZImageDto } from './images';
import { ACCENT_COLOR_RE, MAIL_SENDER_NAME_MAX, ORGANIZATION_NAME_MAX, ORGANIZATION_URL_MAX, type Organization } from './organization';

const ZWebUrl = z
  .string()
  .trim()
  .max(ORGANIZATION_URL_MAX)
  .refine((value) => value === '' || (/^https?:\/\/[^\s]+$/i.test(value) && URL.canParse(value)), { message: 'must be an http:// or https:// address' });

const ZOptionalEmail = z
  .string()
  .trim()
  .max(254)
  .refine((value) => value === '' || z.email().safeParse(value).success, { message: 'must be a valid email address' });

/**
 * PUT /settings/organization: the whole identity; a field left out is cleared ('' / null).
 * The contrast of the accent is a rule of the service (AppError naming `accentColor`).
 */
export const ZOrganizationInput = z.object({
  /** The organization's name; the same setting as the seller's name on receipts. */
  name: z.string().trim().max(ORGANIZATION_NAME_MAX).default(''),
  /** `#rrggbb`, or null for the theme's own accent. */
  accentColor: z
    .string()
    .trim()
    .regex(ACCENT_COLOR_RE, 'must be a colour written #rrggbb')
    .transform((value) => value.toLowerCase())
    .nullable()
    .default(null),
  contactEmail: ZOptionalEmail.default(''),
  privacyUrl: ZWebUrl.default(''),
  imprintUrl: ZWebUrl.default(''),
  /** The display name of every mail's From; '' = the organization's name. */
  mailSenderName: z.string().trim().max(MAIL_SENDER_NAME_MAX).default(''),
});
export type OrganizationInput = z.input<typeof ZOrganizationInput>;

/** The identity as stored ('' / null where not set). One object, so the logo is one more field. */
export const ZOrganization = z.object({
  name: z.string(),
  accentColor: z.string().nullable(),
  contactEmail: z.string(),
  privacyUrl: z.string(),
  imprintUrl: z.string(),
  mailSenderName: z.string(),
  logo: ZImageDto.nullable(),
}) satisfies z.ZodType<Organization>;
