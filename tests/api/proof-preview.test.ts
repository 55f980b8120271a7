import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { emailOutbox, proofs } from '../../db/schema.ts';
import { createTrackingLink } from '../../src/server/services/projects/tracking.ts';
import { PDF_PREVIEW_LONG_SIDE, PDF_PREVIEW_PNG_MAX_BYTES } from '../../src/server/services/files/pdf-preview.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { buildPdf } from '../fixtures/pdf.ts';
import { insertProofBooking, uploadProofAsStaff } from '../fixtures/proofs.ts';

// A PDF stencil proof's first page becomes an image when staff upload it, so phones (which show
// no PDF inline) and e-mail show the design; it is served under the proof's own guards.

const ctx = await createTestContext();
const db = ctx.deps.db;
const PDF = new Uint8Array(await readFile(new URL('../fixtures/stencil-proof.pdf', import.meta.url)));
const PNG = new Uint8Array(await readFile(new URL('../fixtures/logo.png', import.meta.url)));
/** A file that starts like a PDF but holds no page: stored as it is, with no preview. */
const BROKEN_PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

/** A page that is one photograph, as a mock-up on the pavement is: a JPEG over the whole page. */
async function photoPdf(): Promise<Buffer> {
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(1.2)
    .jpeg({ quality: 85 })
    .toBuffer();
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 600 400] /Resources << /XObject << /Im1 5 0 R >> >> /Contents 4 0 R >>',
    { dictionary: '', stream: 'q 600 0 0 400 0 0 cm /Im1 Do Q' },
    { dictionary: '/Type /XObject /Subtype /Image /Width 1200 /Height 800 /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode', stream: photo },
  ]);
}

const insertBooking = (email?: string) => insertProofBooking(ctx, email);
const upload = (bookingId: number, bytes: Uint8Array, name: string) => uploadProofAsStaff(ctx, bookingId, bytes, name);

async function grantedBrowser(bookingId: number): Promise<string> {
  const token = await createTrackingLink(db, bookingId, ctx.deps.now());
  const response = await ctx.app.request('/api/track-project', jsonRequest({ token }), freshClient());
  expect(response.status).toBe(200);
  return /cp_photos=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![0];
}

const get = (path: string, cookie: string | null) => ctx.app.request(path, { headers: cookie ? { Cookie: cookie } : {} });
const listed = async (bookingId: number, cookie: string) =>
  (await (await get(`/api/bookings/${bookingId}/proofs`, cookie)).json()) as { id: number; previewUrl: string | null; fileUrl: string }[];

describe('a PDF proof’s preview', () => {
  it('is made at upload: the first page as a PNG, listed with the proof and shown inside the "proof ready" e-mail', async () => {
    const booking = await insertBooking();
    const proof = await upload(booking.id, PDF, 'hartley-proof.pdf');
    const admin = await adminCookie(ctx);

    const [row] = await db.select().from(proofs).where(eq(proofs.id, proof.id));
    expect(row!.previewFileName).toMatch(/^proof-preview-[\w-]+\.png$/);
    expect((await listed(booking.id, admin))[0]).toMatchObject({ previewUrl: `/api/proofs/${proof.id}/preview`, fileUrl: `/api/proofs/${proof.id}/file` });

    const response = await get(`/api/proofs/${proof.id}/preview`, admin);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const image = sharp(Buffer.from(await response.arrayBuffer()));
    // The fixture's page is 680 x 454 points: drawn at the preview's long side, in proportion.
    expect(await image.metadata()).toMatchObject({ format: 'png', width: PDF_PREVIEW_LONG_SIDE, height: Math.round((454 / 680) * PDF_PREVIEW_LONG_SIDE) });
    // Page 1 is drawn (the flower's pink petal left of centre), not a blank or page 2.
    const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    const scale = PDF_PREVIEW_LONG_SIDE / 680;
    const [r, g, b] = pixel(Math.round(200 * scale), Math.round((454 - 250 - 70) * scale));
    expect(r).toBeGreaterThan(180);
    expect(g).toBeLessThan(120);
    expect(b).toBeGreaterThan(80);

    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `proof-ready:${proof.id}`));
    expect(mail!.attachments).toEqual([
      expect.objectContaining({ filename: 'stencil-proof-v1.png', type: 'image/png', contentId: 'stencil-proof-preview' }),
    ]);
    expect(Buffer.from(mail!.attachments![0]!.content, 'base64')).toEqual(Buffer.from(await (await get(`/api/proofs/${proof.id}/preview`, admin)).arrayBuffer()));
    expect(mail!.html).toContain('<img src="cid:stencil-proof-preview" alt="Your stencil proof, version 1 (first page)"');
  });

  it('is a JPEG for a page that is a photograph, where a PNG would weigh megabytes', async () => {
    const booking = await insertBooking();
    const proof = await upload(booking.id, new Uint8Array(await photoPdf()), 'mock-up.pdf');
    const response = await get(`/api/proofs/${proof.id}/preview`, await adminCookie(ctx));
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.byteLength).toBeLessThan(PDF_PREVIEW_PNG_MAX_BYTES);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: PDF_PREVIEW_LONG_SIDE });
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `proof-ready:${proof.id}`));
    expect(mail!.attachments).toEqual([expect.objectContaining({ filename: 'stencil-proof-v1.jpg', type: 'image/jpeg' })]);
  });

  it('is served only to staff and to the browser granted the booking; everyone else gets 404', async () => {
    const booking = await insertBooking();
    const other = await insertBooking('ivo@petrovjoinery.co.uk');
    const proof = await upload(booking.id, PDF, 'proof.pdf');
    const granted = await grantedBrowser(booking.id);
    const otherGranted = await grantedBrowser(other.id);

    expect((await get(`/api/proofs/${proof.id}/preview`, granted)).status).toBe(200);
    expect((await listed(booking.id, granted))[0]!.previewUrl).toBe(`/api/proofs/${proof.id}/preview`);
    for (const who of [null, otherGranted, 'cp_photos=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'cp_admin=nope']) {
      expect((await get(`/api/proofs/${proof.id}/preview`, who)).status).toBe(404);
    }
    const [row] = await db.select().from(proofs).where(eq(proofs.id, proof.id));
    expect((await ctx.app.request(`/uploads/${row!.previewFileName}`)).status).toBe(404);
  });

  it('is absent for an image proof and for a PDF that cannot be drawn: that PDF still uploads, with its link', async () => {
    const booking = await insertBooking();
    const admin = await adminCookie(ctx);
    const png = await upload(booking.id, PNG, 'proof.png');
    const broken = await upload(booking.id, BROKEN_PDF, 'damaged.pdf');

    const list = await listed(booking.id, admin);
    expect(list.map((item) => [item.id, item.previewUrl])).toEqual([
      [broken.id, null],
      [png.id, null],
    ]);
    expect((await get(`/api/proofs/${broken.id}/preview`, admin)).status).toBe(404);
    expect((await get(`/api/proofs/${broken.id}/file`, admin)).status).toBe(200);
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `proof-ready:${broken.id}`));
    expect(mail!.attachments).toBeNull();
    expect(mail!.text).toContain('/track-project?t=');
  });
});
