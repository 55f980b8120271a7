import { Hono } from 'hono';
import { desc, eq } from 'drizzle-orm';
import { reviews } from '../../../../db/schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { readJson } from '../middleware/body.ts';
import { reviewSubmissionSchema, type PublicReview } from '../../../domain/review-schema.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { findReviewRequest, submitReview } from '../../services/reviews/review-invitations.ts';

/** The carousel shows 6 (public-site.md §9) and counts the rest; 50 bounds the answer and the query. */
export const PUBLIC_REVIEWS_LIMIT = 50;

/** A public read that changes rarely: a minute of shared caching spares the function on busy pages. */
const PUBLIC_CACHE = 'public, max-age=60';

// Tokens are 256-bit, so guessing is hopeless anyway; the limits keep a script from hammering
// the lookups and the review table.
const REVIEW_LOOKUP_LIMIT = { name: 'review-request', limit: 60, windowSeconds: 60 * 60 };
const REVIEW_SUBMIT_LIMIT = { name: 'review-submit', limit: 10, windowSeconds: 60 * 60 };

export const reviewRoutes = new Hono<AppEnv>()
  .get('/request/:token', rateLimit(REVIEW_LOOKUP_LIMIT), async (c) => {
    const view = await findReviewRequest(c.get('deps'), c.req.param('token'));
    // The answer names a customer: never cached by anyone.
    c.header('Cache-Control', 'no-store');
    return c.json(view);
  })
  .post('/', rateLimit(REVIEW_SUBMIT_LIMIT), async (c) => {
    const submission = await readJson(c, reviewSubmissionSchema);
    const review = await submitReview(c.get('deps'), submission);
    return c.json({ id: review.id }, 201);
  })
  .get('/public', async (c) => {
  const rows = await c
    .get('deps')
    .db.select({
      id: reviews.id,
      rating: reviews.rating,
      reviewText: reviews.reviewText,
      serviceQuality: reviews.serviceQuality,
      timeliness: reviews.timeliness,
      communication: reviews.communication,
      customerName: reviews.customerName,
      submittedAt: reviews.submittedAt,
    })
    .from(reviews)
    .where(eq(reviews.isPublished, true))
    .orderBy(desc(reviews.submittedAt), desc(reviews.id))
    .limit(PUBLIC_REVIEWS_LIMIT);

  const body: PublicReview[] = rows.map((row) => ({ ...row, submittedAt: row.submittedAt.toISOString() }));
  c.header('Cache-Control', PUBLIC_CACHE);
  return c.json(body);
});
