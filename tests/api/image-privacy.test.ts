import { readFile } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, photos, workers } from '../../db/schema.ts';
import { insertCrewLink } from '../../src/server/services/crew/crew-links.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { insertRoutableBooking } from '../fixtures/routable-bookings.ts';
import { readImageMetadata } from '../fixtures/image-metadata-reader.ts';
import { freshClient } from '../fixtures/bookings.ts';

// Every upload path that stores an image a customer or the public can fetch (admin photo, crew
// photo, booking file) runs the same real-world files: each served copy is read back with an
// EXIF reader and must carry no metadata at all, GPS least of all.

const ctx = await createTestContext();
const db = ctx.deps.db;
const DAY = '2026-11-23';
ctx.setNow('2026-11-23T09:00:00Z');

const fixture = async (name: string) => new Uint8Array(await readFile(new URL(`../fixtures/images/${name}`, import.meta.url)));

const CLEANABLE = [
  ['a camera JPEG with GPS', 'camera-gps.jpg', 'image/jpeg', 'jpeg'],
  ['an iPhone JPEG converted from HEIC, taken sideways, with GPS and XMP', 'iphone-gps.jpg', 'image/jpeg', 'jpeg'],
  ['a JPEG with a junk byte after its Exif block', 'junk-after-exif.jpg', 'image/jpeg', 'jpeg'],
  ['a PNG with eXIf, tEXt and iTXt chunks', 'exif-text.png', 'image/png', 'png'],
  ['a WebP with EXIF and XMP', 'exif-xmp.webp', 'image/webp', 'webp'],
] as const;

let cookie: string;
let bookingId: number;
let crewToken: string;

beforeAll(async () => {
  cookie = await adminCookie(ctx);
  bookingId = await insertRoutableBooking(db, {
    preferredDate: DAY,
    currentStep: 3,
    installationDate: new Date('2026-11-23T18:00:00Z'),
    paymentStatus: 'paid',
  });
  const [worker] = await db.insert(workers).values({ email: 'privacy@crew.co.uk', name: 'Pat Crew' }).returning({ id: workers.id });
  crewToken = await insertCrewLink(db, worker!.id, DAY, new Date('2026-11-22T18:00:00Z'));
});

async function served(path: string, init: RequestInit = {}) {
  const response = await ctx.app.request(path, init);
  expect(response.status).toBe(200);
  return new Uint8Array(await response.arrayBuffer());
}

async function expectClean(bytes: Uint8Array, format: string) {
  const found = await readImageMetadata(bytes);
  expect(found.format).toBe(format);
  expect(found.blocks).toEqual([]);
  expect(found.gps).toBe(false);
  return found;
}

function adminPhotoForm(file: Uint8Array<ArrayBuffer>, name: string, type: string) {
  const form = new FormData();
  form.set('photo', new File([file], name, { type }));
  form.set('photoType', 'after');
  return form;
}

const sendAdminPhoto = (form: FormData) =>
  ctx.app.request(`/api/bookings/${bookingId}/photos`, { method: 'POST', headers: { Cookie: cookie, Origin: TEST_ORIGIN }, body: form });

let crewKey = 0;
const sendCrewPhoto = (form: FormData) => {
  crewKey += 1;
  form.set('takenAt', '2026-11-23T08:58:00.000Z');
  form.set('lat', '53.4808');
  form.set('lng', '-2.2369');
  return ctx.app.request(`/api/crew/stops/${bookingId}/photos`, {
    method: 'POST',
    headers: { Origin: TEST_ORIGIN, Authorization: `Bearer ${crewToken}`, 'Idempotency-Key': `privacy-${crewKey}` },
    body: form,
  });
};

describe('the fixtures', () => {
  it.each(CLEANABLE)('%s carries metadata to remove', async (_name, file) => {
    const found = await readImageMetadata(await fixture(file));
    expect(found.blocks.length).toBeGreaterThan(0);
    if (file !== 'exif-xmp.webp') expect(found.gps).toBe(true);
  });
});

describe.each([
  ['an admin photo', sendAdminPhoto],
  ['a crew photo', sendCrewPhoto],
])('%s', (_path, send) => {
  it.each(CLEANABLE)('stores %s with no metadata, photo and thumbnail alike', async (_name, file, type, format) => {
    const bytes = await fixture(file);
    const form = adminPhotoForm(bytes, file, type);
    // A thumbnail the phone made, GPS and all: the server makes its own instead.
    form.set('thumbnail', new File([await fixture('camera-gps.jpg')], 'thumb.jpg', { type: 'image/jpeg' }));
    const response = await send(form);
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    const [row] = await db.select().from(photos).where(eq(photos.id, id));
    const photo = await expectClean(await served(`/uploads/${row!.fileName}`), format);
    expect(row!.fileSize).toBeGreaterThan(0);
    const thumb = await expectClean(await served(`/uploads/${row!.thumbnailFileName}`), 'jpeg');
    expect(Math.max(thumb.width, thumb.height)).toBeLessThanOrEqual(480);
    if (file === 'iphone-gps.jpg') {
      // Turned upright from its orientation tag, since the tag itself is gone.
      expect([photo.width, photo.height]).toEqual([360, 480]);
      expect(thumb.height).toBeGreaterThan(thumb.width);
    }
  });

  it('refuses a truncated JPEG with 415 and stores nothing', async () => {
    const before = (await db.select().from(photos)).length;
    const response = await send(adminPhotoForm(await fixture('truncated.jpg'), 'truncated.jpg', 'image/jpeg'));
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ error: 'This image could not be read. Please choose another file.' });
    expect(await db.select().from(photos)).toHaveLength(before);
  });

  it('refuses a 20 000 x 20 000 PNG with 413 before decoding it', async () => {
    const response = await send(adminPhotoForm(await fixture('huge-20000.png'), 'huge.png', 'image/png'));
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'Image is too large. The maximum is 50 megapixels.' });
  });
});

describe('a booking file that is an image', () => {
  const upload = async (file: string, type: string) => {
    const form = new FormData();
    form.set('file', new File([await fixture(file)], file, { type }));
    return ctx.app.request('/api/upload', { method: 'POST', headers: { Origin: TEST_ORIGIN }, body: form }, freshClient());
  };

  it.each(CLEANABLE.filter(([, , type]) => type !== 'image/webp'))('is stored as %s with no metadata', async (_name, file, type, format) => {
    const response = await upload(file, type);
    expect(response.status).toBe(201);
    const body = (await response.json()) as { filename: string; fileSize: number };
    const bytes = await served(`/api/files/${body.filename}`, adminRequest(cookie));
    await expectClean(bytes, format);
    expect(body.fileSize).toBe(bytes.byteLength);
  });

  it('refuses a truncated JPEG (415) and a 20 000 x 20 000 PNG (413)', async () => {
    expect((await upload('truncated.jpg', 'image/jpeg')).status).toBe(415);
    expect((await upload('huge-20000.png', 'image/png')).status).toBe(413);
  });
});

describe('the public gallery', () => {
  it("shows staff's after photos of a finished project, never the crew's proof photos", async () => {
    const form = adminPhotoForm(await fixture('camera-gps.jpg'), 'after.jpg', 'image/jpeg');
    expect((await sendCrewPhoto(form)).status).toBe(201);
    await db.update(bookings).set({ status: 'completed', currentStep: 5, completionDate: new Date('2026-11-24T10:00:00Z') }).where(eq(bookings.id, bookingId));
    const response = await ctx.app.request(`/api/gallery/${bookingId}`);
    expect(response.status).toBe(200);
    const listed = ((await response.json()) as { photos: { id: number }[] }).photos.map((photo) => photo.id);
    const crewPhotos = await db.select({ id: photos.id, workerId: photos.workerId }).from(photos).where(eq(photos.bookingId, bookingId));
    expect(listed.length).toBeGreaterThan(0);
    for (const photo of crewPhotos) expect(listed.includes(photo.id)).toBe(photo.workerId === null);
  });
});
