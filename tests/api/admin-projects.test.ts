import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { bookings, channelLogs, emailOutbox, photos, progressLogs } from '../../db/schema.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';

const ctx = await createTestContext();
const db = ctx.deps.db;
const PNG = readFileSync(new URL('../fixtures/logo.png', import.meta.url));
const SVG = readFileSync(new URL('../fixtures/logo.svg', import.meta.url));
// The smallest JPEG header a decoder recognises: SOI then an APP0 (JFIF) marker.
const JPEG = new Uint8Array(readFileSync(new URL('../fixtures/images/camera-gps.jpg', import.meta.url)));
const T0 = new Date('2026-11-22T10:00:00Z');
const DAY = 86_400_000;

let cookie: string;

async function insertBooking(values: Partial<typeof bookings.$inferInsert> = {}) {
  const [row] = await db
    .insert(bookings)
    .values({
      firstName: 'Amira',
      lastName: 'Khan',
      email: 'amira@northernroasters.co.uk',
      phone: '0161 496 0000',
      quantity: 10,
      locationAddress: 'Piccadilly Gardens, Manchester',
      workType: 'night',
      preferredDate: '2027-07-14',
      totalPricePence: 79_900,
      ...values,
    })
    .returning();
  return row!;
}

async function bookingRow(id: number) {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row!;
}

const progress = (id: number, body: unknown, withCookie = true) =>
  ctx.app.request(
    `/api/admin/bookings/${id}/progress`,
    withCookie ? adminRequest(cookie, { method: 'PATCH', body }) : { method: 'PATCH', headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
  );

function photoForm(fields: { photo?: Blob | null; name?: string; thumbnail?: Blob; photoType?: string; step?: string; description?: string }) {
  const form = new FormData();
  if (fields.photo) form.set('photo', fields.photo, fields.name ?? 'site.png');
  if (fields.thumbnail) form.set('thumbnail', fields.thumbnail, 'thumb.jpg');
  if (fields.photoType !== undefined) form.set('photoType', fields.photoType);
  if (fields.step !== undefined) form.set('step', fields.step);
  if (fields.description !== undefined) form.set('description', fields.description);
  return form;
}

const uploadPhoto = (id: number, form: FormData, withCookie = true) =>
  ctx.app.request(`/api/bookings/${id}/photos`, {
    method: 'POST',
    headers: withCookie ? { Cookie: cookie, Origin: TEST_ORIGIN } : { Origin: TEST_ORIGIN },
    body: form,
  });

async function adminLogs(action: string) {
  return db.select().from(channelLogs).where(and(eq(channelLogs.channel, 'admin'), eq(channelLogs.action, action)));
}

beforeEach(async () => {
  ctx.setNow(T0);
  for (const table of [photos, progressLogs, emailOutbox, bookings, channelLogs]) await db.delete(table);
  cookie = await adminCookie(ctx);
});

describe('admin project calls without a session', () => {
  it.each([
    ['GET', '/api/admin/projects'],
    ['PATCH', '/api/admin/bookings/1/progress'],
    ['POST', '/api/admin/bookings/1/notes'],
    ['DELETE', '/api/progress-logs/1'],
    ['POST', '/api/bookings/1/photos'],
    ['DELETE', '/api/photos/1'],
  ])('%s %s answers 401', async (method, path) => {
    const response = await ctx.app.request(path, {
      method,
      headers: { Origin: TEST_ORIGIN, 'Content-Type': 'application/json' },
      body: method === 'GET' || method === 'DELETE' ? undefined : JSON.stringify({ currentStep: 1, notes: 'x' }),
    });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: 'Please sign in to the admin dashboard.' });
  });

  it('changes nothing when refused', async () => {
    const booking = await insertBooking();
    expect((await progress(booking.id, { currentStep: 1 }, false)).status).toBe(401);
    expect((await bookingRow(booking.id)).status).toBe('pending');
    expect(await db.select().from(progressLogs)).toEqual([]);
  });
});

describe('GET /api/admin/projects', () => {
  it('lists active bookings with their history newest first and their photos', async () => {
    const active = await insertBooking({ isTest: true });
    await insertBooking({ archived: true, firstName: 'Archived' });
    await progress(active.id, { currentStep: 1 });
    ctx.setNow(new Date(T0.getTime() + 60_000));
    await progress(active.id, { currentStep: 2, statusNotes: 'Stencil sent for approval' });

    const response = await ctx.app.request('/api/admin/projects', adminRequest(cookie));
    expect(response.status).toBe(200);
    const list = (await response.json()) as Array<Record<string, unknown>>;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      id: active.id,
      firstName: 'Amira',
      isTest: true,
      totalPrice: 799,
      currentStep: 2,
      statusNotes: 'Stencil sent for approval',
      photoCount: 0,
      photos: [],
    });
    expect((list[0]!.progressLogs as Array<{ step: number; notes: string }>).map((log) => [log.step, log.notes])).toEqual([
      [2, 'Stencil sent for approval'],
      [1, 'Updated to step 1: Design Consultation'],
    ]);
  });
});

describe('PATCH /api/admin/bookings/:id/progress', () => {
  it('moves to step 1, sets its status, stamps the consultation date and logs it', async () => {
    const booking = await insertBooking();
    const response = await progress(booking.id, { currentStep: 1 });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      id: booking.id,
      currentStep: 1,
      status: 'consultation',
      statusNotes: 'Updated to step 1: Design Consultation',
      consultationDate: T0.toISOString(),
      completionDate: null,
    });
    const logs = await db.select().from(progressLogs).where(eq(progressLogs.bookingId, booking.id));
    expect(logs).toMatchObject([{ step: 1, stepName: 'Design Consultation', status: 'consultation', notes: 'Updated to step 1: Design Consultation' }]);
    const [log] = await adminLogs('progress_updated');
    expect(log).toMatchObject({ entityType: 'booking', entityId: String(booking.id) });
    // The account's id (api.md "Staff accounts"), whose name the Logs tab shows.
    expect(log!.userId).toMatch(/^\d+$/);
  });

  it('refuses a step that skips ahead, and one outside 1-5, with clear messages', async () => {
    const booking = await insertBooking();
    const skip = await progress(booking.id, { currentStep: 3 });
    expect(skip.status).toBe(400);
    expect((await skip.json()).error).toBe('Step 3 (Installation Scheduling) is not available yet: the project is at step 1.');

    for (const currentStep of [0, 6, 2.5, '2', null]) {
      const response = await progress(booking.id, { currentStep });
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('Step must be a whole number from 1 to 5');
    }
    expect((await bookingRow(booking.id)).currentStep).toBe(1);
    expect(await db.select().from(progressLogs)).toEqual([]);
  });

  it('allows the next step and any earlier one; step 3 stamps no date', async () => {
    const booking = await insertBooking({ currentStep: 2 });
    const response = await progress(booking.id, { currentStep: 3, statusNotes: '  Booked for Tuesday  ' });
    expect(await response.json()).toMatchObject({
      currentStep: 3,
      status: 'installation_scheduled',
      statusNotes: 'Booked for Tuesday',
      consultationDate: null,
      stencilApprovedDate: null,
      installationDate: null,
    });
    expect((await progress(booking.id, { currentStep: 1 })).status).toBe(200);
  });

  it('keeps a date the admin gave and stamps the step date only when left out', async () => {
    const booking = await insertBooking({ currentStep: 3 });
    const response = await progress(booking.id, { currentStep: 4, installationDate: '2026-11-20T09:30:00Z', status: 'installation_complete' });
    expect(await response.json()).toMatchObject({ status: 'installation_complete', installationDate: '2026-11-20T09:30:00.000Z' });

    const wrongStatus = await progress(booking.id, { currentStep: 4, status: 'completed' });
    expect(wrongStatus.status).toBe(400);
    expect((await wrongStatus.json()).error).toBe("Step 4 sets the status 'installation_complete', not 'completed'.");
    const badDate = await progress(booking.id, { currentStep: 4, installationDate: 'next Tuesday' });
    expect(badDate.status).toBe(400);
  });

  it('step 4 without a date keeps the installation day set at step 3, which the customer was sent', async () => {
    const booking = await insertBooking({ currentStep: 2, status: 'stencil_creation' });
    expect((await progress(booking.id, { currentStep: 3, installationDate: '2027-07-20' })).status).toBe(200);
    // The test clock reads 22 November 2026: the button is pressed on another day than the one scheduled.
    const response = await progress(booking.id, { currentStep: 4, status: 'installation_complete' });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ currentStep: 4, installationDate: '2027-07-20T00:00:00.000Z' });
    // No reschedule was announced: only step 3's move from the preferred day was.
    expect((await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'installation-rescheduled'))).map((row) => row.dedupeKey)).toEqual([
      `installation-rescheduled:${booking.id}:1`,
    ]);
  });

  it('step 4 without any scheduled date records the preferred day, not the day it was pressed', async () => {
    const booking = await insertBooking({ currentStep: 3, status: 'installation_scheduled', preferredDate: '2027-07-14' });
    const response = await progress(booking.id, { currentStep: 4 });
    expect(await response.json()).toMatchObject({ installationDate: '2027-07-14T00:00:00.000Z' });
  });

  it('step 4 with a date staff corrected uses it and sends the updated invite, as a move at step 3 does', async () => {
    const booking = await insertBooking({ currentStep: 2, status: 'stencil_creation' });
    await progress(booking.id, { currentStep: 3, installationDate: '2027-07-20' });
    const response = await progress(booking.id, { currentStep: 4, installationDate: '2027-07-21' });
    expect(await response.json()).toMatchObject({ currentStep: 4, installationDate: '2027-07-21T00:00:00.000Z' });
    const sent = await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'installation-rescheduled')).orderBy(emailOutbox.id);
    expect(sent.map((row) => row.dedupeKey)).toEqual([`installation-rescheduled:${booking.id}:1`, `installation-rescheduled:${booking.id}:2`]);
    expect(sent[1]!.subject).toContain('21 July 2027');
  });

  it('step 5 completes the project and stamps the completion date', async () => {
    const booking = await insertBooking({ currentStep: 4, status: 'installation_complete' });
    const response = await progress(booking.id, { currentStep: 5, statusNotes: 'All photos taken' });
    expect(await response.json()).toMatchObject({ currentStep: 5, status: 'completed', completionDate: T0.toISOString() });
    expect(await adminLogs('project_completed')).toHaveLength(1);
  });

  it('answers 404 for an unknown booking', async () => {
    const response = await progress(999_999, { currentStep: 1 });
    expect(response.status).toBe(404);
    expect((await response.json()).error).toBe('Booking not found');
    expect((await ctx.app.request('/api/admin/bookings/abc/progress', adminRequest(cookie, { method: 'PATCH', body: { currentStep: 1 } }))).status).toBe(404);
  });
});

describe('notes and history', () => {
  it('adds a note to the current step and shows it as the latest note', async () => {
    const booking = await insertBooking({ currentStep: 2, status: 'stencil_creation' });
    const response = await ctx.app.request(
      `/api/admin/bookings/${booking.id}/notes`,
      adminRequest(cookie, { body: { notes: '  Customer asked for a bigger logo  ' } }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ currentStep: 2, statusNotes: 'Customer asked for a bigger logo' });
    expect(await db.select().from(progressLogs)).toMatchObject([
      { step: 2, stepName: 'Stencil Creation', status: 'stencil_creation', notes: 'Customer asked for a bigger logo' },
    ]);
    expect(await adminLogs('progress_note_added')).toHaveLength(1);
  });

  it.each([[''], ['   '], [null]])('refuses the blank note %j with 400', async (notes) => {
    const booking = await insertBooking();
    const response = await ctx.app.request(`/api/admin/bookings/${booking.id}/notes`, adminRequest(cookie, { body: { notes } }));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Please enter a note.');
    expect(await db.select().from(progressLogs)).toEqual([]);
  });

  it('deletes a progress log (204), then answers 404 for it', async () => {
    const booking = await insertBooking();
    await progress(booking.id, { currentStep: 1 });
    const [log] = await db.select().from(progressLogs);
    const response = await ctx.app.request(`/api/progress-logs/${log!.id}`, adminRequest(cookie, { method: 'DELETE' }));
    expect(response.status).toBe(204);
    expect(await db.select().from(progressLogs)).toEqual([]);
    // The booking keeps its step: only the history entry goes.
    expect((await bookingRow(booking.id)).currentStep).toBe(1);
    expect(await adminLogs('progress_log_deleted')).toHaveLength(1);
    const again = await ctx.app.request(`/api/progress-logs/${log!.id}`, adminRequest(cookie, { method: 'DELETE' }));
    expect(again.status).toBe(404);
  });
});

describe('project photos', () => {
  it('stores a PNG with its thumbnail under random names at the current step, and deletes both', async () => {
    const booking = await insertBooking({ currentStep: 4 });
    const response = await uploadPhoto(
      booking.id,
      photoForm({ photo: new Blob([PNG]), name: 'C:\\photos\\shop front.png', thumbnail: new Blob([JPEG]), photoType: 'after', description: ' Front ' }),
    );
    expect(response.status).toBe(201);
    const photo = (await response.json()) as Record<string, unknown> & { id: number; fileName: string; thumbnailFileName: string };
    expect(photo).toMatchObject({
      bookingId: booking.id,
      originalName: 'shop front.png',
      photoType: 'after',
      step: 4,
      description: 'Front',
      fileSize: expect.any(Number),
      mimeType: 'image/png',
    });
    expect(photo.fileName).toMatch(/^photo-[0-9a-f-]{36}\.png$/);
    expect(photo.thumbnailFileName).toBe(photo.fileName.replace('.png', '-thumb.jpg'));
    // Both are the server's own encodings (tests/api/image-privacy.test.ts): the photo re-encoded,
    // the thumbnail made from it; the thumbnail the browser sent is not kept.
    expect((await ctx.deps.files.get(photo.fileName))?.size).toBe(photo.fileSize);
    expect((await ctx.deps.files.get(photo.thumbnailFileName))?.type).toBe('image/jpeg');
    expect(await adminLogs('photo_uploaded')).toHaveLength(1);
    // The dashboard's grid shows the thumbnail: it is served like the photo, as its own type.
    const served = await ctx.app.request(`/uploads/${photo.thumbnailFileName}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('content-disposition')).toMatch(/^inline/);
    expect(new Uint8Array(await served.arrayBuffer())).not.toEqual(JPEG);
    expect((await ctx.app.request(`/uploads/${photo.fileName}`)).headers.get('content-type')).toBe('image/png');

    const listed = (await (await ctx.app.request('/api/admin/projects', adminRequest(cookie))).json()) as Array<{ photoCount: number }>;
    expect(listed[0]!.photoCount).toBe(1);

    const deleted = await ctx.app.request(`/api/photos/${photo.id}`, adminRequest(cookie, { method: 'DELETE' }));
    expect(deleted.status).toBe(204);
    expect(await ctx.deps.files.get(photo.fileName)).toBeNull();
    expect(await ctx.deps.files.get(photo.thumbnailFileName)).toBeNull();
    expect(await db.select().from(photos)).toEqual([]);
    expect(await adminLogs('photo_deleted')).toHaveLength(1);
    expect((await ctx.app.request(`/api/photos/${photo.id}`, adminRequest(cookie, { method: 'DELETE' }))).status).toBe(404);
  });

  it('accepts a JPEG at a chosen step, and deletes a photo whose file is already gone', async () => {
    const booking = await insertBooking({ currentStep: 2 });
    const response = await uploadPhoto(booking.id, photoForm({ photo: new Blob([JPEG]), name: 'x.jpg', photoType: 'before', step: '1' }));
    expect(response.status).toBe(201);
    const photo = (await response.json()) as { id: number; fileName: string; step: number; thumbnailFileName: string };
    // With no thumbnail sent, the server makes one all the same.
    expect(photo).toMatchObject({ step: 1, mimeType: 'image/jpeg', thumbnailFileName: photo.fileName.replace('.jpg', '-thumb.jpg') });
    await ctx.deps.files.delete(photo.fileName);
    expect((await ctx.app.request(`/api/photos/${photo.id}`, adminRequest(cookie, { method: 'DELETE' }))).status).toBe(204);
  });

  it.each([
    ['an SVG', SVG, 'logo.svg'],
    ['a text file named .png', new TextEncoder().encode('definitely not an image'), 'fake.png'],
  ])('refuses %s with 415 and stores nothing', async (_label, bytes, name) => {
    const booking = await insertBooking();
    const response = await uploadPhoto(booking.id, photoForm({ photo: new Blob([bytes]), name, photoType: 'before' }));
    expect(response.status).toBe(415);
    expect((await response.json()).error).toBe('Please select an image file.');
    expect(await db.select().from(photos)).toEqual([]);
  });

  it('asks for a file and a photo type (400), and refuses an unknown type or step', async () => {
    const booking = await insertBooking();
    for (const form of [photoForm({ photo: new Blob([PNG]) }), photoForm({ photoType: 'before' }), photoForm({ photo: new Blob([PNG]), photoType: ' ' })]) {
      const response = await uploadPhoto(booking.id, form);
      expect(response.status).toBe(400);
      expect((await response.json()).error).toBe('Please select a file and photo type.');
    }
    const badType = await uploadPhoto(booking.id, photoForm({ photo: new Blob([PNG]), photoType: 'selfie' }));
    expect(badType.status).toBe(400);
    const badStep = await uploadPhoto(booking.id, photoForm({ photo: new Blob([PNG]), photoType: 'after', step: '9' }));
    expect(badStep.status).toBe(400);
    expect(await db.select().from(photos)).toEqual([]);
  });

  it('refuses a photo over 4 MB with 413, and answers 404 for an unknown booking', async () => {
    const booking = await insertBooking();
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    big.set(PNG.subarray(0, 8));
    const tooBig = await uploadPhoto(booking.id, photoForm({ photo: new Blob([big]), photoType: 'after' }));
    expect(tooBig.status).toBe(413);
    const unknown = await uploadPhoto(999_999, photoForm({ photo: new Blob([PNG]), photoType: 'after' }));
    expect(unknown.status).toBe(404);
    expect(await db.select().from(photos)).toEqual([]);
  });
});

describe('automatic archive of completed projects', () => {
  it('archives a project 30 days after completion, once, from the hourly job', async () => {
    const completedAt = new Date(T0.getTime() - 10 * DAY);
    const done = await insertBooking({ status: 'completed', currentStep: 5, completionDate: completedAt });
    const running = await insertBooking({ status: 'installation_complete', currentStep: 4, completionDate: null });

    ctx.setNow(new Date(completedAt.getTime() + 30 * DAY - 60_000));
    let result = await runMaintenance(ctx.deps, ctx.deps.now());
    expect(result.counts.projectsArchived).toBe(0);
    expect((await bookingRow(done.id)).archived).toBe(false);

    ctx.setNow(new Date(completedAt.getTime() + 30 * DAY + 60_000));
    result = await runMaintenance(ctx.deps, ctx.deps.now());
    expect(result.counts.projectsArchived).toBe(1);
    expect((await bookingRow(done.id)).archived).toBe(true);
    expect((await bookingRow(running.id)).archived).toBe(false);
    const [log] = await adminLogs('projects_auto_archived');
    expect(log).toMatchObject({ userId: 'system', metadata: { count: 1, bookingIds: [done.id] } });

    // A second run finds nothing left to do.
    result = await runMaintenance(ctx.deps, ctx.deps.now());
    expect(result.counts.projectsArchived).toBe(0);
    expect(await adminLogs('projects_auto_archived')).toHaveLength(1);
    cookie = await adminCookie(ctx); // the first session ended with the month that passed
    const listed = (await (await ctx.app.request('/api/admin/projects', adminRequest(cookie))).json()) as Array<{ id: number }>;
    expect(listed.map((booking) => booking.id)).toEqual([running.id]);
  });
});
