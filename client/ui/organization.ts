/**
 * The organization's identity on every page (docs/decisions/050-organization-identity.md): read
 * from the data block the server writes into the shell, so the header paints with it and no
 * request is made for it. Offline the service worker answers with the build's shell, which has
 * no identity: the copy kept from the last online visit is used then, and its accent applied.
 */
import { createSignal } from 'solid-js';
import { ACCENT_COLOR_RE, EMPTY_ORGANIZATION, ORGANIZATION_SHELL_ID, type Organization } from '../../shared/organization';

const KEPT_KEY = 'svc-organization';
/** The staff areas keep the theme's accent (server/organization-shell.ts). */
const STAFF_PAGE = /^\/(door|admin|login)(\/|$)|^\/invite\//;

function fromShell(): Organization | null {
  const block = document.getElementById(ORGANIZATION_SHELL_ID);
  if (!block?.textContent) return null;
  try {
    return { ...EMPTY_ORGANIZATION, ...(JSON.parse(block.textContent) as Partial<Organization>) };
  } catch {
    return null;
  }
}

function kept(): Organization | null {
  try {
    const text = localStorage.getItem(KEPT_KEY);
    return text ? { ...EMPTY_ORGANIZATION, ...(JSON.parse(text) as Partial<Organization>) } : null;
  } catch {
    return null;
  }
}

function keep(organization: Organization): void {
  try {
    localStorage.setItem(KEPT_KEY, JSON.stringify(organization));
  } catch {
    // storage full or refused: the next offline visit shows svc's own name
  }
}

/** The accent of a shell that had none written (offline): the light theme's, as the server's style does. */
function applyKeptAccent(accent: string | null): void {
  if (!accent || STAFF_PAGE.test(window.location.pathname) || !ACCENT_COLOR_RE.test(accent) || document.getElementById('svc-accent')) return;
  const style = document.createElement('style');
  style.id = 'svc-accent';
  const vars = `--brand:${accent};--link:${accent};--focus:${accent};--brand-text:#ffffff`;
  style.textContent = `@media not all and (prefers-color-scheme: dark){:root:not([data-theme='dark']){${vars}}}:root[data-theme='light']{${vars}}`;
  document.head.append(style);
}

function initial(): Organization {
  const shell = fromShell();
  if (shell) {
    keep(shell);
    return shell;
  }
  const copy = kept() ?? EMPTY_ORGANIZATION;
  applyKeptAccent(copy.accentColor);
  return copy;
}

const [organization, setOrganizationSignal] = createSignal<Organization>(initial());

export { organization };

/** After Settings saved a new identity: this tab shows it at once, and offline visits keep it. */
export function setOrganization(next: Organization): void {
  keep(next);
  setOrganizationSignal(next);
}
