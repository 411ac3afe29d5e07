/**
 * A visitor page in its embedded form (`?embed=1`, docs/decisions/052-embeds.md): shown inside an
 * iframe that /embed.js put on another website. The page drops the site header, takes the accent
 * colour it was given, and posts its height to the host page whenever its content changes size.
 */
import { EMBED_ACCENT_PARAM, EMBED_HEIGHT_MESSAGE, EMBED_HOST_PARAM, EMBED_PARAM, embedAccent, normalizeOrigin } from '../../shared/embeds';

const initial = new URLSearchParams(window.location.search);

/** Whether this document was opened as an embed; kept for its whole life (client-side navigation keeps the parameters too). */
export const embedded = initial.get(EMBED_PARAM) === '1';

/** The embed's parameters, carried onto every page the visitor moves to inside the frame. */
export function keepEmbedParams(url: URL): void {
  if (!embedded) return;
  for (const name of [EMBED_PARAM, EMBED_HOST_PARAM, EMBED_ACCENT_PARAM]) {
    const value = initial.get(name);
    if (value !== null && !url.searchParams.has(name)) url.searchParams.set(name, value);
  }
}

/** Themes the page and starts posting its height to the host page (only to the origin embed.js named). */
export function startEmbed(): void {
  if (!embedded) return;
  const root = document.documentElement;
  root.classList.add('embedded');
  const accent = embedAccent(initial.get(EMBED_ACCENT_PARAM));
  if (accent) for (const name of ['--brand', '--link', '--focus']) root.style.setProperty(name, accent);
  const host = normalizeOrigin(initial.get(EMBED_HOST_PARAM) ?? '');
  if (!host || window.parent === window) return;
  let posted = -1;
  const post = () => {
    const height = Math.ceil(root.getBoundingClientRect().height);
    if (height === posted) return;
    posted = height;
    window.parent.postMessage({ type: EMBED_HEIGHT_MESSAGE, height }, host);
  };
  const observer = new ResizeObserver(post);
  observer.observe(root);
  observer.observe(document.body);
  post();
}
