import sharp from 'sharp';
import { crc32 } from 'node:zlib';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, uploadedFiles } from '../../db/schema.ts';
import { MAX_UPLOAD_BYTES } from '../../src/domain/booking-schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { startFakeHttpServer, unreachableUrl } from '../fixtures/fake-http-server.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { bookingsUsing } from '../fixtures/booking-files.ts';

const ctx = await createTestContext();

const PNG = readFileSync(new URL('../fixtures/logo.png', import.meta.url));
const CLEAN_SVG = readFileSync(new URL('../fixtures/logo.svg', import.meta.url), 'utf8');
const MESSAGES = {
  tooLarge: 'File is too large. The maximum size is 10MB.',
  unsupported: 'Unsupported file type. Please upload a PNG, JPG, SVG or PDF.',
  unsafeSvg: 'SVG files with scripts or external references are not accepted',
};

// Each request comes from its own client address, so the upload rate limit only bites where a
// test means it to.
let clientNumber = 0;
const nextClient = () => ({ incoming: { socket: { remoteAddress: `198.51.100.${(clientNumber += 1)}` } } });

function uploadRequest(content: BlobPart, name: string, type: string, init: RequestInit = {}): RequestInit {
  const form = new FormData();
  form.set('file', new File([content], name, { type }));
  return { method: 'POST', body: form, ...init, headers: { Origin: TEST_ORIGIN, ...(init.headers ?? {}) } };
}

const upload = (content: BlobPart, name: string, type: string, init?: RequestInit, client = nextClient()) =>
  ctx.app.request('/api/upload', uploadRequest(content, name, type, init), client);

/** A PNG signature followed by filler: the size is what matters to the limits. */
/**
 * The logo, a real PNG, made exactly `bytes` long by a private ancillary chunk (which decoders
 * skip) after its header: big enough for the size limits, small again once re-encoded.
 */
function pngOfSize(bytes: number): Uint8Array<ArrayBuffer> {
  const source = Buffer.from(PNG);
  const ihdrEnd = 8 + 8 + source.readUInt32BE(8) + 4;
  const padding = bytes - source.length - 12;
  const head = Buffer.alloc(8);
  head.writeUInt32BE(padding, 0);
  head.write('prVt', 4, 'latin1');
  const data = Buffer.alloc(padding);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return new Uint8Array(Buffer.concat([source.subarray(0, ihdrEnd), head, data, crc, source.subarray(ihdrEnd)]));
}

describe('POST /api/upload', () => {
  it('stores a real PNG under a random name and records it unclaimed', async () => {
    const response = await upload(PNG, 'Company Logo.png', 'image/png');
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body).toEqual({
      filename: expect.stringMatching(/^[0-9a-f-]{36}\.png$/),
      originalName: 'Company Logo.png',
      fileSize: expect.any(Number),
      mimeType: 'image/png',
    });
    // Stored as its re-encoded copy (no metadata; tests/api/image-privacy.test.ts): the same pixels.
    const stored = await ctx.deps.files.get(body.filename);
    expect(stored?.size).toBe(body.fileSize);
    const [before, after] = await Promise.all([sharp(PNG).raw().toBuffer(), sharp(stored!.body).raw().toBuffer()]);
    expect(after.equals(before)).toBe(true);
    const [row] = await ctx.deps.db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, body.filename));
    expect(row).toMatchObject({ storage: 'disk', mimeType: 'image/png', fileSize: body.fileSize });
    expect(await bookingsUsing(ctx.deps.db, body.filename)).toEqual([]);
  });

  it('accepts a clean SVG', async () => {
    const response = await upload(CLEAN_SVG, 'logo.svg', 'image/svg+xml');
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ mimeType: 'image/svg+xml', filename: expect.stringMatching(/\.svg$/) });
  });

  it('judges the type by content: a PNG named .pdf is stored as a PNG', async () => {
    const response = await upload(PNG, 'brief.pdf', 'application/pdf');
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ mimeType: 'image/png', filename: expect.stringMatching(/\.png$/) });
  });

  it('refuses a text file named .png with 415', async () => {
    const response = await upload('definitely not an image', 'logo.png', 'image/png');
    expect(response.status).toBe(415);
    expect((await response.json()).error).toBe(MESSAGES.unsupported);
  });

  it.each([
    ['a script element', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>'],
    ['an onload handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>'],
    ['an external reference', '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://evil.example/track.png"/></svg>'],
  ])('refuses an SVG with %s with 415', async (_name, svg) => {
    const response = await upload(svg, 'logo.svg', 'image/svg+xml');
    expect(response.status).toBe(415);
    expect((await response.json()).error).toBe(MESSAGES.unsafeSvg);
  });

  it('keeps nothing of a refused file', async () => {
    const before = await ctx.deps.db.select().from(uploadedFiles);
    await upload('<svg><script>x</script></svg>', 'x.svg', 'image/svg+xml');
    expect(await ctx.deps.db.select().from(uploadedFiles)).toHaveLength(before.length);
  });

  it('accepts a file of exactly 10485760 bytes', async () => {
    const file = pngOfSize(MAX_UPLOAD_BYTES);
    expect(file.byteLength).toBe(MAX_UPLOAD_BYTES);
    const response = await upload(file, 'big.png', 'image/png');
    expect(response.status).toBe(201);
    // Stored as its clean copy: the pixels without the padding.
    expect((await response.json()).fileSize).toBeLessThan(PNG.byteLength * 2);
  });

  it('refuses a file one byte over the limit with 413', async () => {
    const response = await upload(pngOfSize(MAX_UPLOAD_BYTES + 1), 'big.png', 'image/png');
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe(MESSAGES.tooLarge);
  });

  it('refuses an 11 MB file with 413, never 500', async () => {
    const response = await upload(pngOfSize(11 * 1024 * 1024), 'huge.png', 'image/png');
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe(MESSAGES.tooLarge);
  });

  it('refuses an 11 MB body announced by Content-Length before reading it', async () => {
    const response = await ctx.app.request(
      '/api/upload',
      {
        method: 'POST',
        headers: {
          Origin: TEST_ORIGIN,
          'Content-Type': 'multipart/form-data; boundary=x',
          'Content-Length': String(11 * 1024 * 1024),
        },
        body: 'tiny',
      },
      nextClient(),
    );
    expect(response.status).toBe(413);
  });

  it('answers a form without the file field with 400', async () => {
    const form = new FormData();
    form.set('other', 'value');
    const response = await ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } }, nextClient());
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ fields: { file: 'Please choose a file to upload' } });
  });

  it('answers an empty file with 400', async () => {
    const response = await upload(new Uint8Array(0), 'empty.png', 'image/png');
    expect(response.status).toBe(400);
  });

  it('answers a malformed multipart body with 400', async () => {
    const response = await ctx.app.request(
      '/api/upload',
      {
        method: 'POST',
        headers: { Origin: TEST_ORIGIN, 'Content-Type': 'multipart/form-data; boundary=abc' },
        body: 'this is not multipart at all',
      },
      nextClient(),
    );
    expect(response.status).toBe(400);
  });

  it('answers a JSON body with 415', async () => {
    const response = await ctx.app.request('/api/upload', jsonRequest({ file: 'x' }), nextClient());
    expect(response.status).toBe(415);
  });

  it('refuses a cross-site upload with 403', async () => {
    const response = await upload(PNG, 'logo.png', 'image/png', { headers: { Origin: 'https://evil.example' } });
    expect(response.status).toBe(403);
  });

  it('cleans the original name', async () => {
    const response = await upload(PNG, '../../etc/evil\u0000name.png', 'image/png');
    expect((await response.json()).originalName).toBe('evilname.png');
  });

  it('rate limits uploads per client (30 per 10 minutes)', async () => {
    const client = { incoming: { socket: { remoteAddress: '203.0.113.77' } } };
    for (let index = 0; index < 30; index += 1) {
      const response = await upload('x', 'x.txt', 'text/plain', undefined, client);
      expect(response.status).toBe(415);
    }
    const limited = await upload(PNG, 'logo.png', 'image/png', undefined, client);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});

describe('GET /api/files/:fileName', () => {
  it('answers 401 to anyone not signed in as an admin', async () => {
    const created = await (await upload(PNG, 'logo.png', 'image/png')).json();
    const response = await ctx.app.request(`/api/files/${created.filename}`);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'Please sign in to the admin dashboard.' });
  });
});

// A stand-in for Uploadcare's REST API: file facts by UUID (GET /files/{uuid}/), storing a
// file (PUT /files/{uuid}/storage/), 404 for a UUID it does not know.
const UUID = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
const NOT_READY = '44444444-4444-4444-8444-444444444444';
const ready = (uuid: string, size: number, mimeType: string, name: string) => ({
  uuid,
  size,
  mime_type: mimeType,
  original_filename: name,
  is_ready: true,
  datetime_removed: null,
  datetime_stored: null as string | null,
});
const facts = new Map<string, ReturnType<typeof ready> | Record<string, unknown>>([
  [UUID, ready(UUID, 2_400_000, 'image/png', 'Brand Logo.png')],
  ['11111111-1111-4111-8111-111111111111', ready('x', 11 * 1024 * 1024, 'image/png', 'huge.png')],
  ['22222222-2222-4222-8222-222222222222', ready('x', 2000, 'text/html', 'page.png')],
  ['33333333-3333-4333-8333-333333333333', ready('x', 900, 'image/svg+xml', 'logo.svg')],
  // Still arriving: Uploadcare knows the file but has not finished with it.
  [NOT_READY, { uuid: NOT_READY, size: 0, mime_type: 'application/octet-stream', original_filename: 'Shop Front.jpg', is_ready: false, datetime_removed: null }],
]);
/** UUIDs whose storing Uploadcare fails, with the status it answers. */
const storeFailures = new Map<string, number>();
/** UUIDs whose storing Uploadcare takes until the test settles the promise. */
const slowStores = new Map<string, Promise<void>>();
const uploadcare = await startFakeHttpServer(async (request) => {
  const [, uuid = '', action] = /^\/files\/([^/]+)\/(storage\/)?$/.exec(request.url) ?? [];
  const file = facts.get(uuid);
  if (!file) return { status: 404, json: { detail: 'Not found.' } };
  if (request.method === 'GET' && !action) return { json: file };
  if (request.method === 'PUT' && action) {
    await slowStores.get(uuid);
    const failure = storeFailures.get(uuid);
    if (failure) return { status: failure, json: { detail: 'Service unavailable.' } };
    file.datetime_stored = '2026-11-22T10:00:00Z';
    return { json: file };
  }
  return { status: 405, json: { detail: 'Method not allowed.' } };
});
const storeRequestsFor = (uuid: string) =>
  uploadcare.requests.filter((request) => request.method === 'PUT' && request.url === `/files/${uuid}/storage/`);

const configured = {
  ...ctx.deps.env,
  PUBLIC_UPLOADCARE_PUBLIC_KEY: 'demopublickey',
  UPLOADCARE_SECRET_KEY: 'demosecretkey',
  UPLOADCARE_API_URL: uploadcare.url,
};
const app = createApp({ ...ctx.deps, env: configured });
const verify = (uuid: string, target = app) =>
  target.request('/api/upload/uploadcare', jsonRequest({ uuid }), nextClient());

describe('Uploadcare', () => {
  it('answers 503 when Uploadcare is not configured', async () => {
    const response = await verify(UUID, ctx.app);
    expect(response.status).toBe(503);
    expect((await response.json()).error).toBe('Uploadcare is not configured');
    const signature = await ctx.app.request('/api/upload/uploadcare-signature', {}, nextClient());
    expect(signature.status).toBe(503);
  });

  it('verifies a file with Uploadcare and records it unclaimed', async () => {
    const response = await verify(UUID);
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({
      filename: UUID,
      originalName: 'Brand Logo.png',
      fileSize: 2_400_000,
      mimeType: 'image/png',
    });
    const asked = uploadcare.requests.at(-1)!;
    expect(asked.url).toBe(`/files/${UUID}/`);
    expect(asked.headers.authorization).toBe('Uploadcare.Simple demopublickey:demosecretkey');
    expect(asked.headers.accept).toBe('application/vnd.uploadcare-v0.7+json');
    const [row] = await ctx.deps.db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, UUID));
    expect(row).toMatchObject({ storage: 'uploadcare', fileSize: 2_400_000 });
    expect(await bookingsUsing(ctx.deps.db, UUID)).toEqual([]);
    // Not stored yet: a file no booking claims is Uploadcare's to delete after 24 hours.
    expect(storeRequestsFor(UUID)).toHaveLength(0);
  });

  it('refuses a file Uploadcare is still processing with 409 and a message the form can show', async () => {
    const response = await verify(NOT_READY);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: 'The file is still being processed. Please try again in a moment.',
      fields: { file: 'The file is still being processed. Please try again in a moment.' },
    });
    expect(await ctx.deps.db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, NOT_READY))).toHaveLength(0);
  });

  it('answers a second verification of the same file with the same record', async () => {
    const response = await verify(UUID);
    expect(response.status).toBe(200);
    expect((await response.json()).filename).toBe(UUID);
    expect(await ctx.deps.db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, UUID))).toHaveLength(1);
  });

  it('refuses a file over 10 MB with 413 and a type outside the list with 415', async () => {
    const big = await verify('11111111-1111-4111-8111-111111111111');
    expect(big.status).toBe(413);
    expect((await big.json()).error).toBe(MESSAGES.tooLarge);
    const html = await verify('22222222-2222-4222-8222-222222222222');
    expect(html.status).toBe(415);
    expect((await html.json()).error).toBe(MESSAGES.unsupported);
  });

  it('refuses SVG on this path: its content is only checked by the direct upload', async () => {
    const response = await verify('33333333-3333-4333-8333-333333333333');
    expect(response.status).toBe(415);
    expect((await response.json()).error).toBe('SVG files must be uploaded through the site so they can be checked');
  });

  it('answers 400 for a file Uploadcare does not know and for a malformed id', async () => {
    const unknown = await verify('99999999-9999-4999-8999-999999999999');
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).error).toBe('Uploaded file not found');
    const malformed = await verify('../../etc/passwd');
    expect(malformed.status).toBe(400);
  });

  it('answers 503 when Uploadcare cannot be reached', async () => {
    const down = createApp({ ...ctx.deps, env: { ...configured, UPLOADCARE_API_URL: await unreachableUrl() } });
    const response = await verify(UUID, down);
    expect(response.status).toBe(503);
  });

  it('signs uploads for 30 minutes with the secret key', async () => {
    const response = await app.request('/api/upload/uploadcare-signature', {}, nextClient());
    expect(response.status).toBe(200);
    const body = await response.json();
    const expire = Math.floor(ctx.deps.now().getTime() / 1000) + 30 * 60;
    expect(body).toEqual({
      publicKey: 'demopublickey',
      expire,
      signature: createHmac('sha256', 'demosecretkey').update(String(expire)).digest('hex'),
    });
  });
});

describe('a booking that attaches files from Uploadcare', () => {
  let uuidNumber = 0;
  /** A new file at the fake Uploadcare, verified and recorded unclaimed as the form would. */
  async function uploadedToUploadcare(name: string) {
    uuidNumber += 1;
    const uuid = `5e5e5e5e-0000-4000-8000-${String(uuidNumber).padStart(12, '0')}`;
    facts.set(uuid, ready(uuid, 48_000, 'image/jpeg', name));
    const response = await verify(uuid);
    expect(response.status).toBe(201);
    return (await response.json()) as { filename: string; originalName: string; fileSize: number; mimeType: string };
  }
  let day = 0;
  const book = (files: unknown[], target = app) =>
    target.request(
      '/api/bookings',
      jsonRequest(bookingPayload({ quantity: 5, preferredDate: `2027-09-${String((day += 1)).padStart(2, '0')}`, uploadedFiles: files })),
      freshClient(),
    );
  const bookingCount = async () => (await ctx.deps.db.select({ id: bookings.id }).from(bookings)).length;
  const rowOf = async (uuid: string) => (await ctx.deps.db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, uuid)))[0];

  it('stores each file with Uploadcare, so it outlives the 24 hours Uploadcare keeps unstored files', async () => {
    const logo = await uploadedToUploadcare('Logo.jpg');
    const artwork = await uploadedToUploadcare('Artwork.jpg');
    const response = await book([logo, artwork]);
    expect(response.status).toBe(201);
    const { id } = await response.json();
    for (const file of [logo, artwork]) {
      const stored = storeRequestsFor(file.filename);
      expect(stored).toHaveLength(1);
      expect(stored[0]!.headers.authorization).toBe('Uploadcare.Simple demopublickey:demosecretkey');
      expect(stored[0]!.headers.accept).toBe('application/vnd.uploadcare-v0.7+json');
      expect(await bookingsUsing(ctx.deps.db, file.filename)).toEqual([id]);
    }
  });

  it('holds no lock while Uploadcare stores: another booking for the same date goes through meanwhile', async () => {
    const logo = await uploadedToUploadcare('Logo.jpg');
    let finishStoring!: () => void;
    slowStores.set(logo.filename, new Promise<void>((resolve) => (finishStoring = resolve)));
    const date = '2027-10-15';
    const withFile = app.request(
      '/api/bookings',
      jsonRequest(bookingPayload({ quantity: 5, preferredDate: date, uploadedFiles: [logo] })),
      freshClient(),
    );
    await vi.waitFor(() => expect(storeRequestsFor(logo.filename)).toHaveLength(1));

    const meanwhile = await app.request('/api/bookings', jsonRequest(bookingPayload({ quantity: 5, preferredDate: date })), freshClient());
    expect(meanwhile.status).toBe(201);

    finishStoring();
    const booked = await withFile;
    expect(booked.status).toBe(201);
    expect(await bookingsUsing(ctx.deps.db, logo.filename)).toEqual([(await booked.json()).id]);
  });

  it('makes no booking when Uploadcare cannot store a file, and the file can be booked again', async () => {
    const logo = await uploadedToUploadcare('Logo.jpg');
    storeFailures.set(logo.filename, 503);
    const before = await bookingCount();
    const refused = await book([logo]);
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toBe(
      'Your uploaded files could not be saved just now, so the booking was not made. Please try again.',
    );
    expect(await bookingCount()).toBe(before);
    expect(await rowOf(logo.filename)).toBeDefined();
    expect(await bookingsUsing(ctx.deps.db, logo.filename)).toEqual([]);

    storeFailures.delete(logo.filename);
    const retried = await book([logo]);
    expect(retried.status).toBe(201);
    expect(await bookingsUsing(ctx.deps.db, logo.filename)).toEqual([(await retried.json()).id]);
  });

  it('makes no booking when Uploadcare no longer has a file, naming it', async () => {
    const logo = await uploadedToUploadcare('Shop Logo.jpg');
    facts.delete(logo.filename);
    const before = await bookingCount();
    const refused = await book([logo]);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ fields: { uploadedFiles: 'Uploaded file not found: Shop Logo.jpg' } });
    expect(await bookingCount()).toBe(before);
  });

  it('makes no booking when Uploadcare cannot be reached', async () => {
    const logo = await uploadedToUploadcare('Logo.jpg');
    const down = createApp({ ...ctx.deps, env: { ...configured, UPLOADCARE_API_URL: await unreachableUrl() } });
    const before = await bookingCount();
    expect((await book([logo], down)).status).toBe(503);
    expect(await bookingCount()).toBe(before);
    expect(await rowOf(logo.filename)).toBeDefined();
    expect(await bookingsUsing(ctx.deps.db, logo.filename)).toEqual([]);
  });

  it('asks Uploadcare nothing for files uploaded through the site', async () => {
    const created = await (await upload(PNG, 'logo.png', 'image/png')).json();
    const before = uploadcare.requests.length;
    expect((await book([created])).status).toBe(201);
    expect(uploadcare.requests.length).toBe(before);
  });
});
