/**
 * Lines of mixed-direction text for a PDF page (docs/decisions/035-pdf-ticket.md): the Unicode
 * bidirectional algorithm (`bidi-js`) orders the characters of each line for the eye, and each
 * line is cut into pieces of one font and one direction that the shaper (pdfkit's fontkit) can
 * take. fontkit shapes Arabic (joining forms, lam-alef) and lays a run of a right-to-left script
 * out right to left, but it lays out one piece at a time and knows nothing of word or run order:
 * that is what this file adds.
 */
import bidiFactory from 'bidi-js';

const bidi = bidiFactory();

export type TextDirection = 'ltr' | 'rtl';

/** The two embedded faces: Noto Sans (Latin, Greek, Cyrillic) and Noto Naskh Arabic. */
export type FaceKey = 'latin' | 'arabic';

/** One piece of a line as the shaper gets it, left to right on the page. */
export interface LinePiece {
  /** The string to hand to the shaper; drawn at the piece's place it reads right for the eye. */
  text: string;
  face: FaceKey;
  width: number;
}

export interface LaidLine {
  pieces: LinePiece[];
  width: number;
}

/** What a piece of text measures in a face (points, at the size being laid out). */
export type Measure = (text: string, face: FaceKey) => number;

const ARABIC_FACE = /\p{Script_Extensions=Arabic}/u;
/** A script the shaper lays out right to left (fontkit's list, the ones svc can meet). */
const SHAPER_RTL_SCRIPT = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
/** The first character of a real script: fontkit picks a run's script (and so its direction) by it. */
const FIRST_SCRIPTED = /[^\p{Script=Common}\p{Script=Inherited}]/u;
const SPACE = /\s/u;

/** The face that has a character's glyph: Arabic script (its digits and punctuation too) in Naskh, the rest in Noto Sans. */
export function faceOf(char: string): FaceKey {
  return ARABIC_FACE.test(char) ? 'arabic' : 'latin';
}

/** Whether fontkit will lay `text` out right to left (and so reverse it) when handed it alone. */
function shaperReverses(text: string): boolean {
  const first = FIRST_SCRIPTED.exec(text);
  return first !== null && SHAPER_RTL_SCRIPT.test(first[0]);
}

const reversed = (text: string) => Array.from(text).reverse().join('');

/** The logical ranges [start, end) of the paragraph's lines: greedy at spaces; a word wider than a line is cut. */
function wrap(text: string, maxWidth: number, measure: Measure): Array<[number, number]> {
  const words: Array<[number, number]> = [];
  for (const match of text.matchAll(/\S+/gu)) words.push([match.index, match.index + match[0].length]);
  const widthOf = (start: number, end: number) => measureLogical(text.slice(start, end), measure);
  const space = measure(' ', 'latin');
  const lines: Array<[number, number]> = [];
  let line: [number, number] | null = null;
  let lineWidth = 0;
  for (const [wordStart, end] of words) {
    let start = wordStart;
    let width = widthOf(start, end);
    if (line && lineWidth + space + width <= maxWidth) {
      line[1] = end;
      lineWidth += space + width;
      continue;
    }
    if (line) lines.push(line);
    // a word wider than the line (a long link): cut where it fills a line
    while (width > maxWidth && end - start > 1) {
      let cut = start + 1;
      while (cut < end && widthOf(start, cut + 1) <= maxWidth) cut++;
      lines.push([start, cut]);
      start = cut;
      width = widthOf(start, end);
    }
    line = [start, end];
    lineWidth = width;
  }
  if (line) lines.push(line);
  return lines;
}

/** The width of a logical string, face by face (shaping does not cross faces). */
function measureLogical(text: string, measure: Measure): number {
  let width = 0;
  let run = '';
  let face: FaceKey | null = null;
  for (const char of text) {
    const f = faceOf(char);
    if (face !== null && f !== face) {
      width += measure(run, face);
      run = '';
    }
    face = f;
    run += char;
  }
  return face === null ? 0 : width + measure(run, face);
}

/**
 * A paragraph in lines no wider than `maxWidth`, each as pieces in page order (left to right).
 * `direction` is the paragraph's base direction: the reader's language's.
 */
export function layoutParagraph(text: string, direction: TextDirection, maxWidth: number, measure: Measure): LaidLine[] {
  const clean = text.replace(/[\r\n\t]+/g, ' ');
  if (clean.trim() === '') return [];
  const levels = bidi.getEmbeddingLevels(clean, direction);
  return wrap(clean, maxWidth, measure).map(([start, end]) => {
    // visual order of the line's characters (UAX #9 L2; mirrored characters are applied below)
    // (bidi-js answers the whole string's indices, the line's reordered in place: keep the line's)
    const order = bidi.getReorderedIndices(clean, levels, start, end - 1).slice(start, end);
    // the bare levels here, where reordering takes the whole result
    const mirrored = bidi.getMirroredCharactersMap(clean, levels.levels, start, end - 1);
    const pieces: LinePiece[] = [];
    let group: number[] = [];
    const flush = () => {
      if (group.length === 0) return;
      const rtl = (levels.levels[group[0]!]! & 1) === 1;
      const logical = rtl ? [...group].reverse() : group;
      const logicalText = logical.map((i) => mirrored.get(i) ?? clean[i]!).join('');
      const face = faceOf(clean[group[0]!]!);
      // The shaper reverses a run of a right-to-left script itself (after joining its letters in
      // logical order); anything else it leaves as given, so such a run gets its visual order here.
      const visual = rtl ? reversed(logicalText) : logicalText;
      const forShaper = shaperReverses(logicalText) ? (rtl ? logicalText : reversed(logicalText)) : visual;
      pieces.push({ text: forShaper, face, width: measure(forShaper, face) });
      group = [];
    };
    for (const i of order) {
      const prev = group[group.length - 1];
      const char = clean[i]!;
      const joins =
        prev !== undefined &&
        levels.levels[prev] === levels.levels[i] &&
        faceOf(clean[prev]!) === faceOf(char) &&
        !SPACE.test(char) &&
        !SPACE.test(clean[prev]!) &&
        // within a run the indices step by one, down in a right-to-left run
        Math.abs(i - prev) === 1;
      if (!joins) flush();
      group.push(i);
    }
    flush();
    return { pieces, width: pieces.reduce((sum, p) => sum + p.width, 0) };
  });
}
