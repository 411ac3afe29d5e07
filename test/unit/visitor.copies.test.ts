/** The visitor pages' stored copies in localStorage: kept, read back, dropped, and room made when the storage is full. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyState, markGone, storeCopy, storedCopy } from '../../client/visitor/copies';

/** A Storage like a browser's, refusing a write past `quota` characters (keys and values counted). */
class QuotaStorage implements Storage {
  private items = new Map<string, string>();
  constructor(private readonly quota: number) {}
  get length(): number {
    return this.items.size;
  }
  key(index: number): string | null {
    return [...this.items.keys()][index] ?? null;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    const used = [...this.items].reduce((n, [k, v]) => n + (k === key ? 0 : k.length + v.length), 0);
    if (used + key.length + value.length > this.quota) throw new DOMException('full', 'QuotaExceededError');
    this.items.set(key, value);
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  clear(): void {
    this.items.clear();
  }
}

let store: QuotaStorage;
beforeEach(() => {
  store = new QuotaStorage(2000);
  Object.defineProperty(globalThis, 'localStorage', { value: store, configurable: true });
});
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'localStorage');
});

describe('stored copies', () => {
  it('a kept copy reads back with the time it was fetched; once the server says it is gone it reads as gone, and the next answer replaces the mark', () => {
    expect(storeCopy('event:1', { id: 1, title: 'Open evening' }, 1000)).toBe(true);
    expect(storedCopy('event:1')).toEqual({ value: { id: 1, title: 'Open evening' }, fetchedAt: 1000 });
    markGone('event:1');
    expect(copyState('event:1')).toBeNull();
    expect(storedCopy('event:1')).toBeUndefined();
    expect(copyState('event:2'), 'nothing known').toBeUndefined();
    expect(storeCopy('event:1', { id: 1, title: 'Open evening, again' }, 3000)).toBe(true);
    expect(storedCopy('event:1')?.fetchedAt).toBe(3000);
  });

  it('an unreadable copy reads as none', () => {
    store.setItem('svc-visitor-copy:events', '{not json');
    expect(storedCopy('events')).toBeUndefined();
  });

  it('when the storage is full the oldest copies make room, and the newest ones stay', () => {
    const page = 'x'.repeat(300);
    for (let at = 1; at <= 5; at += 1) expect(storeCopy(`event:${at}`, page, at)).toBe(true);
    expect(storeCopy('event:6', page, 6)).toBe(true);
    expect(storedCopy('event:6')?.fetchedAt).toBe(6);
    expect(storedCopy('event:5')?.fetchedAt).toBe(5);
    expect(storedCopy('event:1')).toBeUndefined();
  });

  it('a copy too large even for an empty storage is refused, and no older copy of it is left to hide a newer one elsewhere', () => {
    expect(storeCopy('slots', 'small', 1)).toBe(true);
    expect(storeCopy('slots', 'x'.repeat(5000), 2)).toBe(false);
    expect(storedCopy('slots')).toBeUndefined();
  });

  it('without localStorage (a unit test in Node, storage disabled) nothing is kept and nothing throws', () => {
    Reflect.deleteProperty(globalThis, 'localStorage');
    expect(storeCopy('events', [], 1)).toBe(false);
    expect(storedCopy('events')).toBeUndefined();
    expect(() => markGone('events')).not.toThrow();
  });
});
