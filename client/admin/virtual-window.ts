/**
 * Windowed rendering for the admin tables (UX: "fast at 50,000 rows"): which rows are on
 * screen, how tall the spacers around them are, and which server pages hold them. Pure
 * arithmetic so it is tested without a DOM.
 */

export interface WindowInput {
  /** Pixels scrolled inside the table's scroll box. */
  scrollTop: number;
  /** Height of the visible part of the scroll box. */
  viewportHeight: number;
  /** Every row has this height (the table sets it in CSS). */
  rowHeight: number;
  total: number;
  /** Extra rows rendered above and below, so a fast scroll does not show blank space. */
  overscan?: number;
}

export interface RowWindow {
  /** First row index rendered (inclusive). */
  first: number;
  /** Row index after the last one rendered (exclusive); `first === end` when there is nothing. */
  end: number;
  /** Height of the spacer above the rendered rows. */
  padTop: number;
  /** Height of the spacer below them. */
  padBottom: number;
}

export function visibleWindow(input: WindowInput): RowWindow {
  const { rowHeight, total } = input;
  const overscan = input.overscan ?? 8;
  if (total <= 0 || rowHeight <= 0) return { first: 0, end: 0, padTop: 0, padBottom: 0 };
  const scrollTop = Math.max(0, input.scrollTop);
  const viewport = Math.max(0, input.viewportHeight);
  const firstVisible = Math.min(total - 1, Math.floor(scrollTop / rowHeight));
  const lastVisible = Math.min(total - 1, Math.floor((scrollTop + viewport) / rowHeight));
  const first = Math.max(0, firstVisible - overscan);
  const end = Math.min(total, lastVisible + 1 + overscan);
  return { first, end, padTop: first * rowHeight, padBottom: (total - end) * rowHeight };
}

/** The 1-based pages of `pageSize` rows that hold rows `first`…`end - 1`. */
export function pagesForRange(first: number, end: number, pageSize: number): number[] {
  if (end <= first || pageSize <= 0) return [];
  const pages: number[] = [];
  for (let page = Math.floor(first / pageSize) + 1; page <= Math.floor((end - 1) / pageSize) + 1; page++) pages.push(page);
  return pages;
}

/** Row index → [page, index inside the page]. */
export function pageOfRow(index: number, pageSize: number): [page: number, offset: number] {
  return [Math.floor(index / pageSize) + 1, index % pageSize];
}

/**
 * The scrollTop that brings row `index` fully into view, or null when it already is
 * (keyboard navigation moves through rows one at a time).
 */
export function scrollToReveal(index: number, rowHeight: number, scrollTop: number, viewportHeight: number, headerHeight = 0): number | null {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  const visibleTop = scrollTop;
  const visibleBottom = scrollTop + viewportHeight - headerHeight;
  if (top < visibleTop) return top;
  if (bottom > visibleBottom) return bottom - (viewportHeight - headerHeight);
  return null;
}
