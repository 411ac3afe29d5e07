/**
 * client/offline/kick.ts: a kick during a run asks for exactly one more round after it, and
 * every kick's promise settles when no round is left.
 */
import { describe, expect, it } from 'vitest';
import { createKick } from '../../client/offline/kick';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('createKick', () => {
  it('runs at once, and kicks during a run make one more round', async () => {
    const gates: Array<() => void> = [];
    let runs = 0;
    const kick = createKick(() => {
      runs++;
      const gate = deferred();
      gates.push(gate.resolve);
      return gate.promise;
    });
    const first = kick();
    expect(runs).toBe(1);
    const second = kick();
    const third = kick();
    expect(second).toBe(first);
    expect(third).toBe(first);
    gates[0]!();
    await new Promise((r) => setTimeout(r, 0));
    expect(runs).toBe(2);
    gates[1]!();
    await first;
    expect(runs).toBe(2);

    const later = kick();
    expect(later).not.toBe(first);
    expect(runs).toBe(3);
    gates[2]!();
    await later;
  });

  it('a failed run rejects the kick and the next kick starts afresh', async () => {
    let fail = true;
    let runs = 0;
    const kick = createKick(async () => {
      runs++;
      if (fail) throw new Error('boom');
    });
    await expect(kick()).rejects.toThrow('boom');
    fail = false;
    await kick();
    expect(runs).toBe(2);
  });
});
