import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { uploadedFiles } from '../../db/schema.ts';
import { MAX_UPLOAD_BYTES } from '../../src/domain/booking-schema.ts';
import { UPLOAD_PART_BYTES } from '../../src/domain/upload-parts.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { bookingsUsing } from '../fixtures/booking-files.ts';

// Files above one part (4 MiB) arrive in parts that each fit a Netlify function call: opened,
// sent in any order (a failed part sent again), completed into one stored file. The same limits
// as a single upload: 10485760 bytes in all, the type judged from the content, the quota.

const ctx = await createTestContext();
const db = ctx.deps.db;

/** A "PDF" of `size` bytes: the signature, then bytes that differ by position (so order matters). */
function pdfOfSize(size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + (i >> 12)) & 255;
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'), 0);
  return bytes;
}

const start = (name: string, size: number, client = freshClient()) =>
  ctx.app.request('/api/upload/parts', jsonRequest({ name, size }), client);
const sendPart = (id: string, index: number, bytes: Uint8Array) =>
  ctx.app.request(`/api/upload/parts/${id}/${index}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/octet-stream', Origin: TEST_ORIGIN },
    body: bytes as Uint8Array<ArrayBuffer>,
  }, freshClient());
const complete = (id: string) => ctx.app.request(`/api/upload/parts/${id}/complete`, jsonRequest({}), freshClient());
const partOf = (file: Uint8Array, index: number) => file.subarray(index * UPLOAD_PART_BYTES, (index + 1) * UPLOAD_PART_BYTES);

async function open(file: Uint8Array, name = 'Brand guide.pdf') {
  const response = await start(name, file.byteLength);
  expect(response.status).toBe(201);
  return (await response.json()) as { uploadId: string; partSize: number; partCount: number };
}

describe('a 10 MB file in parts', () => {
  it('stores the exact bytes once every part arrived, out of order and one twice, and the booking claims it', async () => {
    const file = pdfOfSize(MAX_UPLOAD_BYTES);
    const { uploadId, partCount, partSize } = await open(file);
    expect([partCount, partSize]).toEqual([3, UPLOAD_PART_BYTES]);
    for (const index of [2, 0, 1, 1]) expect((await sendPart(uploadId, index, partOf(file, index))).status).toBe(200);

    const done = await complete(uploadId);
    expect(done.status).toBe(201);
    const stored = await done.json();
    expect(stored).toMatchObject({ originalName: 'Brand guide.pdf', fileSize: MAX_UPLOAD_BYTES, mimeType: 'application/pdf' });
    // Completing again (a retried request) is the same file, nothing new.
    const again = await complete(uploadId);
    expect([again.status, (await again.json()).filename]).toEqual([200, stored.filename]);
    expect(await db.select().from(uploadedFiles).where(eq(uploadedFiles.originalName, 'Brand guide.pdf'))).toHaveLength(1);

    const saved = await ctx.deps.files.get(stored.filename);
    expect(saved!.size).toBe(MAX_UPLOAD_BYTES);
    expect(Buffer.from(saved!.body).equals(Buffer.from(file))).toBe(true);

    const booked = await ctx.app.request(
      '/api/bookings',
      jsonRequest(bookingPayload({ preferredDate: '2027-08-10', uploadedFiles: [stored] })),
      freshClient(),
    );
    expect(booked.status).toBe(201);
    expect(await bookingsUsing(db, stored.filename)).toEqual([(await booked.json()).id]);

    // The admin downloads it whole, streamed through /api/files/*.
    const cookie = await adminCookie(ctx);
    const download = await ctx.app.request(`/api/files/${stored.filename}`, { headers: { Cookie: cookie } });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-length')).toBe(String(MAX_UPLOAD_BYTES));
    expect(Buffer.from(await download.arrayBuffer()).equals(Buffer.from(file))).toBe(true);
  });

  it('a part that failed is simply sent again: the others stay, completion waits for it', async () => {
    const file = pdfOfSize(9 * 1024 * 1024);
    const { uploadId } = await open(file, 'Retry.pdf');
    expect((await sendPart(uploadId, 0, partOf(file, 0))).status).toBe(200);
    // Part 1 cut short on the way (a dropped connection): refused, nothing recorded for it.
    expect((await sendPart(uploadId, 1, partOf(file, 1).subarray(0, 1000))).status).toBe(400);
    expect((await sendPart(uploadId, 2, partOf(file, 2))).status).toBe(200);
    const early = await complete(uploadId);
    expect(early.status).toBe(409);
    expect(await early.json()).toMatchObject({ error: 'Some parts of the file have not arrived yet', fields: { parts: '1' } });
    expect((await sendPart(uploadId, 1, partOf(file, 1))).status).toBe(200);
    const done = await complete(uploadId);
    expect(done.status).toBe(201);
    const saved = await ctx.deps.files.get((await done.json()).filename);
    expect(Buffer.from(saved!.body).equals(Buffer.from(file))).toBe(true);
  });
});

describe('the limits of a single upload hold for parts', () => {
  it('refuses a total over 10485760 bytes before any part is sent', async () => {
    const response = await start('Huge.pdf', MAX_UPLOAD_BYTES + 1);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'File is too large. The maximum size is 10MB.' });
  });

  it('refuses an empty file and a part that is not the file’s', async () => {
    expect((await start('Empty.pdf', 0)).status).toBe(400);
    const file = pdfOfSize(5 * 1024 * 1024);
    const { uploadId } = await open(file, 'Two parts.pdf');
    expect((await sendPart(uploadId, 2, partOf(file, 1))).status).toBe(400);
    expect((await sendPart('00000000-0000-4000-8000-000000000000', 0, partOf(file, 0))).status).toBe(404);
    // A part longer than a part is refused by its size alone.
    const tooLong = await sendPart(uploadId, 0, new Uint8Array(UPLOAD_PART_BYTES + 1));
    expect(tooLong.status).toBe(413);
  });

  it('judges the type from the first part’s content: an executable renamed .pdf is refused, and never completes', async () => {
    const file = pdfOfSize(5 * 1024 * 1024);
    file.set([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04], 0); // "MZ": a Windows program
    const { uploadId } = await open(file, 'Invoice.pdf');
    const refused = await sendPart(uploadId, 0, partOf(file, 0));
    expect(refused.status).toBe(415);
    expect(await refused.json()).toMatchObject({ error: 'Unsupported file type. Please upload a PNG, JPG, SVG or PDF.' });
    expect((await sendPart(uploadId, 1, partOf(file, 1))).status).toBe(200);
    expect((await complete(uploadId)).status).toBe(409);
  });

  it('past the site-wide quota of unclaimed uploads, a client that stored nothing is asked for a proof of work', async () => {
    const small = await createTestContext({ UNCLAIMED_UPLOAD_QUOTA_MB: 8 });
    const response = await small.app.request('/api/upload/parts', jsonRequest({ name: 'Big.pdf', size: 9 * 1024 * 1024 }), freshClient());
    expect(response.status).toBe(428);
  });
});
