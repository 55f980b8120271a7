import { describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { bookingLocations, bookings, channelLogs, emailOutbox, photos, progressLogs } from '../../db/schema.ts';
import { createTrackingLink } from '../../src/server/services/projects/tracking.ts';
import { adminCookie, staffUser } from '../setup/admin.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { readPdf } from '../fixtures/pdf-reader.ts';

// Staff hide a photo from the customer and show it again (services/projects/photo-visibility.ts):
// every reader the customer reaches leaves it out, staff still see it, marked.

const ctx = await createTestContext();
const db = ctx.deps.db;
const JPEG = new Uint8Array(await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } }).jpeg().toBuffer());

let sequence = 0;

/** A completed project at one place with two after photos (each with a thumbnail) and a before photo. */
async function project(values: Partial<typeof bookings.$inferInsert> = {}) {
  sequence += 1;
  const [booking] = await db
    .insert(bookings)
    .values({
      firstName: 'Nadia',
      lastName: `Okafor${sequence}`,
      businessName: 'Okafor Florists',
      email: `nadia${sequence}@okaforflorists.co.uk`,
      phone: '0113 496 0202',
      quantity: 6,
      locationAddress: '2 Briggate, Leeds LS1 6HD',
      postcode: 'LS1',
      workType: 'day',
      preferredDate: '2027-06-08',
      totalPricePence: 40_900,
      status: 'completed',
      currentStep: 5,
      statusNotes: 'All six patches photographed',
      installationDate: new Date('2027-06-08T09:00:00Z'),
      completionDate: new Date('2027-06-08T16:00:00Z'),
      ...values,
    })
    .returning();
  const id = booking!.id;
  await db.insert(bookingLocations).values({ bookingId: id, position: 0, address: '2 Briggate, Leeds LS1 6HD', lat: 53.7965, lng: -1.5418 });
  const rows = [
    { key: 'shown', photoType: 'after' as const, description: 'Finished patch by the door' },
    { key: 'hidden', photoType: 'after' as const, description: 'A passer-by in shot' },
    { key: 'before', photoType: 'before' as const, description: 'The pavement as we found it' },
  ];
  const inserted: Record<string, typeof photos.$inferSelect> = {};
  for (const row of rows) {
    const fileName = `photo-${id}-${row.key}.jpg`;
    const thumbnailFileName = `photo-${id}-${row.key}-thumb.jpg`;
    await ctx.deps.files.put(fileName, JPEG, 'image/jpeg');
    await ctx.deps.files.put(thumbnailFileName, JPEG, 'image/jpeg');
    const [photo] = await db
      .insert(photos)
      .values({
        bookingId: id,
        fileName,
        thumbnailFileName,
        originalName: `${row.key}.jpg`,
        description: row.description,
        photoType: row.photoType,
        step: row.photoType === 'after' ? 5 : 4,
        fileSize: JPEG.byteLength,
        mimeType: 'image/jpeg',
        takenAt: new Date('2027-06-08T15:00:00Z'),
        lat: 53.7965,
        lng: -1.5418,
        accuracyM: 6,
      })
      .returning();
    inserted[row.key] = photo!;
  }
  return { booking: booking!, shown: inserted.shown!, hidden: inserted.hidden!, before: inserted.before! };
}

const post = (path: string, cookie: string | null) =>
  ctx.app.request(path, { method: 'POST', headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}) } });
const get = (path: string, cookie: string | null) => ctx.app.request(path, { headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}) } }, freshClient());

/** A browser that tracked the booking by its magic link: the grant cookie it now sends. */
async function customerBrowser(bookingId: number): Promise<string> {
  const token = await createTrackingLink(db, bookingId, ctx.deps.now());
  const response = await ctx.app.request('/api/track-project', jsonRequest({ token }), freshClient());
  expect(response.status).toBe(200);
  return /cp_photos=[^;]+/.exec(response.headers.get('set-cookie') ?? '')![0];
}

const historyOf = (bookingId: number) =>
  db.select().from(progressLogs).where(eq(progressLogs.bookingId, bookingId)).orderBy(asc(progressLogs.id));
const adminLogsOf = (bookingId: number, action: string) =>
  db.select().from(channelLogs).where(and(eq(channelLogs.action, action), eq(channelLogs.entityId, String(bookingId))));

describe('hiding a photo from the customer', () => {
  it('is done by staff and undone, each change one line in the booking history and the admin log; asking twice changes nothing', async () => {
    const { booking, hidden } = await project();
    const person = await staffUser(ctx, 'staff', { name: 'Marek Nowak' });
    const staff = await adminCookie(ctx, person);

    const first = await post(`/api/photos/${hidden.id}/hide`, staff);
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(answer).toEqual({ id: hidden.id, bookingId: booking.id, hiddenAt: ctx.deps.now().toISOString() });
    const [row] = await db.select().from(photos).where(eq(photos.id, hidden.id));
    expect(row).toMatchObject({ hiddenBy: String(person.id) });

    // A retry (a double tap, a lost answer) answers the same and writes nothing more.
    expect(await (await post(`/api/photos/${hidden.id}/hide`, staff)).json()).toEqual(answer);
    const history = await historyOf(booking.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({
      step: 5,
      stepName: 'Photo Documentation',
      status: 'completed',
      notes: 'Photo hidden from the customer: after photo, step 5 (A passer-by in shot)',
      userId: String(person.id),
    });
    expect(await adminLogsOf(booking.id, 'photo_hidden')).toHaveLength(1);

    // The card shows it hidden, and by whom; the latest note is the one staff wrote.
    const list = await get(`/api/admin/projects?q=${booking.lastName}`, staff);
    const [card] = await list.json();
    expect(card.statusNotes).toBe('All six patches photographed');
    expect(card.photos.find((photo: { id: number }) => photo.id === hidden.id)).toMatchObject({ hiddenAt: answer.hiddenAt, hiddenByName: 'Marek Nowak' });
    expect(card.progressLogs[0]).toMatchObject({ notes: 'Photo hidden from the customer: after photo, step 5 (A passer-by in shot)', author: 'Marek Nowak' });

    const shown = await post(`/api/photos/${hidden.id}/show`, await adminCookie(ctx, 'owner'));
    expect(shown.status).toBe(200);
    expect(await shown.json()).toEqual({ id: hidden.id, bookingId: booking.id, hiddenAt: null });
    expect((await db.select().from(photos).where(eq(photos.id, hidden.id)))[0]).toMatchObject({ hiddenAt: null, hiddenBy: null });
    expect((await post(`/api/photos/${hidden.id}/show`, staff)).status).toBe(200);
    expect((await historyOf(booking.id)).map((log) => log.notes)).toEqual([
      'Photo hidden from the customer: after photo, step 5 (A passer-by in shot)',
      'Photo shown to the customer again: after photo, step 5 (A passer-by in shot)',
    ]);
    expect(await adminLogsOf(booking.id, 'photo_shown')).toHaveLength(1);
  });

  it('is refused to a viewer (403) and without a session (401), changing nothing; an unknown photo is a 404', async () => {
    const { booking, hidden } = await project();
    for (const action of ['hide', 'show']) {
      const refused = await post(`/api/photos/${hidden.id}/${action}`, await adminCookie(ctx, 'viewer'));
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: 'Your role cannot do this' });
      expect((await post(`/api/photos/${hidden.id}/${action}`, null)).status).toBe(401);
    }
    expect((await db.select().from(photos).where(eq(photos.id, hidden.id)))[0]!.hiddenAt).toBeNull();
    expect(await historyOf(booking.id)).toEqual([]);

    const staff = await adminCookie(ctx, 'staff');
    for (const path of ['/api/photos/999999/hide', '/api/photos/999999/show', '/api/photos/abc/hide']) {
      const missing = await post(path, staff);
      expect(missing.status).toBe(404);
      expect(await missing.json()).toMatchObject({ error: 'Photo not found' });
    }
  });
});

describe('what the customer reaches', () => {
  it("leaves a hidden photo out of the tracking page's list and its files; staff still get it, marked", async () => {
    const { booking, shown, hidden, before } = await project();
    const customer = await customerBrowser(booking.id);
    const staff = await adminCookie(ctx, 'staff');
    expect((await post(`/api/photos/${hidden.id}/hide`, staff)).status).toBe(200);

    const mine = await (await get(`/api/bookings/${booking.id}/photos`, customer)).json();
    expect(mine.map((photo: { id: number }) => photo.id)).toEqual([before.id, shown.id]);
    // Nothing in the customer's answer says a photo was hidden.
    expect(Object.keys(mine[1]).sort()).toEqual(['createdAt', 'description', 'fileName', 'fileSize', 'id', 'originalName', 'photoType', 'step']);
    const staffList = await (await get(`/api/bookings/${booking.id}/photos`, staff)).json();
    expect(staffList.map((photo: { id: number; hiddenFromCustomer?: boolean }) => [photo.id, photo.hiddenFromCustomer ?? false])).toEqual([
      [before.id, false],
      [shown.id, false],
      [hidden.id, true],
    ]);

    // The photo and its thumbnail, shown or downloaded: 404 to the customer and to anyone, fine for staff.
    for (const name of [hidden.fileName, hidden.thumbnailFileName!]) {
      for (const query of ['', '?download=1']) {
        expect((await get(`/uploads/${name}${query}`, customer)).status).toBe(404);
        expect((await get(`/uploads/${name}${query}`, null)).status).toBe(404);
      }
      const forStaff = await get(`/uploads/${name}`, staff);
      expect(forStaff.status).toBe(200);
      expect(forStaff.headers.get('content-type')).toBe('image/jpeg');
      // Not kept by the browser: once shown again or not, the next look asks the server.
      expect(forStaff.headers.get('cache-control')).toBe('private, no-store');
    }
    expect((await get(`/uploads/${shown.fileName}`, customer)).status).toBe(200);

    // Shown again: the customer sees it and its file once more.
    expect((await post(`/api/photos/${hidden.id}/show`, staff)).status).toBe(200);
    const again = await (await get(`/api/bookings/${booking.id}/photos`, customer)).json();
    expect(again.map((photo: { id: number }) => photo.id)).toEqual([before.id, shown.id, hidden.id]);
    expect((await get(`/uploads/${hidden.fileName}`, customer)).status).toBe(200);
  });

  it('leaves a hidden after photo out of the public project page and the completion e-mail', async () => {
    const { booking, shown, hidden } = await project();
    const staff = await adminCookie(ctx, 'staff');
    expect((await post(`/api/photos/${hidden.id}/hide`, staff)).status).toBe(200);

    const gallery = await (await get(`/api/gallery/${booking.id}`, null)).json();
    expect(gallery.photos).toEqual([{ id: shown.id, fileName: shown.fileName }]);

    expect((await post(`/api/completion/${booking.id}/send-email`, staff)).status).toBe(200);
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, booking.email));
    expect(mail!.text).toContain(`/uploads/${shown.fileName}`);
    expect(mail!.text).not.toContain(hidden.fileName);
    expect(mail!.html).not.toContain(hidden.fileName);
  });

  it('gives the campaign report (404 before step 5) without hidden photos after, to the customer and to staff', async () => {
    const { booking, hidden } = await project({ status: 'installation_complete', currentStep: 4, completionDate: null });
    const customer = await customerBrowser(booking.id);
    const staff = await adminCookie(ctx, 'staff');
    expect((await get(`/api/bookings/${booking.id}/report`, customer)).status).toBe(404);

    await db.update(bookings).set({ status: 'completed', currentStep: 5, completionDate: new Date('2027-06-08T16:00:00Z') }).where(eq(bookings.id, booking.id));
    const imagesOf = async (cookie: string) => {
      const response = await get(`/api/bookings/${booking.id}/report`, cookie);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      return (await readPdf(new Uint8Array(await response.arrayBuffer()))).pages.map((page) => page.images);
    };
    // Cover, then the one place with both after photos (the before photo is never in it).
    expect(await imagesOf(customer)).toEqual([0, 2]);

    expect((await post(`/api/photos/${hidden.id}/hide`, staff)).status).toBe(200);
    expect(await imagesOf(customer)).toEqual([0, 1]);
    expect(await imagesOf(staff)).toEqual([0, 1]);
  });
});
