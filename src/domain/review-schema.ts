import * as z from './zod.ts';
import { multiLine } from './text-fields.ts';

// One contract for the review form and POST /api/reviews (conventions.md, habit 1). The spec
// gives the fields (public-site.md §3, "Review"); it gives no messages, so these are ours.

export const REVIEW_MESSAGES = {
  ratingRequired: 'Please choose an overall rating from 1 to 5 stars',
  subRatingInvalid: 'Ratings are whole stars from 1 to 5',
  reviewTextRequired: 'Please tell us about your project in a few words',
  tokenInvalid: 'This review link is not valid. Please use the link from your e-mail.',
} as const;

export const MIN_RATING = 1;
export const MAX_RATING = 5;
export const REVIEW_TEXT_MAX_LENGTH = 2000;
/** Tokens are 43 base64url characters; anything far longer is not one of ours. */
export const REVIEW_TOKEN_MAX_LENGTH = 200;

/** The three optional ratings under the overall one, with the labels the form shows. */
export const SUB_RATINGS = [
  { key: 'serviceQuality', label: 'Service quality' },
  { key: 'timeliness', label: 'Timeliness' },
  { key: 'communication', label: 'Communication' },
] as const;

export type SubRatingKey = (typeof SUB_RATINGS)[number]['key'];

const stars = (message: string) =>
  z
    .number({ error: message })
    .int({ error: message })
    .min(MIN_RATING, { error: message })
    .max(MAX_RATING, { error: message });

export const reviewFormSchema = z.object({
  rating: stars(REVIEW_MESSAGES.ratingRequired),
  reviewText: multiLine(REVIEW_MESSAGES.reviewTextRequired)
    .min(1, { error: REVIEW_MESSAGES.reviewTextRequired, abort: true })
    .max(REVIEW_TEXT_MAX_LENGTH, { error: `Reviews must be ${REVIEW_TEXT_MAX_LENGTH} characters or fewer` }),
  serviceQuality: stars(REVIEW_MESSAGES.subRatingInvalid).nullish(),
  timeliness: stars(REVIEW_MESSAGES.subRatingInvalid).nullish(),
  communication: stars(REVIEW_MESSAGES.subRatingInvalid).nullish(),
});

export const reviewSubmissionSchema = reviewFormSchema.extend({
  token: z
    .string({ error: REVIEW_MESSAGES.tokenInvalid })
    .trim()
    .min(1, { error: REVIEW_MESSAGES.tokenInvalid })
    .max(REVIEW_TOKEN_MAX_LENGTH, { error: REVIEW_MESSAGES.tokenInvalid }),
});

export type ReviewFormValues = z.input<typeof reviewFormSchema>;
export type ReviewSubmission = z.infer<typeof reviewSubmissionSchema>;

/**
 * The name a published review carries: first name and last initial ('Amira K.'), never the
 * full name, so a review names its author without identifying them.
 */
export function reviewerName(firstName: string, lastName: string): string {
  const first = firstName.trim();
  const initial = lastName.trim().charAt(0).toUpperCase();
  return initial ? `${first} ${initial}.` : first;
}

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
