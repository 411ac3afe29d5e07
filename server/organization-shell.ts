/**
 * The organization's identity written into the page shell (docs/decisions/050-organization-identity.md),
 * so the first paint already carries it without a request more: the `<title>`, the light
 * theme-color, a data block the client reads before its first render (the header's name, the
 * footer's links), and on visitor pages the accent as the light theme's `--brand` and `--link`.
 * Everything is escaped for where it lands: a name with `</script>` stays text.
 */
import type { Context } from 'hono';
import type { AppContext } from './context';
import { escapeHtml, scriptSafeJson } from '../shared/html';
import { ACCENT_COLOR_RE, EMPTY_ORGANIZATION, ORGANIZATION_SHELL_ID, type Organization } from '../shared/organization';
import { readOrganization } from './modules/settings/organization.service';

/** The staff areas keep the theme's own accent (client/app.tsx isStaffPath). */
const STAFF_PATH = /^\/(door|admin|login)(\/|$)|^\/invite\//;

export function isStaffShellPath(urlPath: string): boolean {
  return STAFF_PATH.test(urlPath);
}

/** The accent as the light theme's accent; `data-theme="dark"` and the dark scheme keep their own. */
export function accentStyle(accent: string): string {
  if (!ACCENT_COLOR_RE.test(accent)) return '';
  const vars = `--brand:${accent};--link:${accent};--focus:${accent};--brand-text:#ffffff`;
  return `<style id="svc-accent">@media not all and (prefers-color-scheme: dark){:root:not([data-theme='dark']){${vars}}}:root[data-theme='light']{${vars}}</style>`;
}

/** The shell's head with the identity: what the client reads, and the first paint shows. */
export function brandShell(html: string, organization: Organization, staffPage: boolean): string {
  const name = organization.name.trim();
  let out = html;
  if (name) out = out.replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(name)}</title>`);
  const accent = organization.accentColor && !staffPage ? organization.accentColor : null;
  if (accent) out = out.replace(/(<meta name="theme-color" content=")[^"]*(" media="\(prefers-color-scheme: light\)")/, `$1${accent}$2`);
  const block = `<script type="application/json" id="${ORGANIZATION_SHELL_ID}">${scriptSafeJson(organization)}</script>${accent ? accentStyle(accent) : ''}`;
  return out.replace('</head>', `${block}</head>`);
}

/** Reads the identity for a shell; a database that does not answer gives the unbranded shell, never an error page. */
export function shellOrganization(ctx: Pick<AppContext, 'db' | 'logger'>) {
  return async (_c: Context): Promise<Organization> => {
    try {
      return await readOrganization(ctx.db);
    } catch (err) {
      ctx.logger.warn({ err }, 'organization not read; the shell is served without it');
      return EMPTY_ORGANIZATION;
    }
  };
}
