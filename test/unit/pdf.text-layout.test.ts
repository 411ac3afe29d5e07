/**
 * The PDF ticket's lines (server/pdf/text-layout.ts): the bidirectional algorithm's page order,
 * pieces the shaper can take (one face, one level, no space), mirrored brackets, wrapping.
 * Every character measures 1 here, so widths are character counts.
 */
import { describe, expect, it } from 'vitest';
import { faceOf, layoutParagraph, type LaidLine } from '../../server/pdf/text-layout';

const measure = (text: string) => Array.from(text).length;
const texts = (lines: LaidLine[]) => lines.map((line) => line.pieces.map((p) => p.text));

describe('PDF text layout', () => {
  it('keeps a left-to-right line in its order, word and space pieces', () => {
    expect(texts(layoutParagraph('Ada Lovelace', 'ltr', 100, measure))).toEqual([['Ada', ' ', 'Lovelace']]);
  });

  it('puts the words of a right-to-left line in page order, right to left, each Arabic word as written (the shaper lays it out)', () => {
    const [line] = layoutParagraph('نادي الفنون', 'rtl', 100, measure);
    expect(line!.pieces.map((p) => [p.text, p.face])).toEqual([
      ['الفنون', 'arabic'],
      [' ', 'latin'],
      ['نادي', 'arabic'],
    ]);
  });

  it('keeps a Latin name left to right inside an Arabic line, at the line’s left end', () => {
    expect(texts(layoutParagraph('الاسم: Ada Lovelace', 'rtl', 100, measure))).toEqual([['Ada', ' ', 'Lovelace', ' ', ':', 'الاسم']]);
  });

  it('mirrors brackets in a right-to-left run, and not in a left-to-right one', () => {
    expect(texts(layoutParagraph('غرينتش (لندن)', 'rtl', 100, measure))).toEqual([['(', 'لندن', ')', ' ', 'غرينتش']]);
    expect(texts(layoutParagraph('GMT (London)', 'rtl', 100, measure))).toEqual([['GMT', ' ', '(London)']]);
  });

  it('hands Arabic-Indic digits over reversed, since the shaper reverses anything in the Arabic script', () => {
    expect(texts(layoutParagraph('سنة ٢٠٢٦', 'rtl', 100, measure))).toEqual([['٦٢٠٢', ' ', 'سنة']]);
  });

  it('wraps at spaces, and cuts a word longer than the line', () => {
    expect(texts(layoutParagraph('one two three', 'ltr', 8, measure))).toEqual([['one', ' ', 'two'], ['three']]);
    expect(texts(layoutParagraph('https://x.test/cancel/abcdef', 'ltr', 10, measure))).toEqual([['https://x.'], ['test/cance'], ['l/abcdef']]);
    expect(layoutParagraph('   ', 'ltr', 10, measure)).toEqual([]);
  });

  it('sets Arabic script (its comma and digits too) in the Arabic face and the rest in Noto Sans', () => {
    expect(['ب', '،', '٣', 'a', 'é', 'Ж', '1'].map(faceOf)).toEqual(['arabic', 'arabic', 'arabic', 'latin', 'latin', 'latin', 'latin']);
  });
});
