import type PDFKit from 'pdfkit';
import { pdfFonts } from './pdf-fonts.ts';

// The PDFs a business customer keeps (invoices, campaign reports), drawn with pdfkit: A4, the
// site's typeface embedded (subset to the glyphs used), nothing fetched at run time. pdfkit and
// its font engine are loaded by the first document, not when the server starts: most requests
// never make one (scripts/build-functions.ts keeps pdfkit out of the function's bundle, as files beside it).

let pdfkitLibrary: Promise<typeof PDFKit> | undefined;
function loadPdfkit(): Promise<typeof PDFKit> {
  pdfkitLibrary ??= import('pdfkit').then(
    (module) => (module as unknown as { default: typeof PDFKit }).default,
    (error: unknown) => {
      pdfkitLibrary = undefined;
      throw error;
    },
  );
  return pdfkitLibrary;
}

export type Pdf = PDFKit.PDFDocument;

/** A4 in points, and the margin every page keeps. */
export const PAGE = { width: 595.28, height: 841.89, margin: 50 } as const;
export const INK = '#1f2933';
export const MUTED = '#52606d';

/**
 * Draws a document with `draw` and returns its bytes. Fonts 'regular' and 'bold' are registered;
 * the document starts in 'regular'. Title and author go into the PDF's information, and
 * `createdAt` (default: now) as its creation date, from which pdfkit also derives the file's ID:
 * given one, the same drawing gives the same bytes every time.
 */
export async function renderPdf(
  info: { title: string; author: string; createdAt?: Date },
  draw: (doc: Pdf) => void | Promise<void>,
): Promise<Uint8Array> {
  const PDFDocument = await loadPdfkit();
  const { regular, bold } = pdfFonts();
  // `font` replaces pdfkit's default Helvetica, whose metrics it would otherwise read from disk.
  const doc = new PDFDocument({
    size: 'A4',
    margin: PAGE.margin,
    font: regular as unknown as string,
    info: { Title: info.title, Author: info.author, Creator: info.author, Producer: info.author, CreationDate: info.createdAt ?? new Date() },
    compress: true,
    bufferPages: false,
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  doc.font('regular').fillColor(INK);
  await draw(doc);
  doc.end();
  await ended;
  return new Uint8Array(Buffer.concat(chunks));
}

/** A label and its value on one line, the label muted. */
export function labelled(doc: Pdf, label: string, value: string, x: number, y: number, width: number): void {
  doc.font('regular').fontSize(9).fillColor(MUTED).text(label, x, y, { width });
  doc.font('regular').fontSize(10).fillColor(INK).text(value, x, doc.y + 1, { width });
}

/** A file name for a download: letters, digits, dashes and dots only. */
export function downloadName(name: string): string {
  return name.replace(/[^A-Za-z0-9.-]+/g, '-');
}
