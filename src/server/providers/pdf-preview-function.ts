import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { MAX_PROOF_BYTES } from '../../domain/proofs.ts';
import type { Env } from '../env.ts';
import type { PdfPreview } from '../services/files/pdf-preview.ts';
import type { PdfPreviewRenderer } from './pdf-previews.ts';

// The call between the API function and the proof-preview function (netlify/functions/
// proof-preview.mts): the API posts the PDF's bytes, signed; the preview function draws page 1
// and answers with the image. Both sides live here so they cannot drift apart. This module loads
// no PDF library: the API function imports it without carrying pdf.js or the canvas.
//
// The preview function has a public address like every Netlify function, so it draws only for a
// caller that signs the request with a key derived from DATABASE_URL: a secret every function of
// the site already holds (the site cannot run without it) and nobody else does, so no new setting
// has to be kept in step. A signature covers the time and the body's hash and lasts five minutes.

export const PROOF_PREVIEW_FUNCTION_PATH = '/.netlify/functions/proof-preview';
/** How far a signed request's time may be from the preview function's clock. */
export const PREVIEW_SIGNATURE_MAX_AGE_MS = 5 * 60_000;
/**
 * How long the API waits for the preview: the preview function's cold start (about a second for
 * pdf.js and the canvas) plus its own drawing limit (PDF_PREVIEW_TIMEOUT_MS, 6 s), within the
 * upload's one function call.
 */
export const PREVIEW_CALL_TIMEOUT_MS = 12_000;
/** The most the preview function reads: the largest proof staff may upload. */
export const PREVIEW_MAX_PDF_BYTES = MAX_PROOF_BYTES;

export const PREVIEW_HEADERS = {
  time: 'X-Preview-Time',
  signature: 'X-Preview-Signature',
  width: 'X-Preview-Width',
  height: 'X-Preview-Height',
} as const;

/** The signing key, or null when DATABASE_URL is unset (then no preview is asked for or drawn). */
export function previewSigningKey(env: Pick<Env, 'DATABASE_URL'>): Buffer | null {
  if (!env.DATABASE_URL) return null;
  return createHmac('sha256', env.DATABASE_URL).update('clean-patch proof preview v1').digest();
}

function signatureOf(key: Buffer, time: string, body: Uint8Array): string {
  const bodyHash = createHash('sha256').update(body).digest('hex');
  return createHmac('sha256', key).update(`${time}.${bodyHash}`).digest('hex');
}

/** What PNG and JPEG files start with: an answer that is neither is not taken as a preview. */
function imageTypeOf(bytes: Uint8Array): PdfPreview['mimeType'] | null {
  if (bytes.length > 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  return null;
}

/**
 * The API function's renderer on Netlify: a signed POST to the preview function at the address the
 * upload arrived at (the same deploy). Throws on any failure; the caller keeps the proof without
 * a preview and logs why (services/proofs/proof-preview.ts).
 */
export function remotePdfPreviews(
  env: Pick<Env, 'DATABASE_URL'>,
  options: { fetch?: typeof fetch; now?: () => number } = {},
): PdfPreviewRenderer {
  const send = options.fetch ?? fetch;
  const now = options.now ?? Date.now;
  return {
    async render(bytes, origin) {
      const key = previewSigningKey(env);
      if (!key) throw new Error('DATABASE_URL is not set, so the preview function cannot be called');
      const time = String(now());
      const response = await send(new URL(PROOF_PREVIEW_FUNCTION_PATH, origin), {
        method: 'POST',
        headers: {
          'Content-Type': 'application/pdf',
          [PREVIEW_HEADERS.time]: time,
          [PREVIEW_HEADERS.signature]: signatureOf(key, time, bytes),
        },
        body: bytes as Uint8Array<ArrayBuffer>,
        signal: AbortSignal.timeout(PREVIEW_CALL_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`The preview function answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
      const image = new Uint8Array(await response.arrayBuffer());
      const mimeType = imageTypeOf(image);
      const width = Number(response.headers.get(PREVIEW_HEADERS.width));
      const height = Number(response.headers.get(PREVIEW_HEADERS.height));
      if (!mimeType || mimeType !== response.headers.get('content-type') || !(width > 0) || !(height > 0)) {
        throw new Error('The preview function answered without a PNG or JPEG image and its size');
      }
      return { bytes: image, mimeType, width, height };
    },
  };
}

const answer = (status: number, error: string) =>
  Response.json({ error }, { status, headers: { 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' } });

/**
 * The preview function's handler: checks the signature and the size, draws page 1 with `render`
 * (services/files/pdf-preview.ts on Netlify), answers with the image. 401 for an unsigned, altered
 * or stale request; 413 past PREVIEW_MAX_PDF_BYTES; 422 when the PDF cannot be drawn.
 */
export function createPreviewHandler(
  env: Pick<Env, 'DATABASE_URL'>,
  render: (bytes: Uint8Array) => Promise<PdfPreview>,
  now: () => number = Date.now,
): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'POST') return answer(405, 'Only POST is accepted');
    const key = previewSigningKey(env);
    if (!key) return answer(503, 'DATABASE_URL is not set: previews cannot be verified');
    if (Number(request.headers.get('content-length') ?? 0) > PREVIEW_MAX_PDF_BYTES) return answer(413, 'The PDF is too large');
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > PREVIEW_MAX_PDF_BYTES) return answer(413, 'The PDF is too large');
    const time = request.headers.get(PREVIEW_HEADERS.time) ?? '';
    const given = Buffer.from(request.headers.get(PREVIEW_HEADERS.signature) ?? '', 'hex');
    const expected = Buffer.from(signatureOf(key, time, bytes), 'hex');
    const fresh = /^\d{1,16}$/.test(time) && Math.abs(now() - Number(time)) <= PREVIEW_SIGNATURE_MAX_AGE_MS;
    if (!fresh || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return answer(401, 'The request is not signed by this site');
    }
    let preview: PdfPreview;
    try {
      preview = await render(bytes);
    } catch (error) {
      return answer(422, error instanceof Error ? error.message : String(error));
    }
    return new Response(preview.bytes, {
      headers: {
        'Content-Type': preview.mimeType,
        [PREVIEW_HEADERS.width]: String(preview.width),
        [PREVIEW_HEADERS.height]: String(preview.height),
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
      },
    });
  };
}
