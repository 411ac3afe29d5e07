import { describe, expect, it } from 'vitest';
import { pageOfRow, pagesForRange, scrollToReveal, visibleWindow } from '../../client/admin/virtual-window';

describe('visibleWindow', () => {
  it('renders only the rows in view plus the overscan, with spacers for the rest (50,000 rows)', () => {
    const w = visibleWindow({ scrollTop: 52 * 10_000, viewportHeight: 520, rowHeight: 52, total: 50_000, overscan: 5 });
    expect(w).toEqual({ first: 9_995, end: 10_016, padTop: 9_995 * 52, padBottom: (50_000 - 10_016) * 52 });
    expect(w.end - w.first).toBeLessThan(30);
    expect(w.padTop + (w.end - w.first) * 52 + w.padBottom).toBe(50_000 * 52);
  });

  it('clamps at the top and the bottom', () => {
    expect(visibleWindow({ scrollTop: -40, viewportHeight: 104, rowHeight: 52, total: 100, overscan: 2 })).toMatchObject({ first: 0, end: 5, padTop: 0 });
    const bottom = visibleWindow({ scrollTop: 99_999, viewportHeight: 104, rowHeight: 52, total: 100, overscan: 2 });
    expect(bottom.end).toBe(100);
    expect(bottom.padBottom).toBe(0);
    expect(bottom.first).toBe(97);
  });

  it('an empty list renders nothing', () => {
    expect(visibleWindow({ scrollTop: 0, viewportHeight: 500, rowHeight: 52, total: 0 })).toEqual({ first: 0, end: 0, padTop: 0, padBottom: 0 });
  });

  it('fewer rows than the viewport holds renders them all without spacers', () => {
    expect(visibleWindow({ scrollTop: 0, viewportHeight: 1000, rowHeight: 50, total: 3 })).toEqual({ first: 0, end: 3, padTop: 0, padBottom: 0 });
  });
});

describe('pagesForRange / pageOfRow', () => {
  it('names the 1-based pages holding a row range, including one that straddles a page edge', () => {
    expect(pagesForRange(0, 20, 250)).toEqual([1]);
    expect(pagesForRange(240, 260, 250)).toEqual([1, 2]);
    expect(pagesForRange(250, 251, 250)).toEqual([2]);
    expect(pagesForRange(10, 10, 250)).toEqual([]);
  });

  it('maps a row index to its page and offset', () => {
    expect(pageOfRow(0, 250)).toEqual([1, 0]);
    expect(pageOfRow(249, 250)).toEqual([1, 249]);
    expect(pageOfRow(250, 250)).toEqual([2, 0]);
    expect(pageOfRow(49_999, 500)).toEqual([100, 499]);
  });
});

describe('scrollToReveal', () => {
  it('scrolls up to a row above the view, down to one below it, and not at all for a visible row', () => {
    expect(scrollToReveal(2, 50, 500, 300)).toBe(100);
    expect(scrollToReveal(20, 50, 500, 300)).toBe(20 * 50 + 50 - 300);
    expect(scrollToReveal(12, 50, 500, 300)).toBeNull();
  });
});
