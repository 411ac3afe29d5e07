import { describe, expect, it } from 'vitest';
import { batchLoad, withRowBatch } from '../../server/hooks/row-batch';

describe('batchLoad (per-page prefetch for per-row filters)', () => {
  it('loads once for the whole page inside withRowBatch', async () => {
    const calls: number[][] = [];
    const load = async (ids: readonly number[]) => {
      calls.push([...ids]);
      return new Map(ids.map((id) => [id, id * 10]));
    };
    const values = await withRowBatch([1, 2, 3], async () => {
      const out: number[] = [];
      for (const id of [1, 2, 3]) out.push((await batchLoad('k', id, load)).get(id)!);
      return out;
    });
    expect(values).toEqual([10, 20, 30]);
    expect(calls).toEqual([[1, 2, 3]]);
  });

  it('loads just the row outside a batch, or for a row the batch does not hold', async () => {
    const calls: number[][] = [];
    const load = async (ids: readonly number[]) => void calls.push([...ids]);
    await batchLoad('k', 7, load);
    await withRowBatch([1, 2], () => batchLoad('k', 9, load));
    expect(calls).toEqual([[7], [9]]);
  });

  it('keeps concurrent pages apart', async () => {
    const calls: number[][] = [];
    const load = async (ids: readonly number[]) => void calls.push([...ids]);
    await Promise.all([withRowBatch([1, 2], () => batchLoad('k', 1, load)), withRowBatch([3, 4], () => batchLoad('k', 4, load))]);
    expect(calls.sort()).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });
});
