/**
 * The smoke journey's PDF stencil proof (scripts/smoke/journey.ts): staff upload a PDF and its
 * first page comes back as an image. On Netlify the API function asks the proof-preview function
 * for it (src/server/providers/pdf-preview-function.ts), so this is the check that the two
 * functions, built and served as Netlify does, still work together.
 */
import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { PDF_PREVIEW_LONG_SIDE } from '../../src/server/services/files/pdf-preview.ts';
import { Skip, call as callSite, check, describe, expect } from './checks.ts';

/** A one-page proof (680 x 454 points) from the tests' fixtures. */
const PROOF_PDF = new URL('../../tests/fixtures/stencil-proof.pdf', import.meta.url);

export async function checkPdfProof(base: string, cookie: string | undefined, bookingId: number | undefined) {
  const call = (pathname: string, init?: RequestInit) => callSite(base, pathname, init);
  let previewUrl: string | undefined;
  await check('POST /api/admin/bookings/<id>/proofs, a PDF proof gets its first-page preview', async () => {
    if (!cookie || !bookingId) throw new Skip('not signed in, or no booking');
    const form = new FormData();
    form.append('file', new Blob([await readFile(PROOF_PDF)], { type: 'application/pdf' }), 'smoke-proof.pdf');
    form.append('note', 'Smoke check: a PDF proof');
    const answer = await call(`/api/admin/bookings/${bookingId}/proofs`, { method: 'POST', headers: { Cookie: cookie, Origin: base }, body: form });
    expect(answer.response.status === 201, describe(answer));
    expect(answer.json.mimeType === 'application/pdf', `stored as ${answer.json.mimeType}`);
    expect(answer.json.previewUrl, 'no preview: the proof-preview function did not draw the first page (see the server log)');
    previewUrl = answer.json.previewUrl;
    return `proof v${answer.json.version}`;
  });
  await check('GET the PDF proof’s preview: page 1 as an image', async () => {
    if (!cookie || !previewUrl) throw new Skip('no preview to fetch');
    const response = await fetch(`${base}${previewUrl}`, { headers: { Cookie: cookie }, signal: AbortSignal.timeout(30_000) });
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.status === 200, `status ${response.status}`);
    const { format, width, height } = await sharp(body).metadata();
    expect(response.headers.get('content-type') === `image/${format}`, `content-type ${response.headers.get('content-type')}, bytes are ${format}`);
    expect(width === PDF_PREVIEW_LONG_SIDE && height === Math.round((454 / 680) * PDF_PREVIEW_LONG_SIDE), `${width}x${height}`);
    return `${format} ${width}x${height}, ${Math.round(body.byteLength / 1024)} KB`;
  });
}
