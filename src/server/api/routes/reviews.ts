import { Hono } from 'hono';
import { desc, eq } from 'drizzle-orm';
import { reviews } from '../../../../db/schema.ts';
import type { AppEnv } from '../deps.ts';

/** The public review of public-site.md §3: no booking id, no e-mail, nothing that names a booking. */
export interface PublicReview {
  id: number;
  rating: number;
  reviewText: string;
  serviceQuality: number | null;
  timeliness: number | null;
  communication: number | null;
  customerName: string;
  /** ISO 8601 UTC (api.md). */
  submittedAt: string;
}

/** The carousel shows 6 (public-site.md §9) and counts the rest; 50 bounds the answer and the query. */
export const PUBLIC_REVIEWS_LIMIT = 50;

/** A public read that changes rarely: a minute of shared caching spares the function on busy pages. */
const PUBLIC_CACHE = 'public, max-age=60';

export const reviewRoutes = new Hono<AppEnv>().get('/public', async (c) => {
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
