/**
 * Meeting links (docs/decisions/044-meeting-links.md): a `virtual` booking type may carry a
 * pattern such as `https://meet.jit.si/{org}-{token}`; each booking gets its own link from it,
 * stored with the booking when it is made. Pure, so the admin form checks what the server checks.
 */

/** The placeholders a pattern may use: the organization's slug, a random per-booking id, the booking id. */
export const MEETING_PLACEHOLDERS = ['org', 'token', 'id'] as const;
export type MeetingPlaceholder = (typeof MEETING_PLACEHOLDERS)[number];
export const MEETING_PATTERN_MAX = 500;

const PLACEHOLDER_RE = /\{([^{}]*)\}/g;

/** Why a pattern cannot be used, or null when it can ('' = no pattern). */
export function meetingPatternProblem(pattern: string): string | null {
  if (pattern === '') return null;
  if (pattern.length > MEETING_PATTERN_MAX) return `must be at most ${MEETING_PATTERN_MAX} characters`;
  for (const [, name] of pattern.matchAll(PLACEHOLDER_RE)) {
    if (!(MEETING_PLACEHOLDERS as readonly string[]).includes(name!)) return `unknown placeholder {${name}}; known: {org}, {token}, {id}`;
  }
  const sample = expandMeetingPattern(pattern, { org: 'svc', token: 'abcdefghijklmnop', id: 1 });
  if (/[{}\s]/.test(sample)) return 'must be an https URL without spaces or stray braces';
  let url: URL;
  try {
    url = new URL(sample);
  } catch {
    return 'must be an https URL';
  }
  if (url.protocol !== 'https:' || url.hostname === '' || url.username !== '' || url.password !== '') return 'must be an https URL';
  return null;
}

/** The pattern with its placeholders filled in (values are URL-safe: a slug, base64url, digits). */
export function expandMeetingPattern(pattern: string, values: { org: string; token: string; id: number }): string {
  return pattern.replace(PLACEHOLDER_RE, (whole, name: string) => {
    if (name === 'org') return values.org;
    if (name === 'token') return values.token;
    if (name === 'id') return String(values.id);
    return whole;
  });
}

/** `{org}`: the organization's name as a lowercase slug, 'svc' when it has none. */
export function organizationSlug(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return slug || 'svc';
}

/** A host's own meeting link: https only, no credentials in it. */
export function meetingUrlProblem(value: string): string | null {
  if (value === '') return null;
  if (value.length > MEETING_PATTERN_MAX) return `must be at most ${MEETING_PATTERN_MAX} characters`;
  try {
    const url = new URL(value);
    if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || /\s/.test(value)) return 'must be an https URL';
  } catch {
    return 'must be an https URL';
  }
  return null;
}
