/**
 * The PDF ticket's page (docs/decisions/035-pdf-ticket.md): A4, drawn with pdfkit, its text in
 * embedded Noto faces (Latin, Greek, Cyrillic from Noto Sans; Arabic from Noto Naskh Arabic,
 * shaped by fontkit, ordered by server/pdf/text-layout.ts), the QR drawn as vector squares from
 * the same module grid as the mail's PNG, so it decodes to the code the door accepts.
 * Everything it writes comes in translated (server/modules/attendees/ticket-pdf.service.ts).
 */
import { ticketQrModules } from '../mail/ticket-qr';
import { CONTENT_WIDTH, INK, MARGIN, MUTED, openPdfPage, type PdfJpeg } from './pdf-page';
import type { TextDirection } from './text-layout';

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
  /** The organization's logo, drawn before its name; null: the name alone. */
  logo: PdfJpeg | null;
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

const QR_SIZE = 200;
/** Between the logo and the name beside it. */
const LOGO_GAP = 12;
/** Quiet zone around the QR, in modules (the QR standard asks for 4). */
const QR_QUIET = 4;

/** The ticket as a PDF file. */
export function renderTicketPdf(content: TicketPdfContent): Promise<Buffer> {
  const page = openPdfPage({
    language: content.language,
    direction: content.direction,
    title: content.documentTitle,
    author: content.organization,
    subject: content.eventTitle,
  });
  const { doc, lay } = page;
  const draw = (
    lines: ReturnType<typeof lay>,
    y: number,
    size: number,
    weight: 'regular' | 'bold',
    color: string,
    align: 'start' | 'center' = 'start',
    link?: string,
  ) => page.draw(lines, y, size, weight, color, { align, link });

  let y = MARGIN;
  if (content.logo) {
    // the logo at the start edge, the name beside it (as text: a picture's words are not searchable), centred on its height
    const logo = page.logo(content.logo, y);
    const width = CONTENT_WIDTH - logo.width - LOGO_GAP;
    const name = lay(content.organization, 12, 'bold', width).slice(0, 2);
    const nameHeight = name.length * 12 * 1.45;
    const left = page.rtl ? MARGIN : MARGIN + logo.width + LOGO_GAP;
    const bottom = page.draw(name, y + Math.max(0, (logo.height - nameHeight) / 2), 12, 'bold', MUTED, { left, width });
    y = Math.max(y + logo.height, bottom);
  } else {
    y = draw(lay(content.organization, 12, 'bold'), y, 12, 'bold', MUTED);
  }
  y += 6;
  // a title of any length stays on the page: three lines at most
  y = draw(lay(content.eventTitle, 24, 'bold').slice(0, 3), y, 24, 'bold', INK);
  y += 8;
  page.rule(y);
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

  return page.end();
}
