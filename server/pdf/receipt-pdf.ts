/**
 * The receipt's and the credit note's page (docs/decisions/037-receipts.md): A4, in the faces
 * and the bidirectional layout the ticket uses (server/pdf/pdf-page.ts). The seller's block, the
 * title with its number, the facts (dates, payment method, order, buyer), the lines with their
 * amounts at the end edge, net, tax and gross per tax rate, then the total. Everything it writes
 * comes in translated and formatted (server/modules/orders/receipts.service.ts).
 */
import { CONTENT_WIDTH, INK, MARGIN, MUTED, openPdfPage, type Weight } from './pdf-page';
import type { TextDirection } from './text-layout';

export interface ReceiptPdfFact {
  label: string;
  value: string;
}

/** What the page says, every string already in the reader's language. */
export interface ReceiptPdfContent {
  language: string;
  direction: TextDirection;
  documentTitle: string;
  /** The seller's name, then its address lines and tax id line. */
  sellerName: string;
  sellerLines: string[];
  /** "Receipt R-000001" */
  title: string;
  facts: ReceiptPdfFact[];
  /** The lines' heading row: description, amount. */
  linesHeading: [string, string];
  lines: Array<[string, string]>;
  /** The taxes' heading row (rate, net, tax, gross) and one row per rate. */
  taxesHeading: [string, string, string, string];
  taxes: Array<[string, string, string, string]>;
  total: [string, string];
  note: string | null;
}

/** The width of each amount column. */
const AMOUNT_WIDTH = 92;

/** The receipt or credit note as a PDF file. */
export function renderReceiptPdf(content: ReceiptPdfContent): Promise<Buffer> {
  const page = openPdfPage({
    language: content.language,
    direction: content.direction,
    title: content.documentTitle,
    author: content.sellerName,
    subject: content.title,
  });
  const { lay, draw } = page;
  const paragraph = (text: string, y: number, size: number, weight: Weight, color: string, maxLines = 3) =>
    draw(lay(text, size, weight).slice(0, maxLines), y, size, weight, color);

  /**
   * One row of a table: the first cell takes what the amount columns leave, at the reader's start
   * edge; each further cell is an amount column, its text at the column's end edge. In a
   * right-to-left language the columns run from the right.
   */
  const row = (cells: string[], y: number, size: number, weight: Weight, color: string): number => {
    const amounts = cells.length - 1;
    const firstWidth = CONTENT_WIDTH - amounts * AMOUNT_WIDTH;
    let bottom = y;
    let offset = 0;
    cells.forEach((cell, i) => {
      const width = i === 0 ? firstWidth : AMOUNT_WIDTH;
      const left = page.rtl ? MARGIN + CONTENT_WIDTH - offset - width : MARGIN + offset;
      offset += width;
      const lines = lay(cell, size, weight, i === 0 ? width - 8 : width).slice(0, i === 0 ? 3 : 1);
      bottom = Math.max(bottom, draw(lines, y, size, weight, color, { align: i === 0 ? 'start' : 'end', left, width }));
    });
    return bottom;
  };

  /** A fact: its label in a narrow column at the start edge, its value beside it. */
  const fact = ({ label, value }: ReceiptPdfFact, y: number): number => {
    const labelWidth = 150;
    const valueWidth = CONTENT_WIDTH - labelWidth;
    const labelLeft = page.rtl ? MARGIN + valueWidth : MARGIN;
    const valueLeft = page.rtl ? MARGIN : MARGIN + labelWidth;
    const a = draw(lay(label, 10, 'regular', labelWidth - 8).slice(0, 2), y, 10, 'regular', MUTED, { left: labelLeft, width: labelWidth });
    const b = draw(lay(value, 10, 'regular', valueWidth).slice(0, 3), y, 10, 'regular', INK, { left: valueLeft, width: valueWidth });
    return Math.max(a, b);
  };

  let y = MARGIN;
  y = paragraph(content.sellerName, y, 12, 'bold', INK, 2);
  for (const line of content.sellerLines) y = paragraph(line, y, 10, 'regular', MUTED, 2);
  y += 14;
  y = paragraph(content.title, y, 22, 'bold', INK, 2);
  y += 6;
  for (const item of content.facts) y = fact(item, y);
  y += 8;
  page.rule(y);
  y += 8;
  y = row(content.linesHeading, y, 9, 'bold', MUTED);
  for (const line of content.lines) y = row(line, y, 11, 'regular', INK);
  y += 6;
  page.rule(y);
  y += 8;
  y = row(content.taxesHeading, y, 9, 'bold', MUTED);
  for (const tax of content.taxes) y = row(tax, y, 10, 'regular', INK);
  y += 6;
  page.rule(y);
  y += 8;
  y = row(content.total, y, 14, 'bold', INK);
  if (content.note) {
    y += 16;
    paragraph(content.note, y, 10, 'regular', MUTED, 4);
  }
  return page.end();
}
