// Completion statistics for the admin's Completion tab (admin-dashboard.md, "Completion stats":
// totalCompleted, emailsSent, reviewsReceived, averageRating, responseRate).

/** Star ratings are out of 5 (admin-dashboard.md). */
export const MAX_RATING = 5;

/**
 * Mean of the ratings to 1 decimal (4.25 → 4.3, halves up); 0 when there are none, which the
 * tab shows beside "0 reviews received".
 */
export function averageRating(ratings: readonly number[]): number {
  if (ratings.length === 0) return 0;
  for (const rating of ratings) {
    if (!Number.isFinite(rating) || rating < 0 || rating > MAX_RATING) throw new RangeError(`Not a rating: ${rating}`);
  }
  const sum = ratings.reduce((total, rating) => total + rating, 0);
  // Tenths straight from the sum, one division and one rounding.
  return Math.round((sum * 10) / ratings.length) / 10;
}

/**
 * Reviews received per review e-mail sent, as a whole percentage (2 of 3 → 67); 0 before any
 * e-mail is sent. Capped at 100: a review counted without its e-mail must not show 150%.
 */
export function responseRate(reviewsReceived: number, emailsSent: number): number {
  for (const count of [reviewsReceived, emailsSent]) {
    if (!Number.isInteger(count) || count < 0) throw new RangeError(`Not a count: ${count}`);
  }
  if (emailsSent === 0) return 0;
  return Math.min(100, Math.round((reviewsReceived * 100) / emailsSent));
}
