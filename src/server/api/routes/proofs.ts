import { Hono, type Context } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { proofCommentSchema, waiveSchema } from '../../../domain/proof-schema.ts';
import { MAX_PROOF_BYTES } from '../../../domain/proofs.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError, badRequest, notFound } from '../../app/errors.ts';
import { readJson, readMultipartForm } from '../middleware/body.ts';
import { adminActor, adminActorName, requireAdmin } from '../middleware/admin-auth.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { bookingIdParam as idParam, isGrantedClient, readableBooking } from '../middleware/booking-access.ts';
import {
  PROOF_MESSAGES,
  findProof,
  listProofs,
  uploadProof,
  type ProofRow,
} from '../../services/proofs/stencil-proofs.ts';
import { approveProof, requestProofChanges } from '../../services/proofs/proof-decisions.ts';
import { requestStencilChange, waiveStencilChange } from '../../services/proofs/stencil-changes.ts';
import { previewMimeType } from '../../services/proofs/proof-preview.ts';
import { contentDisposition } from './files.ts';
import { judgedType } from './uploads.ts';

// Stencil proof sign-off (api.md "Stencil proof sign-off"). The customer's side is reachable only
// by a browser holding the tracking grant for the booking (services/projects/tracking.ts, photo_grants) or,
// for reading, by staff; everyone else gets the same 404 whether or not the proof exists.

const MULTIPART_OVERHEAD_BYTES = 64 * 1024;
// A person decides a few times; a script creating PaymentIntents in a loop is stopped.
const STENCIL_CHANGE_LIMIT = { name: 'stencil-change', limit: 20, windowSeconds: 600 };

/** The proof, when staff or the client granted its booking ask for it; else a 404. */
async function readableProof(c: Context<AppEnv>): Promise<ProofRow> {
  const proof = await findProof(c.get('deps').db, idParam(c));
  if (!proof) throw notFound();
  await readableBooking(c, proof.bookingId);
  return proof;
}

/** The proof, when the request comes from the client granted its booking; else a 404. */
async function grantedProof(c: Context<AppEnv>): Promise<ProofRow> {
  const proof = await findProof(c.get('deps').db, idParam(c));
  if (!proof || !(await isGrantedClient(c, proof.bookingId))) throw notFound();
  return proof;
}

/** How each stored type is served: raster and PDF inline, SVG inline only under a script-free policy. */
function fileHeaders(mimeType: string, download: boolean): Record<string, string> {
  if (download) return { 'Content-Type': 'application/octet-stream', 'Content-Security-Policy': 'sandbox' };
  switch (mimeType) {
    case 'image/png':
    case 'image/jpeg':
      return { 'Content-Type': mimeType };
    case 'image/svg+xml':
      // Sanitised at upload; even so, opened on its own it may run nothing and load nothing.
      return { 'Content-Type': mimeType, 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox" };
    case 'application/pdf':
      // Framed by the tracking page's viewer: Chrome's PDF viewer refuses to run in a sandbox.
      return { 'Content-Type': mimeType, 'Content-Security-Policy': "default-src 'none'; frame-ancestors 'self'", 'X-Frame-Options': 'SAMEORIGIN' };
    default:
      return { 'Content-Type': 'application/octet-stream', 'Content-Security-Policy': 'sandbox' };
  }
}

export const proofRoutes = new Hono<AppEnv>()
  .post(
    '/admin/bookings/:id/proofs',
    requireAdmin,
    bodyLimit({
      maxSize: MAX_PROOF_BYTES + MULTIPART_OVERHEAD_BYTES,
      onError: () => {
        throw new AppError(413, PROOF_MESSAGES.tooLarge, { file: PROOF_MESSAGES.tooLarge });
      },
    }),
    async (c) => {
      const bookingId = idParam(c);
      const form = await readMultipartForm(c, 'Send the proof as multipart/form-data in the field "file"');
      const file = form.get('file');
      if (!(file instanceof File) || file.size === 0) throw badRequest(PROOF_MESSAGES.missingFile, { file: PROOF_MESSAGES.missingFile });
      if (file.size > MAX_PROOF_BYTES) throw new AppError(413, PROOF_MESSAGES.tooLarge, { file: PROOF_MESSAGES.tooLarge });
      const bytes = new Uint8Array(await file.arrayBuffer());
      const proof = await uploadProof(
        c.get('deps'),
        bookingId,
        { bytes, type: judgedType(bytes), originalName: file.name, note: form.get('note'), origin: new URL(c.req.url).origin },
        { userId: adminActor(c), now: c.get('deps').now() },
      );
      return c.json(proof, 201);
    },
  )

  .get('/bookings/:id/proofs', async (c) => {
    const bookingId = await readableBooking(c, idParam(c));
    return c.json(await listProofs(c.get('deps').db, bookingId));
  })

  .get('/proofs/:id/file', async (c) => {
    const proof = await readableProof(c);
    const stored = await c.get('deps').files.get(proof.fileName);
    if (!stored) throw notFound();
    const download = c.req.query('download') === '1';
    return c.body(stored.body as Uint8Array<ArrayBuffer>, 200, {
      ...fileHeaders(proof.mimeType, download),
      'Content-Length': String(stored.size),
      'Content-Disposition': contentDisposition(download ? 'attachment' : 'inline', proof.originalName),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  })

  // A PDF proof's first page as a PNG (made at upload), under the same guards as the file.
  .get('/proofs/:id/preview', async (c) => {
    const proof = await readableProof(c);
    const stored = proof.previewFileName ? await c.get('deps').files.get(proof.previewFileName) : null;
    if (!stored) throw notFound();
    return c.body(stored.body as Uint8Array<ArrayBuffer>, 200, {
      'Content-Type': previewMimeType(proof.previewFileName!),
      'Content-Length': String(stored.size),
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
  })

  .post('/proofs/:id/approve', async (c) => {
    const proof = await grantedProof(c);
    return c.json(await approveProof(c.get('deps'), proof));
  })

  .post('/proofs/:id/request-changes', async (c) => {
    const proof = await grantedProof(c);
    const { comment } = await readJson(c, proofCommentSchema);
    return c.json(await requestProofChanges(c.get('deps'), proof, comment));
  })

  .post('/bookings/:id/stencil-change', rateLimit(STENCIL_CHANGE_LIMIT), async (c) => {
    const bookingId = idParam(c);
    if (!(await isGrantedClient(c, bookingId))) throw notFound();
    const { comment } = await readJson(c, proofCommentSchema);
    return c.json(await requestStencilChange(c.get('deps'), bookingId, comment));
  })

  .post('/admin/stencil-changes/:id/waive', requireAdmin, async (c) => {
    const { reason } = await readJson(c, waiveSchema);
    const change = await waiveStencilChange(c.get('deps'), idParam(c), reason, adminActor(c));
    return c.json({ id: change.id, status: change.status, waivedBy: adminActorName(c), waivedReason: change.waivedReason, waivedAt: change.waivedAt?.toISOString() ?? null });
  });
