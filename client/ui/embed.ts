/**
 * A visitor page in its embedded form (`?embed=1`, docs/decisions/052-embeds.md): shown inside an
 * iframe that /embed.js put on another website. The page drops the site header, takes the accent
 * colour it was given, and posts its height to the host page whenever its content changes size.
 */
import { EMBED_ACCENT_PARAM, EMBED_HEIGHT_MESSAGE, EMBED_HOST_PARAM, EMBED_PARAM, embedAccent, normalizeOrigin } from '../../shared/embeds';

const initial = new URLSearchParams(window.location.search);

/** Whether this document was opened as an embed; kept for its whole life (client-side navigation keeps the parameters too). */
export const embedded = initial.get(EMBED_PARAM) === '1';

/**
 * A browser that blocks third-party storage (Chromium's default with third-party cookies blocked)
 * throws on reading localStorage in a frame on another site, and refuses IndexedDB. The embed then
 * keeps drafts, copies and its outbox in memory for the frame's life (docs/decisions/052-embeds.md).
 * Runs when this module is evaluated: main.tsx imports it before any module that reads storage.
 */
class MemoryStorage implements Storage {
  readonly #items = new Map<string, string>();
  get length(): number {
    return this.#items.size;
  }
  clear(): void {
    this.#items.clear();
  }
  getItem(key: string): string | null {
    return this.#items.get(String(key)) ?? null;
  }
  key(index: number): string | null {
    return [...this.#items.keys()][index] ?? null;
  }
  removeItem(key: string): void {
    this.#items.delete(String(key));
  }
  setItem(key: string, value: string): void {
    this.#items.set(String(key), String(value));
  }
}

if (embedded) {
  for (const name of ['localStorage', 'sessionStorage'] as const) {
    try {
      void window[name];
    } catch {
      Object.defineProperty(window, name, { value: new MemoryStorage(), configurable: true });
    }
  }
}

/** Whether IndexedDB opens here (a probe database, deleted again). */
function indexedDbOpens(): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      const request = indexedDB.open('svc-embed-probe');
      request.onsuccess = () => {
        request.result.close();
        indexedDB.deleteDatabase('svc-embed-probe');
        resolve(true);
      };
      request.onerror = () => resolve(false);
    } catch {
      resolve(false);
    }
  });
}

/** In an embed whose IndexedDB the browser refuses, an in-memory one stands in (loaded only then). */
export async function provideEmbedDatabase(): Promise<void> {
  if (!embedded || (await indexedDbOpens())) return;
  const [{ default: Dexie }, memory] = await Promise.all([import('dexie'), import('fake-indexeddb')]);
  Object.defineProperty(window, 'indexedDB', { value: memory.indexedDB, configurable: true });
  Object.defineProperty(window, 'IDBKeyRange', { value: memory.IDBKeyRange, configurable: true });
  Dexie.dependencies.indexedDB = memory.indexedDB;
  Dexie.dependencies.IDBKeyRange = memory.IDBKeyRange;
}

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
