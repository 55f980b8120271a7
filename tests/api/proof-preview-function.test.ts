import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { emailOutbox, proofs } from '../../db/schema.ts';
import {
  PREVIEW_HEADERS,
  PREVIEW_MAX_PDF_BYTES,
  PREVIEW_SIGNATURE_MAX_AGE_MS,
  PROOF_PREVIEW_FUNCTION_PATH,
  createPreviewHandler,
  remotePdfPreviews,
} from '../../src/server/providers/pdf-preview-function.ts';
import { PDF_PREVIEW_LONG_SIDE, renderPdfFirstPage } from '../../src/server/services/files/pdf-preview.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { insertProofBooking, uploadProofAsStaff } from '../fixtures/proofs.ts';

// On Netlify the API function does not draw a PDF proof's preview itself: it posts the PDF,
// signed, to the proof-preview function (netlify/functions/proof-preview.mts), which carries
// pdf.js and the native canvas. Here the API's remote renderer talks to that function's handler
// directly (the same code, no network), on this file's own app and database.

const ctx = await createTestContext();
const db = ctx.deps.db;
const PDF = new Uint8Array(await readFile(new URL('../fixtures/stencil-proof.pdf', import.meta.url)));
const BROKEN_PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** Both functions see the site's DATABASE_URL: the signing key comes from it. */
const SITE = { DATABASE_URL: 'postgres://site:s3cret@db.example.net/cleanpatch' };
const previewFunction = createPreviewHandler(SITE, renderPdfFirstPage);
const calls: URL[] = [];
/** The API's renderer as on Netlify, its requests answered by the preview function's handler. */
const remote = remotePdfPreviews(SITE, {
  fetch: async (url, init) => {
    calls.push(new URL(String(url)));
    return previewFunction(new Request(url, init));
  },
});
// This file's app draws previews as the API function on Netlify does.
ctx.deps.pdfPreviews = remote;

/** A request signed as the API signs it, captured on its way out. */
async function signedRequest(bytes: Uint8Array, env = SITE, now = Date.now()): Promise<Request> {
  let captured: Request | undefined;
  await remotePdfPreviews(env, {
    now: () => now,
    fetch: async (url, init) => {
      captured = new Request(url, init);
      return new Response('stop', { status: 500 });
    },
  })
    .render(bytes, 'https://cleanpatch.example')
    .catch(() => undefined);
  return captured!;
}

const insertBooking = () => insertProofBooking(ctx);
const uploadProof = (bookingId: number, bytes: Uint8Array, name: string) => uploadProofAsStaff(ctx, bookingId, bytes, name);

describe('a PDF proof’s preview drawn by the proof-preview function', () => {
  it('comes back for a staff upload: asked of the same site’s function, stored, served and mailed', async () => {
    const booking = await insertBooking();
    calls.length = 0;
    const proof = await uploadProof(booking.id, PDF, 'hartley-proof.pdf');

    expect(calls.map((url) => url.href)).toEqual([`${TEST_ORIGIN}${PROOF_PREVIEW_FUNCTION_PATH}`]);
    expect(proof.previewUrl).toBe(`/api/proofs/${proof.id}/preview`);
    const response = await ctx.app.request(`/api/proofs/${proof.id}/preview`, { headers: { Cookie: await adminCookie(ctx) } });
    expect(response.status).toBe(200);
    expect(await sharp(Buffer.from(await response.arrayBuffer())).metadata()).toMatchObject({
      format: 'png',
      width: PDF_PREVIEW_LONG_SIDE,
      height: Math.round((454 / 680) * PDF_PREVIEW_LONG_SIDE),
    });
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `proof-ready:${proof.id}`));
    expect(mail!.attachments).toEqual([expect.objectContaining({ type: 'image/png', contentId: 'stencil-proof-preview' })]);
  });

  it('is left out when the function cannot draw the PDF: the proof still uploads, with its link', async () => {
    const booking = await insertBooking();
    const proof = await uploadProof(booking.id, BROKEN_PDF, 'damaged.pdf');
    expect(proof.previewUrl).toBeNull();
    const [row] = await db.select().from(proofs).where(eq(proofs.id, proof.id));
    expect(row!.previewFileName).toBeNull();
    const signed = await previewFunction(await signedRequest(BROKEN_PDF));
    expect(signed.status).toBe(422);
  });
});

describe('the proof-preview function', () => {
  it('draws only for a request this site signed: unsigned, altered, stale or another site’s key get 401', async () => {
    const good = await previewFunction(await signedRequest(PDF));
    expect(good.status).toBe(200);
    expect(good.headers.get('content-type')).toBe('image/png');
    expect(good.headers.get(PREVIEW_HEADERS.width)).toBe(String(PDF_PREVIEW_LONG_SIDE));

    const unsigned = new Request(`https://cleanpatch.example${PROOF_PREVIEW_FUNCTION_PATH}`, { method: 'POST', body: PDF });
    expect((await previewFunction(unsigned)).status).toBe(401);

    const signed = await signedRequest(PDF);
    const altered = new Request(signed.url, { method: 'POST', headers: signed.headers, body: BROKEN_PDF });
    expect((await previewFunction(altered)).status).toBe(401);

    const stale = await signedRequest(PDF, SITE, Date.now() - PREVIEW_SIGNATURE_MAX_AGE_MS - 1_000);
    expect((await previewFunction(stale)).status).toBe(401);

    const otherSite = await signedRequest(PDF, { DATABASE_URL: 'postgres://other:key@db.example.net/elsewhere' });
    expect((await previewFunction(otherSite)).status).toBe(401);
  });

  it('refuses other methods, a body past its limit, and every call when the site has no DATABASE_URL', async () => {
    expect((await previewFunction(new Request(`https://cleanpatch.example${PROOF_PREVIEW_FUNCTION_PATH}`))).status).toBe(405);
    const huge = new Uint8Array(PREVIEW_MAX_PDF_BYTES + 1);
    expect((await previewFunction(await signedRequest(huge))).status).toBe(413);
    const unconfigured = createPreviewHandler({ DATABASE_URL: undefined }, renderPdfFirstPage);
    expect((await unconfigured(await signedRequest(PDF))).status).toBe(503);
    await expect(remotePdfPreviews({ DATABASE_URL: undefined }).render(PDF, TEST_ORIGIN)).rejects.toThrow(/DATABASE_URL/);
  });

  it('is not trusted when it answers with something other than an image', async () => {
    const liar = remotePdfPreviews(SITE, {
      fetch: async () => new Response('<html>hello</html>', { headers: { 'Content-Type': 'image/png', [PREVIEW_HEADERS.width]: '10', [PREVIEW_HEADERS.height]: '10' } }),
    });
    await expect(liar.render(PDF, TEST_ORIGIN)).rejects.toThrow(/without a PNG or JPEG/);
  });
});
