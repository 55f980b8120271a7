/** Class names shared by the carousel's states, so each fills the same box. */

/*
 * Every state fills the same reserved box, so the page below does not move when the island
 * hydrates, loads, finds nothing or fails (no layout shift). The card height fits a review of
 * up to about 170 characters with its sub-ratings at 320 px, 768 px and in the three narrow
 * columns at 1024 px (measured); a longer review grows its card rather than being cut.
 */
export const BOX = 'min-h-[31rem] md:min-h-[30rem] lg:min-h-[31rem]';
export const CARD = 'min-h-[26rem] md:min-h-[25rem] lg:min-h-[26rem]';
export const BUTTON =
  'inline-flex size-11 items-center justify-center rounded-full border border-concrete-300 bg-white text-ink transition-colors hover:border-ink disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:border-concrete-300';
