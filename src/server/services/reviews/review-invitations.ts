import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { bookings, reviewRequests, reviews } from '../../../../db/schema.ts';
import { reviewerName, type ReviewSubmission } from '../../../domain/review-schema.ts';
import type { AppDeps } from '../../app/deps.ts';
import type { Database } from '../../../../db/client.ts';
import { AppError, conflict, notFound } from '../../app/errors.ts';
import { writeChannelLog } from '../messages/channel-log.ts';

// Reviews by invitation only (api.md: "a token is single-use and comes only from the
// review-request email"). Staff invite a customer once their project is completed; the link
// carries a random token of which only the SHA-256 is stored, so a database leak opens no form.

/** How long an invitation stays open: long enough for a busy customer, short enough to go stale. */
export const REVIEW_INVITATION_TTL_DAYS = 30;
/** 32 random bytes: 256 bits, 43 base64url characters. */
const TOKEN_BYTES = 32;

export const REVIEW_INVITATION_MESSAGES = {
  notFound: 'This review link is not valid. Please use the link from your e-mail.',
  usedOrExpired: 'This review link has already been used or has expired.',
  notCompleted: 'Reviews can only be requested for completed projects.',
  alreadyReviewed: 'This project has already been reviewed.',
  bookingNotFound: 'Booking not found',
} as const;

export function hashReviewToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export function reviewUrl(siteUrl: string, token: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/review?t=${encodeURIComponent(token)}`;
}

export interface ReviewInvitation {
  url: string;
  expiresAt: Date;
}

type InvitationDeps = Pick<AppDeps, 'db' | 'env' | 'now'>;

/**
 * Opens a review invitation for a completed booking and returns its link. A newer invitation
 * replaces the booking's unused ones, so only the latest e-mail's link works. The token itself
 * is returned once, inside the link, and never stored.
 */
export async function createReviewInvitation(deps: InvitationDeps, bookingId: number): Promise<ReviewInvitation> {
  return deps.db.transaction((tx) => openReviewInvitation(tx, { siteUrl: deps.env.SITE_URL, now: deps.now() }, bookingId));
}

/**
 * The same, inside the caller's transaction, so the invitation e-mail is written to the outbox
 * with the invitation it carries (or neither is).
 */
export async function openReviewInvitation(
  tx: Database,
  { siteUrl, now }: { siteUrl: string; now: Date },
  bookingId: number,
): Promise<ReviewInvitation> {
  const token = randomBytes(TOKEN_BYTES).toString('base64url');
  const expiresAt = new Date(now.getTime() + REVIEW_INVITATION_TTL_DAYS * 24 * 60 * 60 * 1000);
  // Locks the booking so two invitations at once leave one open link, not two.
  const [booking] = await tx
    .select({ id: bookings.id, status: bookings.status })
    .from(bookings)
    .where(eq(bookings.id, bookingId))
    .for('update');
  if (!booking) throw notFound(REVIEW_INVITATION_MESSAGES.bookingNotFound);
  if (booking.status !== 'completed') throw conflict(REVIEW_INVITATION_MESSAGES.notCompleted);
  const [reviewed] = await tx.select({ id: reviews.id }).from(reviews).where(eq(reviews.bookingId, bookingId)).limit(1);
  if (reviewed) throw conflict(REVIEW_INVITATION_MESSAGES.alreadyReviewed);

  await tx.delete(reviewRequests).where(and(eq(reviewRequests.bookingId, bookingId), isNull(reviewRequests.usedAt)));
  await tx.insert(reviewRequests).values({ tokenHash: hashReviewToken(token), bookingId, expiresAt, createdAt: now });
  return { url: reviewUrl(siteUrl, token), expiresAt };
}

export interface ReviewRequestView {
  bookingId: number;
  firstName: string;
}

/**
 * What the review form shows before the customer writes: whose project it is. 404 for a token
 * we never issued (or one altered in transit), 410 for one used or past its expiry.
 */
export async function findReviewRequest(deps: Pick<AppDeps, 'db' | 'now'>, token: string): Promise<ReviewRequestView> {
  const [row] = await deps.db
    .select({
      bookingId: reviewRequests.bookingId,
      expiresAt: reviewRequests.expiresAt,
      usedAt: reviewRequests.usedAt,
      firstName: bookings.firstName,
    })
    .from(reviewRequests)
    .innerJoin(bookings, eq(bookings.id, reviewRequests.bookingId))
    .where(eq(reviewRequests.tokenHash, hashReviewToken(token)));
  if (!row) throw notFound(REVIEW_INVITATION_MESSAGES.notFound);
  if (row.usedAt || row.expiresAt.getTime() <= deps.now().getTime()) {
    throw new AppError(410, REVIEW_INVITATION_MESSAGES.usedOrExpired);
  }
  return { bookingId: row.bookingId, firstName: row.firstName };
}

/**
 * POST /api/reviews. Spends the token and writes the review in one transaction: the
 * conditional update lets exactly one of two simultaneous submissions through (the other
 * finds the token used and gets 410). Every review is published, whatever its score.
 */
export async function submitReview(
  deps: Pick<AppDeps, 'db' | 'now'>,
  submission: ReviewSubmission,
): Promise<{ id: number }> {
  const now = deps.now();
  const tokenHash = hashReviewToken(submission.token);
  return deps.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(reviewRequests)
      .set({ usedAt: now })
      .where(
        and(eq(reviewRequests.tokenHash, tokenHash), isNull(reviewRequests.usedAt), gt(reviewRequests.expiresAt, now)),
      )
      .returning({ bookingId: reviewRequests.bookingId });
    if (!spent) {
      const [known] = await tx
        .select({ bookingId: reviewRequests.bookingId })
        .from(reviewRequests)
        .where(eq(reviewRequests.tokenHash, tokenHash));
      if (!known) throw notFound(REVIEW_INVITATION_MESSAGES.notFound);
      throw new AppError(410, REVIEW_INVITATION_MESSAGES.usedOrExpired);
    }

    const [booking] = await tx
      .select({ firstName: bookings.firstName, lastName: bookings.lastName })
      .from(bookings)
      .where(eq(bookings.id, spent.bookingId));
    // review_requests cascades with its booking, so a spent token always has one.
    if (!booking) throw notFound(REVIEW_INVITATION_MESSAGES.notFound);

    const [review] = await tx
      .insert(reviews)
      .values({
        bookingId: spent.bookingId,
        rating: submission.rating,
        reviewText: submission.reviewText,
        serviceQuality: submission.serviceQuality ?? null,
        timeliness: submission.timeliness ?? null,
        communication: submission.communication ?? null,
        customerName: reviewerName(booking.firstName, booking.lastName),
        isPublished: true,
        submittedAt: now,
      })
      .returning({ id: reviews.id });
    if (!review) throw new Error('The review insert returned no row');

    await writeChannelLog(tx, {
      channel: 'booking',
      action: 'review_submitted',
      entityType: 'booking',
      entityId: spent.bookingId,
      details: `Review #${review.id} submitted for booking #${spent.bookingId}: ${submission.rating} of 5 stars`,
      metadata: { reviewId: review.id, rating: submission.rating },
    });
    return { id: review.id };
  });
}

