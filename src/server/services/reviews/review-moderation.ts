import { desc, eq } from 'drizzle-orm';
import { reviews } from '../../../../db/schema.ts';
import { REVIEW_HIDE_REASONS, type ReviewHideReason } from '../../../content/review-policy.ts';
import type { AppDeps } from '../../app/deps.ts';
import { notFound } from '../../app/errors.ts';
import { writeChannelLog } from '../messages/channel-log.ts';

// Reviews are published whatever their score (UK rules on fake and selectively shown reviews);
// staff may hide one only for a reason the published policy names, logged and shown in the tab.

export interface AdminReview {
  id: number;
  bookingId: number | null;
  rating: number;
  reviewText: string;
  customerName: string;
  submittedAt: string;
  isPublished: boolean;
  hiddenReason: ReviewHideReason | null;
  hiddenAt: string | null;
}

export async function listReviewsForAdmin(db: AppDeps['db']): Promise<AdminReview[]> {
  const rows = await db.select().from(reviews).orderBy(desc(reviews.submittedAt), desc(reviews.id)).limit(200);
  return rows.map((row) => ({
    id: row.id,
    bookingId: row.bookingId,
    rating: row.rating,
    reviewText: row.reviewText,
    customerName: row.customerName,
    submittedAt: row.submittedAt.toISOString(),
    isPublished: row.isPublished,
    hiddenReason: (row.hiddenReason as ReviewHideReason | null) ?? null,
    hiddenAt: row.hiddenAt?.toISOString() ?? null,
  }));
}

export async function setReviewVisibility(
  deps: Pick<AppDeps, 'db' | 'now'>,
  id: number,
  change: { hide: true; reason: ReviewHideReason } | { hide: false },
  actor: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .update(reviews)
      .set(
        change.hide
          ? { isPublished: false, hiddenReason: change.reason, hiddenAt: deps.now() }
          : { isPublished: true, hiddenReason: null, hiddenAt: null },
      )
      .where(eq(reviews.id, id))
      .returning({ id: reviews.id, bookingId: reviews.bookingId });
    if (!row) throw notFound('Review not found');
    await writeChannelLog(tx, {
      channel: 'admin',
      action: change.hide ? 'review_hidden' : 'review_restored',
      entityType: 'review',
      entityId: id,
      userId: actor,
      details: change.hide ? `Review #${id} hidden: ${REVIEW_HIDE_REASONS[change.reason]}` : `Review #${id} published again`,
      metadata: { bookingId: row.bookingId, ...(change.hide ? { reason: change.reason } : {}) },
    });
  });
}
