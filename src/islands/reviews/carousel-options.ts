import type { KeenSliderOptions } from 'keen-slider/react';

/** public-site.md §9: the carousel shows 6 reviews by default and counts the rest. */
export const REVIEWS_SHOWN = 6;

/** Slides per view: 1 on phones, 2 from 768 px, 3 from 1024 px (public-site.md §9). */
export const SLIDES_PER_VIEW = { base: 1, tablet: 2, desktop: 3 } as const;
export const TABLET_QUERY = '(min-width: 768px)';
export const DESKTOP_QUERY = '(min-width: 1024px)';

/** Gap between cards, in px (keen-slider positions slides itself, so CSS gaps do not apply). */
const SPACING = { base: 16, tablet: 20, desktop: 24 } as const;

/**
 * keen-slider options for `count` slides. It loops (§9) whenever there is something to loop
 * to: with no more slides than fit in view, looping would only repeat the same cards.
 * Reduced motion moves instantly instead of animating.
 */
export function carouselOptions(count: number, reducedMotion: boolean): KeenSliderOptions {
  const view = (perView: number, spacing: number) => ({ loop: count > perView, slides: { perView, spacing } });
  return {
    ...view(SLIDES_PER_VIEW.base, SPACING.base),
    ...(reducedMotion ? { defaultAnimation: { duration: 0 } } : {}),
    breakpoints: {
      [TABLET_QUERY]: view(SLIDES_PER_VIEW.tablet, SPACING.tablet),
      [DESKTOP_QUERY]: view(SLIDES_PER_VIEW.desktop, SPACING.desktop),
    },
  };
}

/** 'Showing N of M reviews' when more exist than are shown (§9); nothing otherwise. */
export function showingText(shown: number, total: number): string | null {
  return total > shown ? `Showing ${shown} of ${total} reviews` : null;
}

/** The text alternative for a star rating. */
export function ratingLabel(rating: number): string {
  return `Rated ${rating} out of 5`;
}

/** "October 2026" in the business's time zone: month and year say enough on a review. */
export function formatReviewDate(iso: string): string {
  return new Intl.DateTimeFormat('en-GB', { month: 'long', year: 'numeric', timeZone: 'Europe/London' }).format(
    new Date(iso),
  );
}
