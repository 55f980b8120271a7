import { beforeEach, describe, expect, it } from 'vitest';
import { bookings, reviews } from '../../db/schema.ts';
import { createTestContext } from '../setup/test-app.ts';

const ctx = await createTestContext();

type NewReview = typeof reviews.$inferInsert;

function review(overrides: Partial<NewReview> = {}): NewReview {
  return {
    rating: 5,
    reviewText: 'Crisp stencils and no mess.',
    customerName: 'Priya S.',
    submittedAt: new Date('2026-09-01T10:00:00Z'),
    ...overrides,
  };
}

async function getPublic() {
  const response = await ctx.app.request('/api/reviews/public');
  return { response, body: (await response.json()) as Record<string, unknown>[] };
}

// Each test states its own reviews, so no test depends on another's rows.
beforeEach(async () => {
  await ctx.deps.db.delete(reviews);
});

describe('GET /api/reviews/public', () => {
  it('answers an empty list until reviews exist', async () => {
    const { response, body } = await getPublic();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(body).toEqual([]);
  });

  it('lists published reviews newest first', async () => {
    await ctx.deps.db.insert(reviews).values([
      review({ customerName: 'Middle', submittedAt: new Date('2026-08-15T12:00:00Z') }),
      review({ customerName: 'Newest', submittedAt: new Date('2026-10-01T08:30:00Z') }),
      review({ customerName: 'Oldest', submittedAt: new Date('2026-07-20T09:00:00Z') }),
    ]);
    const { body } = await getPublic();
    expect(body.map((item) => item.customerName)).toEqual(['Newest', 'Middle', 'Oldest']);
  });

  it('hides unpublished reviews', async () => {
    await ctx.deps.db.insert(reviews).values([
      review({ customerName: 'Shown' }),
      review({ customerName: 'Hidden', isPublished: false, submittedAt: new Date('2026-11-01T10:00:00Z') }),
    ]);
    const { body } = await getPublic();
    expect(body.map((item) => item.customerName)).toEqual(['Shown']);
  });

  it('answers the public fields, with submittedAt as ISO 8601 UTC and absent sub-ratings as null', async () => {
    await ctx.deps.db.insert(reviews).values([
      review({
        customerName: 'Tom B.',
        rating: 4,
        reviewText: 'Five patches on Briggate.',
        serviceQuality: 5,
        timeliness: 4,
        communication: 3,
        submittedAt: new Date('2026-08-12T16:40:00Z'),
      }),
      review({ customerName: 'Laura M.', rating: 3, submittedAt: new Date('2026-08-01T09:05:00Z') }),
    ]);
    const { body } = await getPublic();
    expect(body[0]).toEqual({
      id: expect.any(Number),
      rating: 4,
      reviewText: 'Five patches on Briggate.',
      serviceQuality: 5,
      timeliness: 4,
      communication: 3,
      customerName: 'Tom B.',
      submittedAt: '2026-08-12T16:40:00.000Z',
    });
    expect(body[1]).toMatchObject({ serviceQuality: null, timeliness: null, communication: null });
  });

  it('never reveals the booking or its customer contact details', async () => {
    const [booking] = await ctx.deps.db
      .insert(bookings)
      .values({
        firstName: 'Priya',
        lastName: 'Shah',
        email: 'priya@northernroast.example',
        phone: '0161 496 0311',
        quantity: 5,
        locationAddress: 'Market Street, Manchester M1 1PT',
        workType: 'day',
        preferredDate: '2026-07-14',
        totalPricePence: 34_900,
      })
      .returning({ id: bookings.id });
    await ctx.deps.db.insert(reviews).values(review({ bookingId: booking!.id }));

    const { response, body } = await getPublic();
    const text = JSON.stringify(body);
    expect(body).toHaveLength(1);
    expect(Object.keys(body[0]!)).not.toContain('bookingId');
    expect(Object.keys(body[0]!)).not.toContain('isPublished');
    expect(text).not.toContain('priya@northernroast.example');
    expect(text).not.toContain('0161 496 0311');
    expect(text).not.toContain('Shah');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers at most 50, the newest', async () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    await ctx.deps.db.insert(reviews).values(
      Array.from({ length: 55 }, (_, index) =>
        review({ customerName: `Customer ${index}`, submittedAt: new Date(start + index * 86_400_000) }),
      ),
    );
    const { body } = await getPublic();
    expect(body).toHaveLength(50);
    expect(body[0]!.customerName).toBe('Customer 54');
    expect(body[49]!.customerName).toBe('Customer 5');
  });

  it('may be cached publicly for a minute, unlike the rest of the API', async () => {
    const { response } = await getPublic();
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
    const health = await ctx.app.request('/api/health');
    expect(health.headers.get('cache-control')).toBe('no-store');
  });

  it('answers other methods with 405', async () => {
    const response = await ctx.app.request('/api/reviews/public', { method: 'DELETE', headers: { Origin: 'http://localhost:8888' } });
    expect(response.status).toBe(405);
  });
});
