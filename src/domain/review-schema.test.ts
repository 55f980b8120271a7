import { describe, expect, it } from 'vitest';
import { REVIEW_MESSAGES, reviewFormSchema, reviewerName } from './review-schema.ts';

describe('reviewerName', () => {
  it.each([
    ['Amira', 'Khan', 'Amira K.'],
    ['  Tom ', ' brown', 'Tom B.'],
    ['Priya', '', 'Priya'],
  ])('%s %s → %s', (first, last, expected) => {
    expect(reviewerName(first, last)).toBe(expected);
  });
});

describe('reviewFormSchema', () => {
  const valid = { rating: 4, reviewText: 'Sharp stencils.' };

  it.each([
    [{ ...valid }, null],
    [{ ...valid, serviceQuality: 5, timeliness: null, communication: 1 }, null],
    [{ ...valid, rating: undefined }, REVIEW_MESSAGES.ratingRequired],
    [{ ...valid, rating: 0 }, REVIEW_MESSAGES.ratingRequired],
    [{ ...valid, rating: 6 }, REVIEW_MESSAGES.ratingRequired],
    [{ ...valid, rating: 3.5 }, REVIEW_MESSAGES.ratingRequired],
    [{ ...valid, reviewText: '   ' }, REVIEW_MESSAGES.reviewTextRequired],
    [{ ...valid, reviewText: 'x'.repeat(2001) }, 'Reviews must be 2000 characters or fewer'],
    [{ ...valid, timeliness: 9 }, REVIEW_MESSAGES.subRatingInvalid],
  ])('%j → %s', (input, message) => {
    const parsed = reviewFormSchema.safeParse(input);
    expect(parsed.success ? null : parsed.error.issues[0]?.message).toBe(message);
  });
});
