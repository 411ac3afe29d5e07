/**
 * The one layout every mail's HTML part goes through (docs/decisions/026-mail-html-layout.md): a
 * template writes its text once, and the HTML part is that text, escaped, in paragraphs, wrapped
 * in one shell. Templates that compose their own HTML body get the same shell. Nothing a visitor
 * typed (a name, a title) can add markup: every character of the text is escaped.
 */
import { escapeHtml } from '../../shared/html';
import { DEFAULT_LOCALE, localeDirection, type Locale } from '../../shared/i18n/locales';
import { displayName, type Organization } from '../../shared/organization';
import { translate } from '../i18n/translate';

/**
 * Where the organization's header and footer go: filled when the mail is sent, so a mail says
 * the identity of the day it leaves, and a row queued before a rename is not stale
 * (docs/decisions/050-organization-identity.md).
 */
export const MAIL_HEADER_SLOT = '<!--svc:organization-header-->';
export const MAIL_FOOTER_SLOT = '<!--svc:organization-footer-->';

/** A link in the text: http(s) up to whitespace; trailing punctuation stays text. */
const URL_RUN = /https?:\/\/[^\s<>"]+/g;
const TRAILING_PUNCTUATION = /[.,;:!?)\]]+$/;

/**
 * A line of the text the template itself made around a link it built (a calendar composer's, on
 * another site): in the HTML part the whole line is that link, named by `label`.
 */
export interface MailLink {
  /** The text part's line, exactly (e.g. `Google Calendar: https://…`). */
  line: string;
  /** The link's words in the HTML part (e.g. `Add to Google Calendar`). */
  label: string;
  url: string;
}

/**
 * The HTML body of a plain-text mail: blank lines separate paragraphs, line breaks stay. Only
 * links to `linkOrigin` (the site's own pages, e.g. a manage link) become clickable; any other
 * URL (one a visitor typed into a name or title) stays text, so a mail cannot carry a planted link.
 * A line equal to one of `links` (built by the template, never typed by a visitor: the URL holds
 * the title it came from, so no title can spell it) becomes that named link.
 */
export function textToHtml(text: string, linkOrigin?: string, links: readonly MailLink[] = []): string {
  const origin = linkOrigin ? originOf(linkOrigin) : null;
  const named = new Map(links.map((link) => [link.line, link]));
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n{2,}/)
    .filter((paragraph) => paragraph.trim() !== '')
    .map(
      (paragraph) =>
        `<p>${paragraph
          .split('\n')
          .map((line) => {
            const link = named.get(line);
            return link ? namedLinkHtml(link) : inlineHtml(line, origin);
          })
          .join('<br>\n')}</p>`,
    )
    .join('\n');
}

/**
 * Every mail's HTML part: the body in one minimal, self-contained document, which says its
 * language and direction (a mail client then lays Arabic out right to left).
 */
export function mailHtml(bodyHtml: string, locale: Locale = DEFAULT_LOCALE): string {
  return [
    '<!doctype html>',
    `<html lang="${locale}" dir="${localeDirection(locale)}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"></head>',
    '<body style="font-family: -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif; font-size: 15px; line-height: 1.5; color: #1a1a1a;">',
    '<div style="max-width: 560px; margin: 0 auto; padding: 16px;">',
    MAIL_HEADER_SLOT,
    bodyHtml,
    MAIL_FOOTER_SLOT,
    '</div>',
    '</body></html>',
  ].join('\n');
}

/** The logo heads a mail this high, in CSS pixels, or lower where it would be wider than MAIL_LOGO_MAX_WIDTH. */
export const MAIL_LOGO_HEIGHT = 48;
export const MAIL_LOGO_MAX_WIDTH = 200;

/** The logo in a mail's header: the image the mail carries (`cid:…`) and the size it is shown at. */
export interface MailLogo {
  src: string;
  width: number;
  height: number;
}

/** The size a logo of `width` × `height` pixels is shown at in a mail's header, its aspect kept. */
export function mailLogoSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(MAIL_LOGO_HEIGHT / height, MAIL_LOGO_MAX_WIDTH / width);
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

/**
 * A stored mail's HTML with the organization's header (its logo with its name as the alternative
 * text where it has one, else its name, "svc" where it has none, in its accent) and footer
 * (contact address, privacy and imprint links, in the mail's language). Every value is escaped;
 * the links are the ones Settings accepted (http or https only). The logo's width and height are
 * written out, so the mail does not jump when a client shows the image late.
 */
export function brandMailHtml(html: string, organization: Organization, locale: Locale, logo: MailLogo | null = null): string {
  // CSS, not words: the colour as a style declaration
  const accent = organization.accentColor ? [' color', `${organization.accentColor};`].join(': ') : '';
  const name = escapeHtml(displayName(organization));
  // a client that holds images back shows the alternative text in the style the name has
  const logoStyle = logo && ['display:block', `width:${logo.width}px`, `height:${logo.height}px`, 'border:0'].join(';');
  const mark = logo ? `<img src="${escapeHtml(logo.src)}" alt="${name}" width="${logo.width}" height="${logo.height}" style="${logoStyle}">` : name;
  const header = `<p style="margin: 0 0 16px; font-size: 18px; font-weight: bold;${accent}">${mark}</p>`;
  const parts: string[] = [];
  if (organization.name.trim()) parts.push(escapeHtml(organization.name.trim()));
  if (organization.contactEmail) {
    const email = escapeHtml(organization.contactEmail);
    parts.push(escapeHtml(translate(locale, 'mail.footer.contact', { email: '\u0000' })).replace('\u0000', `<a href="mailto:${email}">${email}</a>`));
  }
  if (isWebUrl(organization.privacyUrl))
    parts.push(`<a href="${escapeHtml(organization.privacyUrl)}">${escapeHtml(translate(locale, 'mail.footer.privacy'))}</a>`);
  if (isWebUrl(organization.imprintUrl))
    parts.push(`<a href="${escapeHtml(organization.imprintUrl)}">${escapeHtml(translate(locale, 'mail.footer.imprint'))}</a>`);
  const footer = parts.length
    ? `<hr style="margin: 24px 0 8px; border: 0; border-top: 1px solid #d3d9e1;">\n<p style="font-size: 13px; color: #4b5563;">${parts.join(' · ')}</p>`
    : '';
  return html.replace(MAIL_HEADER_SLOT, header).replace(MAIL_FOOTER_SLOT, footer);
}

function isWebUrl(url: string): boolean {
  return /^https?:\/\//i.test(url) && originOf(url) !== null;
}

function namedLinkHtml(link: MailLink): string {
  if (new URL(link.url).protocol !== 'https:') throw new TypeError(`textToHtml: a named link must be https, got "${link.url}".`);
  return `<a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a>`;
}

function inlineHtml(line: string, origin: string | null): string {
  let html = '';
  let last = 0;
  for (const match of line.matchAll(URL_RUN)) {
    const url = match[0].replace(TRAILING_PUNCTUATION, '');
    if (origin === null || originOf(url) !== origin) continue;
    html += escapeHtml(line.slice(last, match.index));
    html += `<a href="${escapeHtml(url)}">${escapeHtml(url)}</a>`;
    last = match.index + url.length;
  }
  return html + escapeHtml(line.slice(last));
}

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
