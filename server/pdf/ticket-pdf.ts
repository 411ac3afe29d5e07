/**
 * The PDF ticket's page (docs/decisions/035-pdf-ticket.md): A4, drawn with pdfkit, its text in
 * embedded Noto faces (Latin, Greek, Cyrillic from Noto Sans; Arabic from Noto Naskh Arabic,
 * shaped by fontkit, ordered by server/pdf/text-layout.ts), the QR drawn as vector squares from
 * the same module grid as the mail's PNG, so it decodes to the code the door accepts.
 * Everything it writes comes in translated (server/modules/attendees/ticket-pdf.service.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as fontkit from 'fontkit';
import PDFDocument from 'pdfkit';
import { ticketQrModules } from '../mail/ticket-qr';
import { layoutParagraph, type FaceKey, type LaidLine, type TextDirection } from './text-layout';

export interface TicketPdfField {
  label: string;
  value: string;
}

/** What the page says, every string already in the reader's language. */
export interface TicketPdfContent {
  /** BCP 47 tag of the text (the document's /Lang). */
  language: string;
  direction: TextDirection;
  /** The document's title (its properties and a viewer's title bar). */
  documentTitle: string;
  organization: string;
  eventTitle: string;
  fields: TicketPdfField[];
  /** The QR's payload, written under it as well. */
  code: string;
  codeLabel: string;
  /** "Show this at the entrance …" */
  note: string;
  /** The line before the cancel/manage link, and the link (null: the line alone, saying where the link is). */
  manage: { label: string; url: string | null };
}

type Weight = 'regular' | 'bold';

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
 * it uses to its own subset; drawing is synchronous, so two tickets never share a layout call.
 */
function fonts(): Map<string, fontkit.Font> {
  parsed ??= new Map(
    (Object.keys(FONT_FILES) as FaceKey[]).flatMap((face) =>
      (['regular', 'bold'] as const).map((weight) => [`${face}-${weight}`, fontkit.create(readFileSync(FONT_FILES[face][weight])) as fontkit.Font] as const),
    ),
  );
  return parsed;
}

const PAGE_WIDTH = 595.28;
const MARGIN = 56;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const QR_SIZE = 200;
/** Quiet zone around the QR, in modules (the QR standard asks for 4). */
const QR_QUIET = 4;
const INK = '#111111';
const MUTED = '#555555';

/** The ticket as a PDF file. */
export function renderTicketPdf(content: TicketPdfContent): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: content.language,
    displayTitle: true,
    info: { Title: content.documentTitle, Author: content.organization, Subject: content.eventTitle, Creator: 'svc' },
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

  const rtl = content.direction === 'rtl';
  const measure = (size: number, weight: Weight) => (text: string, face: FaceKey) => doc.font(`${face}-${weight}`).fontSize(size).widthOfString(text);
  const lay = (text: string, size: number, weight: Weight, width = CONTENT_WIDTH) => layoutParagraph(text, content.direction, width, measure(size, weight));

  /** Draws laid lines from `y` (the first line's top), aligned to the reader's start edge or centred; answers the y below them. */
  const draw = (lines: LaidLine[], y: number, size: number, weight: Weight, color: string, align: 'start' | 'center' = 'start', link?: string) => {
    const lineHeight = size * 1.45;
    for (const line of lines) {
      const baseline = y + size * 1.1;
      let x = align === 'center' ? MARGIN + (CONTENT_WIDTH - line.width) / 2 : rtl ? MARGIN + CONTENT_WIDTH - line.width : MARGIN;
      if (link) doc.link(x, y, line.width, lineHeight, link);
      for (const piece of line.pieces) {
        doc.font(`${piece.face}-${weight}`).fontSize(size).fillColor(color).text(piece.text, x, baseline, { lineBreak: false, baseline: 'alphabetic' });
        x += piece.width;
      }
      y += lineHeight;
    }
    return y;
  };

  let y = MARGIN;
  y = draw(lay(content.organization, 12, 'bold'), y, 12, 'bold', MUTED);
  y += 6;
  // a title of any length stays on the page: three lines at most
  y = draw(lay(content.eventTitle, 24, 'bold').slice(0, 3), y, 24, 'bold', INK);
  y += 8;
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT_WIDTH, y)
    .lineWidth(0.75)
    .strokeColor('#999999')
    .stroke();
  y += 14;
  for (const field of content.fields) {
    y = draw(lay(field.label, 10, 'regular'), y, 10, 'regular', MUTED);
    y = draw(lay(field.value, 14, 'regular').slice(0, 3), y, 14, 'regular', INK);
    y += 8;
  }

  y += 10;
  const modules = ticketQrModules(content.code);
  const cell = QR_SIZE / (modules.size + 2 * QR_QUIET);
  const qrX = MARGIN + (CONTENT_WIDTH - QR_SIZE) / 2;
  // light quiet zone, then each dark run of a row as one rectangle
  doc.rect(qrX, y, QR_SIZE, QR_SIZE).fill('#ffffff');
  for (let row = 0; row < modules.size; row++) {
    let col = 0;
    while (col < modules.size) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      doc.rect(qrX + (QR_QUIET + start) * cell, y + (QR_QUIET + row) * cell, (col - start) * cell, cell);
    }
  }
  doc.fill('#000000');
  y += QR_SIZE + 4;
  y = draw(lay(content.codeLabel, 9, 'regular'), y, 9, 'regular', MUTED, 'center');
  // the code itself reads left to right in every language
  y = drawCode(content.code, y);
  y += 8;
  y = draw(lay(content.note, 11, 'regular'), y, 11, 'regular', INK, 'center');
  y += 18;
  y = draw(lay(content.manage.label, 10, 'regular'), y, 10, 'regular', MUTED);
  // small enough that a 64-character token's link stays on one line
  if (content.manage.url) draw(lay(content.manage.url, 8, 'regular'), y, 8, 'regular', '#1a4fa0', 'start', content.manage.url);

  function drawCode(code: string, top: number): number {
    const size = 11;
    doc.font('latin-regular').fontSize(size);
    const width = doc.widthOfString(code);
    doc.fillColor(INK).text(code, MARGIN + (CONTENT_WIDTH - width) / 2, top + size * 1.1, { lineBreak: false, baseline: 'alphabetic' });
    return top + size * 1.45;
  }

  doc.end();
  return done;
}
