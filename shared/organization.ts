/**
 * The organization's identity (docs/decisions/050-organization-identity.md): its name, accent
 * colour, contact address, privacy and imprint links and the mail sender's name. Shared by the
 * server (validation, shell, mails, tickets) and the PWA (the Settings form's live verdict, the
 * public header and footer). Free of zod: the public pages import it (the schemas are in
 * organization-schemas.ts).
 */
import type { ImageDto } from './images';

/** What pages, mails and tickets show where the organization has no name. */
export const PRODUCT_NAME = 'svc';

/** The seller's name on receipts is the same setting (shared/booking SELLER_NAME_MAX). */
export const ORGANIZATION_NAME_MAX = 200;
export const ORGANIZATION_URL_MAX = 2000;
export const MAIL_SENDER_NAME_MAX = 100;

/** WCAG AA for normal text. */
export const MIN_ACCENT_CONTRAST = 4.5;

/**
 * The light theme's backgrounds public pages put the accent on, or put text in the accent on
 * (client/styles.css `--bg`, `--surface`, `--banner-bg`), and the button text on the accent
 * (`--brand-text`, white). The accent overrides the light theme only: a colour readable on white
 * is never readable on the dark theme's near-black, which keeps its own accent.
 */
export const ACCENT_BACKGROUNDS = ['#ffffff', '#f3f5f8', '#e7f0fb'] as const;

export const ACCENT_COLOR_RE = /^#[0-9a-fA-F]{6}$/;

function channel(hex: string, at: number): number {
  const c = parseInt(hex.slice(at, at + 2), 16) / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/** WCAG relative luminance of `#rrggbb`. */
export function relativeLuminance(hex: string): number {
  return 0.2126 * channel(hex, 1) + 0.7152 * channel(hex, 3) + 0.0722 * channel(hex, 5);
}

/** WCAG contrast ratio of two `#rrggbb` colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The accent's lowest contrast against the backgrounds it meets, rounded down to 2 decimals, and whether that passes AA. */
export function accentVerdict(hex: string): { ratio: number; passes: boolean } {
  const lowest = Math.min(...ACCENT_BACKGROUNDS.map((bg) => contrastRatio(hex, bg)));
  return { ratio: Math.floor(lowest * 100) / 100, passes: lowest >= MIN_ACCENT_CONTRAST };
}

/** The identity as stored ('' / null where not set). One object, so the logo is one more field. */
export interface Organization {
  name: string;
  accentColor: string | null;
  contactEmail: string;
  privacyUrl: string;
  imprintUrl: string;
  mailSenderName: string;
  /** The logo (PUT /settings/organization/logo), as pages show an image; null when none. */
  logo: ImageDto | null;
}

export const EMPTY_ORGANIZATION: Organization = {
  name: '',
  accentColor: null,
  contactEmail: '',
  privacyUrl: '',
  imprintUrl: '',
  mailSenderName: '',
  logo: null,
};

/** The name pages, mails and tickets show: the organization's, or svc's where it has none. */
export function displayName(org: Pick<Organization, 'name'> | null | undefined): string {
  return org?.name.trim() || PRODUCT_NAME;
}

/** The id of the data block the server writes into the page shell (server/static.ts). */
export const ORGANIZATION_SHELL_ID = 'svc-organization';
