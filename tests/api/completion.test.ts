import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { bookings, emailOutbox, photos, reviews } from '../../db/schema.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

const ctx = await createTestContext();
const cookie = await adminCookie(ctx);

async function booking(status: string, extra: Partial<typeof bookings.$inferInsert> = {}) {
  const [row] = await ctx.deps.db
    .insert(bookings)
    .values({
      firstName: 'Lena', lastName: 'Moss', email: `lena.${status}.${Math.random()}@mossflorist.co.uk`, phone: '0113 496 0101', quantity: 5,
      locationAddress: 'Briggate, Leeds LS1 6HD', workType: 'day', preferredDate: '2026-08-10', totalPricePence: 34900,
      status, currentStep: status === 'completed' ? 5 : 2, completionDate: status === 'completed' ? new Date('2026-08-10T16:00:00Z') : null,
      ...extra,
    })
    .returning();
  return row!;
}

describe('completion flow', () => {
  it('is for admins only', async () => {
    for (const [method, path] of [['GET', '/api/completion/stats'], ['GET', '/api/completion/bookings'], ['POST', '/api/completion/1/send-email'], ['POST', '/api/completion/1/send-review-request']] as const) {
      const response = await ctx.app.request(path, method === 'GET' ? {} : jsonRequest({}));
      expect(response.status).toBe(401);
    }
  });

  it('refuses the completion e-mail before the project is completed, and for an unknown booking', async () => {
    const pending = await booking('confirmed');
    const refused = await ctx.app.request(`/api/completion/${pending.id}/send-email`, adminRequest(cookie, { method: 'POST' }));
    expect(refused.status).toBe(409);
    expect((await ctx.app.request('/api/completion/999999/send-email', adminRequest(cookie, { method: 'POST' }))).status).toBe(404);
  });

  it('sends the completion e-mail with the after photos and the public project page, once however often clicked', async () => {
    const done = await booking('completed');
    await ctx.deps.db.insert(photos).values([
      { bookingId: done.id, fileName: 'photo-after-1.jpg', originalName: 'a.jpg', photoType: 'after', step: 5, fileSize: 10, mimeType: 'image/jpeg' },
      { bookingId: done.id, fileName: 'photo-before-1.jpg', originalName: 'b.jpg', photoType: 'before', step: 4, fileSize: 10, mimeType: 'image/jpeg' },
    ]);
    const first = await ctx.app.request(`/api/completion/${done.id}/send-email`, adminRequest(cookie, { method: 'POST' }));
    expect(first.status).toBe(200);
    await ctx.app.request(`/api/completion/${done.id}/send-email`, adminRequest(cookie, { method: 'POST' }));
    const mail = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.to, done.email));
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain(`http://localhost:8888/gallery/${done.id}`);
    expect(mail[0]!.text).toContain('http://localhost:8888/uploads/photo-after-1.jpg');
    expect(mail[0]!.text).not.toContain('photo-before-1.jpg');

    const items = await (await ctx.app.request('/api/completion/bookings', adminRequest(cookie))).json();
    expect(items.find((item: { id: number }) => item.id === done.id)).toMatchObject({ emailSent: true, photoCount: 2, reviewReceived: false, rating: null });
  });

  it('asks for a review only after the completion e-mail, with a single-use link that leads to a published review', async () => {
    const done = await booking('completed');
    const early = await ctx.app.request(`/api/completion/${done.id}/send-review-request`, adminRequest(cookie, { method: 'POST' }));
    expect(early.status).toBe(409);
    expect((await early.json()).error).toBe('Send the completion e-mail before asking for a review.');

    await ctx.app.request(`/api/completion/${done.id}/send-email`, adminRequest(cookie, { method: 'POST' }));
    const sent = await ctx.app.request(`/api/completion/${done.id}/send-review-request`, adminRequest(cookie, { method: 'POST' }));
    expect(sent.status).toBe(200);
    const [invitation] = await ctx.deps.db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'review-invitation'));
    const token = /review\?t=([\w%-]+)/.exec(invitation!.text)![1]!;
    expect((await (await ctx.app.request(`/api/reviews/request/${token}`)).json())).toMatchObject({ bookingId: done.id, firstName: 'Lena' });
    const review = await ctx.app.request('/api/reviews', jsonRequest({ token: decodeURIComponent(token), rating: 3, reviewText: 'Good, a little late.' }));
    expect(review.status).toBe(201);
    const items = await (await ctx.app.request('/api/completion/bookings', adminRequest(cookie))).json();
    expect(items.find((item: { id: number }) => item.id === done.id)).toMatchObject({ reviewRequested: true, reviewReceived: true, rating: 3 });
    const again = await ctx.app.request(`/api/completion/${done.id}/send-review-request`, adminRequest(cookie, { method: 'POST' }));
    expect(again.status).toBe(409);
    // The review is published whatever its score.
    const published = await (await ctx.app.request('/api/reviews/public')).json();
    expect(published.some((row: { reviewText: string }) => row.reviewText === 'Good, a little late.')).toBe(true);
  });

  it('counts completed projects, e-mails, reviews and the average rating', async () => {
    const reviewed = await booking('completed', { completionEmailSentAt: new Date(), reviewRequestSentAt: new Date() });
    await ctx.deps.db.insert(reviews).values({ bookingId: reviewed.id, rating: 4, reviewText: 'Clean work.', customerName: 'Lena M.' });
    const stats = await (await ctx.app.request('/api/completion/stats', adminRequest(cookie))).json();
    // Three completed projects so far in this file, all e-mailed; reviews of 3 and 4 stars from two invitations.
    expect(stats).toEqual({
      totalCompleted: 3, emailsSent: 3, reviewsReceived: 2, averageRating: 3.5, invitationsSent: 2, invitedReviewsReceived: 2, responseRate: 100,
    });
  });
});

describe('review response rate', () => {
  // A database of its own: the rate counts every completed booking.
  const fresh = async () => {
    const own = await createTestContext();
    const ownCookie = await adminCookie(own);
    const add = async (extra: Partial<typeof bookings.$inferInsert>) => {
      const [row] = await own.deps.db.insert(bookings).values({
        firstName: 'Ravi', lastName: 'Shah', email: `ravi.${Math.random()}@shahprint.co.uk`, phone: '0113 496 0102', quantity: 5,
        locationAddress: 'Briggate, Leeds LS1 6HD', workType: 'day', preferredDate: '2026-08-11', totalPricePence: 34900,
        status: 'completed', currentStep: 5, completionDate: new Date('2026-08-11T16:00:00Z'), completionEmailSentAt: new Date(), ...extra,
      }).returning();
      return row!;
    };
    const review = (bookingId: number) => own.deps.db.insert(reviews).values({ bookingId, rating: 5, reviewText: 'Sharp.', customerName: 'Ravi S.' });
    const rate = async () => {
      const stats = await (await own.app.request('/api/completion/stats', adminRequest(ownCookie))).json();
      return { rate: stats.responseRate, answered: stats.invitedReviewsReceived, invited: stats.invitationsSent, reviews: stats.reviewsReceived };
    };
    return { add, review, rate };
  };

  it('is reviews from invited bookings over invitations sent, with both counts', async () => {
    const { add, review, rate } = await fresh();
    const walkIn = await add({});
    // A review before any invitation: nobody was asked, so nothing was answered.
    await review(walkIn.id);
    expect(await rate()).toEqual({ rate: 0, answered: 0, invited: 0, reviews: 1 });
    // One invitation, to another booking: the review it did not ask for does not answer it.
    const invited = await add({ reviewRequestSentAt: new Date() });
    expect(await rate()).toEqual({ rate: 0, answered: 0, invited: 1, reviews: 1 });
    // The invited booking answers: one of one.
    await review(invited.id);
    expect(await rate()).toEqual({ rate: 100, answered: 1, invited: 1, reviews: 2 });
    // A second invitation not yet answered: one of two.
    await add({ reviewRequestSentAt: new Date() });
    expect(await rate()).toEqual({ rate: 50, answered: 1, invited: 2, reviews: 2 });
  });
});
