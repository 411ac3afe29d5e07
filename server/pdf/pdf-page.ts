/**
 * What every svc PDF shares (docs/decisions/035-pdf-ticket.md, docs/decisions/037-receipts.md):
 * an A4 pdfkit document whose text is in embedded Noto faces (Latin, Greek, Cyrillic from Noto
 * Sans; Arabic from Noto Naskh Arabic, shaped by fontkit, ordered by server/pdf/text-layout.ts),
 * and the drawing of laid lines at the reader's start edge, centred or at the end edge. The
 * ticket (server/pdf/ticket-pdf.ts) and the receipt (server/pdf/receipt-pdf.ts) draw with it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { layoutParagraph, type FaceKey, type LaidLine, type TextDirection } from './text-layout';

export type Weight = 'regular' | 'bold';

const requireFrom = createRequire(import.meta.url);
/** A font file shipped in an npm package (so `npm ci` brings it on any machine), next to the package's entry. */
function packageFont(pkg: string, file: string): string {
  return path.join(path.dirname(requireFrom.resolve(pkg)), '..', 'fonts', file);
}

const FONT_FILES: Record<FaceKey, Record<Weight, string>> = {
  latin: {
    regular: packageFont('@embedpdf/fonts-latin', 'NotoSans-Regular.ttf'),
    bold: packageFont('@embedpdf/fonts-latin', 'NotoSans-Bold.ttf'),
  },
  arabic: {
    regular: packageFont('@embedpdf/fonts-arabic', 'NotoNaskhArabic-Regular.ttf'),
    bold: packageFont('@embedpdf/fonts-arabic', 'NotoNaskhArabic-Bold.ttf'),
  },
};

let parsed: Map<string, fontkit.Font> | null = null;
/**
 * The four faces, read and parsed once per process (about 1.5 MB) and handed to every document:
 * parsing them anew (cmap, GSUB, GPOS) cost 40–100 ms a ticket. A document only adds the glyphs
 * it uses to its own subset; drawing is synchronous, so two documents never share a layout call.
 */
function fonts(): Map<string, fontkit.Font> {
  parsed ??= new Map(
    (Object.keys(FONT_FILES) as FaceKey[]).flatMap((face) =>
      (['regular', 'bold'] as const).map((weight) => [`${face}-${weight}`, fontkit.create(readFileSync(FONT_FILES[face][weight])) as fontkit.Font] as const),
    ),
  );
  return parsed;
}

export const PAGE_WIDTH = 595.28;
export const PAGE_HEIGHT = 841.89;
export const MARGIN = 56;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const INK = '#111111';
export const MUTED = '#555555';

/** The document's properties, every string already in the reader's language. */
export interface PdfPageMeta {
  /** BCP 47 tag of the text (the document's /Lang). */
  language: string;
  direction: TextDirection;
  title: string;
  author: string;
  subject: string;
}

export type Align = 'start' | 'center' | 'end';

/** A JPEG file and its size in pixels (the organization's logo). */
export interface PdfJpeg {
  bytes: Buffer;
  width: number;
  height: number;
}

/** The logo's height on a page, in points (about 12.7 mm), and the width it may not pass. */
export const PDF_LOGO_HEIGHT = 36;
export const PDF_LOGO_MAX_WIDTH = 180;

export interface PdfPage {
  doc: PDFKit.PDFDocument;
  rtl: boolean;
  /** The paragraph's lines, `width` wide at most (the content's width by default). */
  lay(text: string, size: number, weight: Weight, width?: number): LaidLine[];
  /**
   * Draws laid lines from `y` (the first line's top), at the reader's start edge, centred, or at
   * the end edge, within the column [left, left + width] (the content by default); answers the y below them.
   */
  draw(
    lines: LaidLine[],
    y: number,
    size: number,
    weight: Weight,
    color: string,
    opts?: { align?: Align; link?: string; left?: number; width?: number },
  ): number;
  /**
   * Draws a JPEG at the reader's start edge from `y` (its top), PDF_LOGO_HEIGHT high, or lower
   * where it would be wider than PDF_LOGO_MAX_WIDTH, its aspect kept; answers the size drawn.
   */
  logo(jpeg: PdfJpeg, y: number): { width: number; height: number };
  /** A thin rule across the content at `y`. */
  rule(y: number): void;
  /** The file, once everything is drawn. */
  end(): Promise<Buffer>;
}

/** A new A4 page in the embedded faces. */
export function openPdfPage(meta: PdfPageMeta): PdfPage {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: meta.language,
    displayTitle: true,
    info: { Title: meta.title, Author: meta.author, Subject: meta.subject, Creator: 'svc' },
    // the default face would be Helvetica: Latin-1 only, never used here
    font: fonts().get('latin-regular') as unknown as string,
  });
  // pdfkit takes a parsed fontkit font as it takes a file (its font factory checks for `layout`)
  for (const [name, font] of fonts()) doc.registerFont(name, font as unknown as Buffer);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const rtl = meta.direction === 'rtl';
  const measure = (size: number, weight: Weight) => (text: string, face: FaceKey) => doc.font(`${face}-${weight}`).fontSize(size).widthOfString(text);

  return {
    doc,
    rtl,
    lay: (text, size, weight, width = CONTENT_WIDTH) => layoutParagraph(text, meta.direction, width, measure(size, weight)),
    draw(lines, y, size, weight, color, opts = {}) {
      const { align = 'start', link, left = MARGIN, width = CONTENT_WIDTH } = opts;
      const lineHeight = size * 1.45;
      // the start edge is the left one in a left-to-right language, the right one otherwise
      const atRight = (align === 'start' && rtl) || (align === 'end' && !rtl);
      for (const line of lines) {
        const baseline = y + size * 1.1;
        let x = align === 'center' ? left + (width - line.width) / 2 : atRight ? left + width - line.width : left;
        if (link) doc.link(x, y, line.width, lineHeight, link);
        for (const piece of line.pieces) {
          doc.font(`${piece.face}-${weight}`).fontSize(size).fillColor(color).text(piece.text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
          x += piece.width;
        }
        y += lineHeight;
      }
      return y;
    },
    logo(jpeg, y) {
      const scale = Math.min(PDF_LOGO_HEIGHT / jpeg.height, PDF_LOGO_MAX_WIDTH / jpeg.width);
      const width = jpeg.width * scale;
      const height = jpeg.height * scale;
      doc.image(jpeg.bytes, rtl ? MARGIN + CONTENT_WIDTH - width : MARGIN, y, { width, height });
      return { width, height };
    },
    rule(y) {
      doc
        .moveTo(MARGIN, y)
        .lineTo(MARGIN + CONTENT_WIDTH, y)
        .lineWidth(0.75)
        .strokeColor('#999999')
        .stroke();
    },
    end() {
      doc.end();
      return done;
    },
  };
}
