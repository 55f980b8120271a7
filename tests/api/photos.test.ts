import sharp from 'sharp';
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { bookings, photos, uploadedFiles } from '../../db/schema.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { TEST_ORIGIN, createTestContext, jsonRequest } from '../setup/test-app.ts';

const ctx = await createTestContext();
const PNG = new Uint8Array(await readFile(new URL('../fixtures/logo.png', import.meta.url)));
let sequence = 0;

async function bookingWithPhotos() {
  sequence += 1;
  const preferredDate = `2027-08-${String(sequence).padStart(2, '0')}`;
  const created = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate })), freshClient());
  const { id } = (await created.json()) as { id: number };
  const names = [`photo-${sequence}-a.png`, `photo-${sequence}-b.png`];
  for (const [index, fileName] of names.entries()) {
    await ctx.deps.files.put(fileName, PNG, 'image/png');
    await ctx.deps.db.insert(photos).values({
      bookingId: id,
      fileName,
      originalName: `Market Street ${index + 1}.png`,
      description: index ? 'After: the logo cleaned into the slabs' : 'Before: the pavement as we found it',
      photoType: index ? 'after' : 'before',
      step: index ? 5 : 4,
      fileSize: PNG.byteLength,
      mimeType: 'image/png',
    });
  }
  return { id, names };
}

/** Tracks the booking and returns the photo cookie the browser would keep. */
async function grantCookie(id: number, existing?: string): Promise<string> {
  const response = await ctx.app.request(
    '/api/track-project',
    jsonRequest({ email: bookingPayload().email, bookingId: id }, existing ? { headers: { Cookie: existing } } : {}),
    freshClient(),
  );
  expect(response.status).toBe(200);
  const setCookie = response.headers.get('set-cookie')!;
  expect(setCookie).toMatch(/HttpOnly/i);
  expect(setCookie).toMatch(/SameSite=Lax/i);
  expect(setCookie).toMatch(/Path=\//);
  return setCookie.split(';')[0]!;
}

const listPhotos = (id: number, cookie?: string) =>
  ctx.app.request(`/api/bookings/${id}/photos`, cookie ? { headers: { Cookie: cookie } } : {});

describe('GET /api/bookings/:id/photos', () => {
  it("lists the booking's photos for the browser that tracked it", async () => {
    const { id, names } = await bookingWithPhotos();
    const response = await listPhotos(id, await grantCookie(id));
    expect(response.status).toBe(200);
    const list = await response.json();
    expect(list.map((photo: { fileName: string }) => photo.fileName)).toEqual(names);
    expect(Object.keys(list[0]).sort()).toEqual(['createdAt', 'description', 'fileName', 'fileSize', 'id', 'originalName', 'photoType', 'step']);
    expect(list[0]).toMatchObject({ photoType: 'before', step: 4, fileSize: PNG.byteLength });
  });

  it('answers the same 404 for an unknown booking, another booking and no grant', async () => {
    const mine = await bookingWithPhotos();
    const other = await bookingWithPhotos();
    const cookie = await grantCookie(mine.id);
    const answers = [await listPhotos(other.id, cookie), await listPhotos(999_999, cookie), await listPhotos(mine.id), await listPhotos(mine.id, 'cp_photos=forged-value')];
    for (const response of answers) {
      expect(response.status).toBe(404);
      const { requestId: _requestId, ...body } = await response.json();
      expect(body).toEqual({ error: 'Not found' });
    }
  });

  it('keeps grants for several bookings in one cookie', async () => {
    const first = await bookingWithPhotos();
    const second = await bookingWithPhotos();
    const cookie = await grantCookie(second.id, await grantCookie(first.id));
    expect((await listPhotos(first.id, cookie)).status).toBe(200);
    expect((await listPhotos(second.id, cookie)).status).toBe(200);
  });

  it('stops answering when the grant has expired', async () => {
    const { id } = await bookingWithPhotos();
    const cookie = await grantCookie(id);
    ctx.setNow(new Date(ctx.deps.now().getTime() + 2 * 60 * 60 * 1000 + 1000));
    try {
      expect((await listPhotos(id, cookie)).status).toBe(404);
    } finally {
      ctx.setNow('2026-11-22T10:00:00Z');
    }
  });

  it('answers an admin without a grant, and 404 for a booking that does not exist', async () => {
    const { id } = await bookingWithPhotos();
    const cookie = await adminCookie(ctx);
    const response = await ctx.app.request(`/api/bookings/${id}/photos`, adminRequest(cookie));
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveLength(2);
    expect((await ctx.app.request('/api/bookings/999999/photos', adminRequest(cookie))).status).toBe(404);
  });
});

describe('GET /uploads/:fileName', () => {
  it('serves a photo inline as its image type, not sniffable, cached privately', async () => {
    const { names } = await bookingWithPhotos();
    const response = await ctx.app.request(`/uploads/${names[0]}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toMatch(/^private, max-age=\d+/);
    expect(response.headers.get('content-disposition')).toMatch(/^inline; filename="Market Street 1.png"/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(PNG);
  });

  it('offers the photo as a download with ?download=1', async () => {
    const { names } = await bookingWithPhotos();
    const response = await ctx.app.request(`/uploads/${names[1]}?download=1`);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="Market Street 2.png"/);
  });

  it('never serves an SVG inline', async () => {
    const [booking] = await ctx.deps.db.select({ id: bookings.id }).from(bookings).limit(1);
    await ctx.deps.files.put('drawing.svg', new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>'), 'image/svg+xml');
    await ctx.deps.db.insert(photos).values({
      bookingId: booking!.id, fileName: 'drawing.svg', originalName: 'drawing.svg', photoType: 'reference', step: 1, fileSize: 42, mimeType: 'image/svg+xml',
    });
    const response = await ctx.app.request('/uploads/drawing.svg');
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('answers 404 for a name that is not a photo', async () => {
    await ctx.deps.files.put('not-a-photo.png', PNG, 'image/png');
    expect((await ctx.app.request('/uploads/not-a-photo.png')).status).toBe(404);
    expect((await ctx.app.request('/uploads/..%2Fsecret')).status).toBe(404);
  });
});

describe('GET /api/files/:fileName', () => {
  async function uploadBrandFile() {
    const form = new FormData();
    form.set('file', new File([PNG], 'brand logo.png', { type: 'image/png' }));
    const response = await ctx.app.request('/api/upload', { method: 'POST', body: form, headers: { Origin: TEST_ORIGIN } }, freshClient());
    return ((await response.json()) as { filename: string }).filename;
  }

  it('answers 401 to anyone not signed in as an admin', async () => {
    const fileName = await uploadBrandFile();
    const response = await ctx.app.request(`/api/files/${fileName}`);
    expect(response.status).toBe(401);
  });

  it('gives an admin the file as a sandboxed download', async () => {
    const fileName = await uploadBrandFile();
    const response = await ctx.app.request(`/api/files/${fileName}`, adminRequest(await adminCookie(ctx)));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="brand logo.png"/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toBe('sandbox');
    // The stored copy is the re-encoded image: the same pixels as the upload.
    const [sent, got] = await Promise.all([sharp(PNG).raw().toBuffer(), sharp(new Uint8Array(await response.arrayBuffer())).raw().toBuffer()]);
    expect(got.equals(sent)).toBe(true);
  });

  it("sends an admin to Uploadcare's CDN for a file stored there", async () => {
    const uuid = '3f2b8c1e-5d4a-4e6f-9a7b-1c2d3e4f5a6b';
    await ctx.deps.db.insert(uploadedFiles).values({ fileName: uuid, originalName: 'big.pdf', fileSize: 5_000_000, mimeType: 'application/pdf', storage: 'uploadcare' });
    const response = await ctx.app.request(`/api/files/${uuid}`, adminRequest(await adminCookie(ctx)));
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`https://ucarecdn.com/${uuid}/`);
  });

  it('answers an admin 404 for an unknown file', async () => {
    const response = await ctx.app.request('/api/files/nothing-here.png', adminRequest(await adminCookie(ctx)));
    expect(response.status).toBe(404);
  });
});
