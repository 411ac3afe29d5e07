/** Form drafts in `svc-visitor`: what was typed survives a reload, a crash or a closed tab. */
import type { DraftValues, VisitorDb } from './db';
import { openVisitorDb } from './open-db';

/**
 * localStorage flag: a draft was saved on this device once. A form page looks for its draft
 * only then, so a visitor who never typed anything does not load the database for it.
 */
export const DRAFTS_FLAG = 'svc-visitor-drafts';

export async function saveDraft(db: VisitorDb, key: string, values: DraftValues, now = Date.now()): Promise<void> {
  if (typeof localStorage !== 'undefined') localStorage.setItem(DRAFTS_FLAG, '1');
  await db.drafts.put({ key, values, savedAt: now });
}

/** The page's draft, if this device ever saved one (DRAFTS_FLAG); never throws. */
export async function loadPageDraft(key: string): Promise<DraftValues | undefined> {
  if (typeof localStorage === 'undefined' || !localStorage.getItem(DRAFTS_FLAG)) return undefined;
  return openVisitorDb()
    .then((db) => loadDraft(db, key))
    .catch(() => undefined);
}

export async function loadDraft(db: VisitorDb, key: string): Promise<DraftValues | undefined> {
  return (await db.drafts.get(key))?.values;
}

export async function clearDraft(db: VisitorDb, key: string): Promise<void> {
  await db.drafts.delete(key);
}

/**
 * A saver that writes the latest values in order: at once by default (a reload right after
 * typing must find them), or at most every `delayMs`; `flush()` writes what is pending now.
 * `db` may be a function that opens the database (on the first write).
 */
export function draftSaver(db: VisitorDb | (() => Promise<VisitorDb>), key: string, delayMs = 0) {
  let pending: DraftValues | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    const values = pending;
    pending = null;
    if (values) chain = chain.then(async () => saveDraft(typeof db === 'function' ? await db() : db, key, values)).catch(() => undefined);
    return chain;
  };
  return {
    save(values: DraftValues): void {
      pending = values;
      if (delayMs <= 0) void write();
      else if (timer === undefined) timer = setTimeout(() => void write(), delayMs);
    },
    flush: write,
    cancel(): void {
      clearTimeout(timer);
      timer = undefined;
      pending = null;
    },
  };
}
