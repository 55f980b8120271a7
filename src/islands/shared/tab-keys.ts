import type { KeyboardEvent } from 'react';

const STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/**
 * The WAI-ARIA tabs pattern's keys on a tab list: ArrowRight and ArrowLeft move to the next and
 * previous tab (wrapping round at either end), Home and End to the first and the last. Returns the
 * index to open, having kept the key from scrolling the page, or null for any other key.
 */
export function tabKeyTarget(event: KeyboardEvent, index: number, count: number): number | null {
  const step = STEPS[event.key];
  if (!step || count === 0) return null;
  event.preventDefault();
  return step(index, count);
}
