import { createRequire } from 'node:module';
import path from 'node:path';
import { MAX_IMAGE_PIXELS } from './image-clean.ts';

// A PDF's first page as a PNG, so a PDF stencil proof shows as a picture where browsers show no
// PDF inline (Android Chrome, iOS in a frame) and in e-mail. pdf.js (Apache-2.0) parses and draws
// the page; @napi-rs/canvas (MIT, prebuilt Skia binaries, no system libraries) is its canvas in
// Node. Both load on the first PDF, not when the server starts: most requests never touch a PDF,
// and the server's resident memory has a budget (docs/PERFORMANCE.md).
//
// pdf.js runs without a worker thread here (its "fake worker" on this thread): a preview is made
// once per staff upload, and a second thread per render would cost more than it saves.

/** The preview's long side in pixels: sharp on a phone at 3x, and enough to zoom into. */
export const PDF_PREVIEW_LONG_SIDE = 1600;
/**
 * Past this size a PNG is a photograph more than line art (a mock-up on the pavement): it goes as
 * a JPEG instead, so the preview stays light for a phone, the e-mail and one function response.
 */
export const PDF_PREVIEW_PNG_MAX_BYTES = 1024 * 1024;
/**
 * A page that takes longer than this to draw is given up and the proof uploads unpreviewed: the
 * upload is one Netlify function call, which ends at 10 s, cold start and storage included.
 */
export const PDF_PREVIEW_TIMEOUT_MS = 6_000;

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
type Canvas = typeof import('@napi-rs/canvas');

let libraries: Promise<{ pdfjs: PdfJs; canvas: Canvas }> | undefined;
function loadLibraries() {
  libraries ??= (async () => {
    // The worker's message handler on this thread: pdf.js finds it on globalThis instead of
    // importing a worker file by URL, which a bundled function could not resolve.
    const worker = (await import('pdfjs-dist/legacy/build/pdf.worker.mjs')) as { WorkerMessageHandler: unknown };
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = worker;
    const [pdfjs, canvas] = await Promise.all([import('pdfjs-dist/legacy/build/pdf.mjs'), import('@napi-rs/canvas')]);
    return { pdfjs, canvas };
  })().catch((error: unknown) => {
    libraries = undefined;
    throw error;
  });
  return libraries;
}

/**
 * The 14 standard PDF fonts (Helvetica, Times...) that PDFs may name without embedding: pdf.js
 * draws them from the font files it ships (netlify.toml includes them in the proof-preview
 * function).
 */
function standardFontDirectory(): string {
  // Found from the module itself: a deployed function ships the package's files it uses, not its
  // package.json.
  const library = createRequire(import.meta.url).resolve('pdfjs-dist/legacy/build/pdf.mjs');
  return path.join(path.dirname(library), '..', '..', 'standard_fonts') + path.sep;
}

export interface PdfPreview {
  bytes: Uint8Array<ArrayBuffer>;
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

/**
 * Draws page 1 of the PDF on white at PDF_PREVIEW_LONG_SIDE pixels on its long side, as a PNG (a
 * JPEG past PDF_PREVIEW_PNG_MAX_BYTES). Throws when
 * the file cannot be read or drawn (damaged, encrypted, no pages) or takes too long: the caller
 * keeps the proof without a preview.
 */
export async function renderPdfFirstPage(bytes: Uint8Array): Promise<PdfPreview> {
  const { pdfjs, canvas: canvasLibrary } = await loadLibraries();
  const task = pdfjs.getDocument({
    // pdf.js takes ownership of the buffer it is given: a copy leaves the caller's bytes intact.
    data: bytes.slice(),
    // No forms, no scripts, no fetches: a proof is drawn from its own bytes and the bundled
    // standard fonts only.
    enableXfa: false,
    // An image inside the PDF past the uploads' pixel limit is left out, not decoded into
    // gigabytes (a small file can declare a 20 000 x 20 000 picture).
    maxImageSize: MAX_IMAGE_PIXELS,
    disableFontFace: true,
    useSystemFonts: false,
    standardFontDataUrl: standardFontDirectory(),
    verbosity: 0,
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`The PDF's first page took over ${PDF_PREVIEW_TIMEOUT_MS} ms to draw`)), PDF_PREVIEW_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      (async () => {
        const document = await task.promise;
        const page = await document.getPage(1);
        const natural = page.getViewport({ scale: 1 });
        const scale = PDF_PREVIEW_LONG_SIDE / Math.max(natural.width, natural.height);
        const viewport = page.getViewport({ scale });
        const width = Math.max(1, Math.round(viewport.width));
        const height = Math.max(1, Math.round(viewport.height));
        const canvas = canvasLibrary.createCanvas(width, height);
        // pdf.js accepts any canvas with a 2D context; @napi-rs/canvas is that in Node.
        await page.render({ canvas: canvas as unknown as HTMLCanvasElement, viewport, background: '#ffffff' }).promise;
        const png = await canvas.encode('png');
        if (png.byteLength <= PDF_PREVIEW_PNG_MAX_BYTES) return { bytes: new Uint8Array(png), mimeType: 'image/png' as const, width, height };
        const jpeg = await canvas.encode('jpeg', 85);
        return jpeg.byteLength < png.byteLength
          ? { bytes: new Uint8Array(jpeg), mimeType: 'image/jpeg' as const, width, height }
          : { bytes: new Uint8Array(png), mimeType: 'image/png' as const, width, height };
      })(),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
    await task.destroy().catch(() => undefined);
  }
}
