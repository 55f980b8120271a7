import { renderPdfFirstPage, type PdfPreview } from '../services/files/pdf-preview.ts';

/**
 * Who draws a PDF proof's first page (services/proofs/proof-preview.ts). pdf.js and a native
 * canvas are 40 MB of files that one staff upload in a hundred uses, so on Netlify they live in
 * a function of their own (netlify/functions/proof-preview.mts, providers/pdf-preview-function.ts)
 * and the API function carries none of it; the local server and the tests draw in their own
 * process with the same renderer.
 */
export interface PdfPreviewRenderer {
  /**
   * Page 1 of the PDF as an image; throws when it cannot be drawn. `origin` is the address the
   * upload arrived at: on Netlify, the same deploy's preview function answers there.
   */
  render(bytes: Uint8Array, origin: string): Promise<PdfPreview>;
}

/** In this process: pdf.js and the canvas load on the first PDF (services/files/pdf-preview.ts). */
export const inProcessPdfPreviews: PdfPreviewRenderer = {
  render: (bytes) => renderPdfFirstPage(bytes),
};
