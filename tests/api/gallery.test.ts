import { describe, expect, it } from 'vitest';
import { bookings, photos } from '../../db/schema.ts';
import { createTestContext } from '../setup/test-app.ts';

const ctx = await createTestContext();

const CUSTOMER = {
  firstName: 'Zephyrina',
  lastName: 'Quaglieri',
  businessName: 'Quaglieri Coffee Roasters',
  email: 'zephyrina@quaglieri-coffee.co.uk',
  phone: '0113 496 0777',
  locationAddress: '17 Briggate, Leeds, West Yorkshire, LS1 6HD',
  specialInstructions: 'Ask for Zephyrina at the counter',
};

async function insertProject(status: string, overrides: Partial<typeof bookings.$inferInsert> = {}) {
  const [booking] = await ctx.deps.db
    .insert(bookings)
    .values({
      ...CUSTOMER,
      quantity: 12,
      postcode: 'LS1',
      region: 'West Yorkshire',
      workType: 'night',
      preferredDate: '2026-08-03',
      totalPricePence: 104900,
      status,
      currentStep: status === 'completed' ? 5 : 3,
      completionDate: status === 'completed' ? new Date('2026-08-09T23:30:00Z') : null,
      ...overrides,
    })
    .returning();
  await ctx.deps.db.insert(photos).values(
    (['before', 'during', 'after', 'after'] as const).map((photoType, index) => ({
      bookingId: booking!.id,
      fileName: `p${booking!.id}-${index}-${photoType}.jpg`,
      originalName: `Zephyrina's ${photoType} shot.jpg`,
      description: photoType === 'after' ? `Finished patch ${index}` : `Work ${photoType}`,
      photoType,
      step: photoType === 'after' ? 5 : 4,
      fileSize: 1000,
      mimeType: 'image/jpeg',
    })),
  );
  return booking!;
}

describe('GET /api/gallery/:id', () => {
  it('shows a completed project: after photos, town and region, completion day and patch count', async () => {
    const booking = await insertProject('completed');
    const response = await ctx.app.request(`/api/gallery/${booking.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const body = await response.json();
    expect(body).toEqual({
      id: booking.id,
      // 23:30 UTC on 9 August is already the 10th in London (BST).
      completionDate: '2026-08-10',
      patches: 12,
      area: { town: 'Leeds', region: 'West Yorkshire' },
      photos: [
        { id: expect.any(Number), fileName: `p${booking.id}-2-after.jpg` },
        { id: expect.any(Number), fileName: `p${booking.id}-3-after.jpg` },
      ],
    });
  });

  it('says nothing about the customer: no personal or price fields, no customer text', async () => {
    const booking = await insertProject('completed');
    const text = await (await ctx.app.request(`/api/gallery/${booking.id}`)).text();
    for (const field of ['firstName', 'lastName', 'businessName', 'email', 'phone', 'locationAddress', 'address', 'totalPrice', 'price', 'amountPaid', 'originalName', 'specialInstructions', 'statusNotes']) {
      expect(text).not.toContain(`"${field}"`);
    }
    for (const value of ['Zephyrina', 'Quaglieri', 'quaglieri-coffee', '0113', 'Briggate', 'LS1 6HD', '1049', '104900']) {
      expect(text).not.toContain(value);
    }
  });

  it('still shows an archived completed project', async () => {
    const booking = await insertProject('completed', { archived: true });
    expect((await ctx.app.request(`/api/gallery/${booking.id}`)).status).toBe(200);
  });

  it.each(['pending', 'confirmed', 'cancelled'])('answers 404 for a %s booking, like an unknown id', async (status) => {
    const booking = await insertProject(status);
    const response = await ctx.app.request(`/api/gallery/${booking.id}`);
    expect(response.status).toBe(404);
    const unknown = await ctx.app.request('/api/gallery/987654');
    expect(unknown.status).toBe(404);
    expect((await response.json()).error).toBe((await unknown.json()).error);
  });

  it.each(['abc', '0', '-1', '1.5', '99999999999'])('answers 404 for the id %s', async (id) => {
    expect((await ctx.app.request(`/api/gallery/${id}`)).status).toBe(404);
  });

  it('shows a completed project with no photos yet and an unknown area as empty, not an error', async () => {
    const [booking] = await ctx.deps.db
      .insert(bookings)
      .values({ ...CUSTOMER, locationAddress: 'somewhere', quantity: 5, workType: 'day', preferredDate: '2026-07-02', totalPricePence: 34900, status: 'completed' })
      .returning();
    const body = await (await ctx.app.request(`/api/gallery/${booking!.id}`)).json();
    expect(body).toMatchObject({ completionDate: null, patches: 5, area: { town: null, region: null }, photos: [] });
  });
});
