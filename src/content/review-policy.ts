/**
 * The review policy, written once: the review form and the gallery's reviews both show it, so
 * what customers are promised and what visitors are told cannot drift apart.
 */
export const REVIEW_POLICY = {
  title: 'Our review policy',
  points: [
    'We publish every genuine review from customers we invited after their project, whatever its score.',
    'We only remove reviews that are abusive or contain personal data.',
    'We never pay for reviews and never edit them.',
  ],
} as const;

/**
 * The only reasons a review may be hidden (the policy's second point). Never its score: the
 * hide call takes nothing else.
 */
export const REVIEW_HIDE_REASONS = {
  abusive: 'Abusive or offensive language',
  'personal-data': 'Contains personal data',
} as const;

export type ReviewHideReason = keyof typeof REVIEW_HIDE_REASONS;
