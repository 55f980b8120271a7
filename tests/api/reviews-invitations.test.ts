import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { bookings, channelLogs, reviewRequests, reviews } from '../../db/schema.ts';
import { REVIEW_MESSAGES } from '../../src/domain/review-schema.ts';
import {
  REVIEW_INVITATION_MESSAGES,
  REVIEW_INVITATION_TTL_DAYS,
  createReviewInvitation,
  hashReviewToken,
} from '../../src/server/services/reviews/review-invitations.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN } from '../setup/test-app.ts';

const ctx = await createTestContext();
const NOW = new Date('2026-11-22T10:00:00Z');

async function insertBooking(status = 'completed') {
  const [booking] = await ctx.deps.db
    .insert(bookings)
    .values({
      firstName: 'Amira',
      lastName: 'khan',
      email: 'amira@northernroasters.co.uk',
      phone: '0161 496 0000',
      quantity: 10,
      locationAddress: 'Piccadilly Gardens, Manchester, M1 1RG',
      workType: 'day',
      preferredDate: '2026-09-14',
      totalPricePence: 79900,
      status,
      currentStep: status === 'completed' ? 5 : 2,
    })
    .returning();
  return booking!;
}

function tokenOf(url: string): string {
  return new URL(url).searchParams.get('t')!;
}

async function invite(status = 'completed') {
  const booking = await insertBooking(status);
  const invitation = await createReviewInvitation(ctx.deps, booking.id);
  return { booking, invitation, token: tokenOf(invitation.url) };
}

function submit(body: Record<string, unknown>) {
  return ctx.app.request('/api/reviews', jsonRequest(body), freshClient());
}

const review = { rating: 4, reviewText: 'Crisp stencils, and the team kept us posted.' };

beforeEach(() => ctx.setNow(NOW));

describe('createReviewInvitation', () => {
  it('gives a link on the site with a 256-bit token and keeps only its SHA-256', async () => {
    const { booking, invitation, token } = await invite();
    expect(invitation.url.startsWith(`${TEST_ORIGIN}/review?t=`)).toBe(true);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(invitation.expiresAt.toISOString()).toBe(
      new Date(NOW.getTime() + REVIEW_INVITATION_TTL_DAYS * 86_400_000).toISOString(),
    );
    const rows = await ctx.deps.db.select().from(reviewRequests).where(eq(reviewRequests.bookingId, booking.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(hashReviewToken(token));
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('refuses a booking that is not completed', async () => {
    const booking = await insertBooking('confirmed');
    await expect(createReviewInvitation(ctx.deps, booking.id)).rejects.toMatchObject({
      status: 409,
      message: REVIEW_INVITATION_MESSAGES.notCompleted,
    });
  });

  it('refuses an unknown booking', async () => {
    await expect(createReviewInvitation(ctx.deps, 999_999)).rejects.toMatchObject({ status: 404 });
  });

  it('replaces an older unused invitation: only the newest link works', async () => {
    const { booking, token: older } = await invite();
    const newer = tokenOf((await createReviewInvitation(ctx.deps, booking.id)).url);
    expect((await ctx.app.request(`/api/reviews/request/${older}`)).status).toBe(404);
    expect((await ctx.app.request(`/api/reviews/request/${newer}`)).status).toBe(200);
  });

  it('refuses a booking that has been reviewed already', async () => {
    const { booking, token } = await invite();
    expect((await submit({ token, ...review })).status).toBe(201);
    await expect(createReviewInvitation(ctx.deps, booking.id)).rejects.toMatchObject({
      status: 409,
      message: REVIEW_INVITATION_MESSAGES.alreadyReviewed,
    });
  });
});

describe('GET /api/reviews/request/:token', () => {
  it("answers the booking and the customer's first name, uncached", async () => {
    const { booking, token } = await invite();
    const response = await ctx.app.request(`/api/reviews/request/${token}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ bookingId: booking.id, firstName: 'Amira' });
  });

  it('answers 404 for an unknown token and for a tampered one', async () => {
    const { token } = await invite();
    const tampered = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
    for (const candidate of ['nope', tampered]) {
      const response = await ctx.app.request(`/api/reviews/request/${candidate}`);
      expect(response.status).toBe(404);
      expect((await response.json()).error).toBe(REVIEW_INVITATION_MESSAGES.notFound);
    }
  });

  it('answers 410 once the link has expired', async () => {
    const { token } = await invite();
    ctx.setNow(new Date(NOW.getTime() + REVIEW_INVITATION_TTL_DAYS * 86_400_000 + 1000));
    const response = await ctx.app.request(`/api/reviews/request/${token}`);
    expect(response.status).toBe(410);
    expect((await response.json()).error).toBe(REVIEW_INVITATION_MESSAGES.usedOrExpired);
  });
});

describe('POST /api/reviews', () => {
  it('publishes the review once, signed with first name and last initial, whatever its score', async () => {
    const { booking, token } = await invite();
    const response = await submit({ token, rating: 1, reviewText: '  Late and messy.  ', timeliness: 1 });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };

    const [row] = await ctx.deps.db.select().from(reviews).where(eq(reviews.id, id));
    expect(row).toMatchObject({
      bookingId: booking.id,
      rating: 1,
      reviewText: 'Late and messy.',
      timeliness: 1,
      serviceQuality: null,
      communication: null,
      customerName: 'Amira K.',
      isPublished: true,
    });
    const publicList = (await (await ctx.app.request('/api/reviews/public')).json()) as Array<{ id: number }>;
    expect(publicList.map((item) => item.id)).toContain(id);

    const logs = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'review_submitted'));
    expect(logs.some((log) => log.entityId === String(booking.id) && log.channel === 'booking')).toBe(true);
  });

  it('spends the token: a second submit and a second look both get 410', async () => {
    const { token } = await invite();
    expect((await submit({ token, ...review })).status).toBe(201);
    const again = await submit({ token, ...review });
    expect(again.status).toBe(410);
    expect((await again.json()).error).toBe(REVIEW_INVITATION_MESSAGES.usedOrExpired);
    expect((await ctx.app.request(`/api/reviews/request/${token}`)).status).toBe(410);
  });

  it('writes one review when the same link is submitted twice at once', async () => {
    const { booking, token } = await invite();
    const statuses = (await Promise.all([submit({ token, ...review }), submit({ token, ...review })])).map((r) => r.status);
    expect(statuses.sort()).toEqual([201, 410]);
    const rows = await ctx.deps.db.select().from(reviews).where(eq(reviews.bookingId, booking.id));
    expect(rows).toHaveLength(1);
  });

  it('answers 410 for an expired link and 404 for an unknown or tampered one, and stores nothing', async () => {
    const { booking, token } = await invite();
    expect((await submit({ token: 'x'.repeat(43), ...review })).status).toBe(404);
    expect((await submit({ token: `${token}x`, ...review })).status).toBe(404);
    ctx.setNow(new Date(NOW.getTime() + (REVIEW_INVITATION_TTL_DAYS + 1) * 86_400_000));
    expect((await submit({ token, ...review })).status).toBe(410);
    expect(await ctx.deps.db.select().from(reviews).where(eq(reviews.bookingId, booking.id))).toHaveLength(0);
  });

  it.each([
    ['no rating', { rating: undefined }, 'rating', REVIEW_MESSAGES.ratingRequired],
    ['a rating of 6', { rating: 6 }, 'rating', REVIEW_MESSAGES.ratingRequired],
    ['a rating of 2.5', { rating: 2.5 }, 'rating', REVIEW_MESSAGES.ratingRequired],
    ['an empty text', { reviewText: '   ' }, 'reviewText', REVIEW_MESSAGES.reviewTextRequired],
    ['a text over 2000 characters', { reviewText: 'a'.repeat(2001) }, 'reviewText', 'Reviews must be 2000 characters or fewer'],
    ['a timeliness of 0', { timeliness: 0 }, 'timeliness', REVIEW_MESSAGES.subRatingInvalid],
    ['a communication rating as text', { communication: 'great' }, 'communication', REVIEW_MESSAGES.subRatingInvalid],
  ])('refuses %s with a message beside the field and keeps the link usable', async (_, change, field, message) => {
    const { token } = await invite();
    const response = await submit({ token, ...review, ...change });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: string; fields: Record<string, string> };
    expect(body.fields[field]).toBe(message);
    expect((await ctx.app.request(`/api/reviews/request/${token}`)).status).toBe(200);
  });

  it('refuses a request without a token as 400', async () => {
    const response = await submit({ ...review });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { fields: Record<string, string> }).fields.token).toBe(REVIEW_MESSAGES.tokenInvalid);
  });

  it('rate limits one client submitting again and again', async () => {
    const client = freshClient();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      statuses.push((await ctx.app.request('/api/reviews', jsonRequest({ token: 'unknown', ...review }), client)).status);
    }
    expect(statuses.slice(0, 10).every((status) => status === 404)).toBe(true);
    expect(statuses[10]).toBe(429);
  });
});
