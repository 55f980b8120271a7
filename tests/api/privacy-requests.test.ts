import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, channelLogs, contactEnquiries, emailOutbox, photos, reviewRequests } from '../../db/schema.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

const ctx = await createTestContext();
const EMAIL = 'amira@northernroasters.co.uk';

async function customerWithHistory() {
  const created = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload()), freshClient());
  expect(created.status).toBe(201);
  const { id } = (await created.json()) as { id: number };
  await ctx.deps.db.insert(contactEnquiries).values({
    firstName: 'Amira', lastName: 'Khan', email: 'Amira@NorthernRoasters.co.uk', inquiryType: 'Custom Quote', message: 'Could we add a third street?',
  });
  await ctx.deps.files.put('photo-amira.png', new Uint8Array([137, 80, 78, 71]), 'image/png');
  await ctx.deps.db.insert(photos).values({
    bookingId: id, fileName: 'photo-amira.png', originalName: 'after.png', photoType: 'after', step: 5, fileSize: 4, mimeType: 'image/png',
  });
  await ctx.deps.db.insert(reviewRequests).values({ tokenHash: `hash-${id}`, bookingId: id, expiresAt: new Date('2027-01-01T00:00:00Z') });
  return id;
}

describe('privacy requests', () => {
  it('are for admins only', async () => {
    expect((await ctx.app.request(`/api/admin/privacy/export?email=${EMAIL}`)).status).toBe(401);
    expect((await ctx.app.request('/api/admin/privacy/erase', jsonRequest({ email: EMAIL }))).status).toBe(401);
  });

  it('export everything held about an address, whatever its case', async () => {
    const id = await customerWithHistory();
    const cookie = await adminCookie(ctx);
    const response = await ctx.app.request(`/api/admin/privacy/export?email=${encodeURIComponent('AMIRA@northernroasters.co.uk')}`, adminRequest(cookie));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="personal-data-/);
    const data = await response.json();
    expect(data.bookings.map((booking: { id: number }) => booking.id)).toContain(id);
    expect(data.bookings[0].locations.length).toBeGreaterThan(0);
    expect(data.enquiries).toHaveLength(1);
    expect(data.emailsSent.length).toBeGreaterThan(0);
    expect(data.photos.map((photo: { fileName: string }) => photo.fileName)).toContain('photo-amira.png');
  });

  it('erase anonymises the bookings the law says to keep and deletes the rest, files included', async () => {
    const cookie = await adminCookie(ctx);
    const [before] = await ctx.deps.db.select().from(bookings).where(eq(bookings.email, EMAIL));
    const [confirmation] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, EMAIL));
    const token = /track-project\?t=([\w-]+)/.exec(confirmation!.text)![1]!;
    const track = () => ctx.app.request('/api/track-project', jsonRequest({ token }), freshClient());
    expect((await track()).status).toBe(200);
    const response = await ctx.app.request('/api/admin/privacy/erase', adminRequest(cookie, { body: { email: EMAIL } }));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ bookingsAnonymised: 1, enquiriesDeleted: 1, filesDeleted: 1 });

    expect((await track()).status).toBe(404);
    const [after] = await ctx.deps.db.select().from(bookings).where(eq(bookings.id, before!.id));
    expect(after).toMatchObject({ firstName: 'Erased', lastName: 'Erased', phone: '', locationAddress: 'Erased' });
    expect(after!.totalPricePence).toBe(before!.totalPricePence);
    expect(after!.preferredDate).toBe(before!.preferredDate);
    expect(after!.email).not.toContain('amira');
    expect(await ctx.deps.files.get('photo-amira.png')).toBeNull();
    expect(await ctx.deps.db.select().from(reviewRequests).where(eq(reviewRequests.bookingId, before!.id))).toEqual([]);
    expect(await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, EMAIL))).toEqual([]);

    const again = await (await ctx.app.request(`/api/admin/privacy/export?email=${EMAIL}`, adminRequest(cookie))).json();
    expect(again).toMatchObject({ bookings: [], enquiries: [], emailsSent: [], photos: [] });

    const logs = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'personal_data_erased'));
    expect(logs).toHaveLength(1);
    expect(JSON.stringify(logs)).not.toContain('amira');
  });

  it('refuses an address that is not one', async () => {
    const cookie = await adminCookie(ctx);
    const response = await ctx.app.request('/api/admin/privacy/erase', adminRequest(cookie, { body: { email: 'nobody' } }));
    expect(response.status).toBe(400);
    expect((await response.json()).error).toBe('Valid email is required');
  });
});
