// The badge on the most popular pack (public-site.md §3), on its own so the booking form can show
// it without loading plans.ts's zod check.
export const MOST_POPULAR_LABEL = 'Most Popular';
