/** Form drafts in `svc-visitor`: what was typed survives a reload, a crash or a closed tab. */
import type { DraftValues, VisitorDb } from './db';

export async function saveDraft(db: VisitorDb, key: string, values: DraftValues, now = Date.now()): Promise<void> {
  await db.drafts.put({ key, values, savedAt: now });
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
 */
export function draftSaver(db: VisitorDb, key: string, delayMs = 0) {
  let pending: DraftValues | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<void> = Promise.resolve();
  const write = () => {
    clearTimeout(timer);
    timer = undefined;
    const values = pending;
    pending = null;
    if (values) chain = chain.then(() => saveDraft(db, key, values)).catch(() => undefined);
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
