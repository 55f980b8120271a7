import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { bookings, photos, reviews } from '../../../../db/schema.ts';
import { averageRating, responseRate } from '../../../domain/ratings.ts';
import type { AppDeps } from '../../app/deps.ts';
import { conflict, notFound } from '../../app/errors.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { completionEmail, reviewInvitationEmail } from '../../email/templates/index.ts';
import { openReviewInvitation } from './review-invitations.ts';
import { createTrackingLink, trackingLinkUrl } from '../projects/tracking.ts';
import { shownToCustomer } from '../projects/photo-visibility.ts';

// The Reviews (completion) tab (admin-dashboard.md §2): completed projects, the completion e-mail
// that closes each one, and what came back. The review invitation follows the completion e-mail.

export interface CompletionStats {
  totalCompleted: number;
  emailsSent: number;
  reviewsReceived: number;
  averageRating: number;
  /** Review invitations sent (completed projects asked for a review). */
  invitationsSent: number;
  /** Reviews received from those invited bookings; a review that came another way does not count. */
  invitedReviewsReceived: number;
  /** invitedReviewsReceived / invitationsSent, whole percent; 0 before any invitation. */
  responseRate: number;
}

export interface CompletionItem {
  id: number;
  firstName: string;
  lastName: string;
  locationAddress: string;
  completionDate: string | null;
  photoCount: number;
  emailSent: boolean;
  reviewRequested: boolean;
  reviewReceived: boolean;
  rating: number | null;
}

const isCompleted = eq(bookings.status, 'completed');

export async function completionStats(db: AppDeps['db']): Promise<CompletionStats> {
  const [counts] = await db
    .select({
      totalCompleted: sql<number>`count(*)::int`,
      emailsSent: sql<number>`count(${bookings.completionEmailSentAt})::int`,
      requestsSent: sql<number>`count(${bookings.reviewRequestSentAt})::int`,
    })
    .from(bookings)
    .where(isCompleted);
  const ratings = await db
    .select({ rating: reviews.rating, wasInvited: sql<boolean>`${bookings.reviewRequestSentAt} is not null` })
    .from(reviews)
    .innerJoin(bookings, eq(bookings.id, reviews.bookingId))
    .where(isCompleted);
  const invitationsSent = counts?.requestsSent ?? 0;
  // The rate answers "of the people we asked, how many answered": only reviews from invited bookings count.
  const invitedReviewsReceived = ratings.filter((row) => row.wasInvited).length;
  return {
    totalCompleted: counts?.totalCompleted ?? 0,
    emailsSent: counts?.emailsSent ?? 0,
    reviewsReceived: ratings.length,
    averageRating: averageRating(ratings.map((row) => row.rating)),
    invitationsSent,
    invitedReviewsReceived,
    responseRate: responseRate(invitedReviewsReceived, invitationsSent),
  };
}

export async function completionItems(db: AppDeps['db']): Promise<CompletionItem[]> {
  const rows = await db
    .select({
      id: bookings.id,
      firstName: bookings.firstName,
      lastName: bookings.lastName,
      locationAddress: bookings.locationAddress,
      completionDate: bookings.completionDate,
      completionEmailSentAt: bookings.completionEmailSentAt,
      reviewRequestSentAt: bookings.reviewRequestSentAt,
    })
    .from(bookings)
    .where(isCompleted)
    .orderBy(desc(bookings.completionDate), desc(bookings.id))
    .limit(500);
  const ids = rows.map((row) => row.id);
  const [photoCounts, ratings] = ids.length
    ? await Promise.all([
        db
          .select({ bookingId: photos.bookingId, count: sql<number>`count(*)::int` })
          .from(photos)
          .where(inArray(photos.bookingId, ids))
          .groupBy(photos.bookingId),
        db
          .select({ bookingId: reviews.bookingId, rating: reviews.rating })
          .from(reviews)
          .where(and(isNotNull(reviews.bookingId), inArray(reviews.bookingId, ids))),
      ])
    : [[], []];
  return rows.map((row) => {
    const rating = ratings.find((review) => review.bookingId === row.id)?.rating ?? null;
    return {
      id: row.id,
      firstName: row.firstName,
      lastName: row.lastName,
      locationAddress: row.locationAddress,
      completionDate: row.completionDate?.toISOString() ?? null,
      photoCount: photoCounts.find((count) => count.bookingId === row.id)?.count ?? 0,
      emailSent: row.completionEmailSentAt !== null,
      reviewRequested: row.reviewRequestSentAt !== null,
      reviewReceived: rating !== null,
      rating,
    };
  });
}

export const COMPLETION_MESSAGES = {
  notCompleted: 'Only a completed project can be sent its completion e-mail.',
  completionEmailFirst: 'Send the completion e-mail before asking for a review.',
} as const;

/**
 * Sends the completion e-mail: the after photos and the public project page. Written to the
 * outbox with the booking's stamp in one transaction, then delivered; a second click on the same
 * day writes nothing twice (the dedupe key names the day).
 */
export async function sendCompletionEmail(deps: AppDeps, bookingId: number, actor: string) {
  const now = deps.now();
  const site = deps.env.SITE_URL.replace(/\/+$/, '');
  const outcome = await deps.db.transaction(async (tx) => {
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    if (!booking) throw notFound('Booking not found');
    if (booking.status !== 'completed') throw conflict(COMPLETION_MESSAGES.notCompleted);
    const afterPhotos = await tx
      .select({ fileName: photos.fileName })
      .from(photos)
      // None staff hid from the customer (the link would not open anyway).
      .where(and(eq(photos.bookingId, bookingId), eq(photos.photoType, 'after'), shownToCustomer()))
      .orderBy(photos.id)
      .limit(6);
    const message = completionEmail(
      {
        bookingId,
        firstName: booking.firstName,
        email: booking.email,
        quantity: booking.quantity,
        completionDate: booking.completionDate?.toISOString() ?? null,
        photoUrls: afterPhotos.map((photo) => `${site}/uploads/${photo.fileName}`),
        galleryUrl: `${site}/gallery/${bookingId}`,
        // The report needs the tracking page's grant: a link of its own opens it (api.md).
        reportUrl: trackingLinkUrl(deps.env.SITE_URL, await createTrackingLink(tx, bookingId, now)),
      },
      now.toISOString().slice(0, 10),
    );
    const queued = await queueEmail(tx, message);
    const [stamped] = await tx
      .update(bookings)
      .set({ completionEmailSentAt: booking.completionEmailSentAt ?? now, updatedAt: now })
      .where(eq(bookings.id, bookingId))
      .returning({ completionEmailSentAt: bookings.completionEmailSentAt });
    await writeChannelLog(tx, {
      channel: 'email',
      action: 'completion_email_sent',
      entityType: 'booking',
      entityId: bookingId,
      userId: actor,
      details: queued ? `Completion e-mail queued for booking #${bookingId}` : `Completion e-mail for booking #${bookingId} was already queued today`,
    });
    return { dedupeKey: message.dedupeKey!, queued, sentAt: stamped!.completionEmailSentAt! };
  });
  if (outcome.queued) await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [outcome.dedupeKey], now: deps.now() }));
  return { bookingId, completionEmailSentAt: outcome.sentAt.toISOString() };
}

/**
 * Sends the review invitation: a new single-use link (older unused ones stop working), written
 * with its e-mail and the booking's stamp in one transaction. Only after the completion e-mail,
 * and never once the customer has reviewed (409 either way).
 */
export async function sendReviewRequest(deps: AppDeps, bookingId: number, actor: string) {
  const now = deps.now();
  const outcome = await deps.db.transaction(async (tx) => {
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    if (!booking) throw notFound('Booking not found');
    if (booking.status !== 'completed') throw conflict(COMPLETION_MESSAGES.notCompleted);
    if (!booking.completionEmailSentAt) throw conflict(COMPLETION_MESSAGES.completionEmailFirst);
    const invitation = await openReviewInvitation(tx, { siteUrl: deps.env.SITE_URL, now }, bookingId);
    const message = reviewInvitationEmail(
      { bookingId, firstName: booking.firstName, email: booking.email, reviewUrl: invitation.url, expiresAt: invitation.expiresAt },
      now.toISOString(),
    );
    await queueEmail(tx, message);
    await tx.update(bookings).set({ reviewRequestSentAt: now, updatedAt: now }).where(eq(bookings.id, bookingId));
    await writeChannelLog(tx, {
      channel: 'email',
      action: 'review_request_sent',
      entityType: 'booking',
      entityId: bookingId,
      userId: actor,
      details: `Review invitation queued for booking #${bookingId}`,
    });
    return message.dedupeKey!;
  });
  await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [outcome], now: deps.now() }));
  return { bookingId, reviewRequestSentAt: now.toISOString() };
}
