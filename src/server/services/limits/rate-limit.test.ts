import { describe, expect, it } from 'vitest';
import { slidingEstimate, windowsUntilNextAllowed } from './rate-limit.ts';

describe('slidingEstimate', () => {
  it.each([
    [{ previous: 0, current: 1, elapsed: 0 }, 1],
    [{ previous: 20, current: 1, elapsed: 0 }, 21],
    [{ previous: 20, current: 1, elapsed: 0.5 }, 11],
    [{ previous: 20, current: 5, elapsed: 0.75 }, 10],
  ])('%o → %d', (counts, estimate) => {
    expect(slidingEstimate(counts)).toBe(estimate);
  });
});

describe('windowsUntilNextAllowed', () => {
  it.each([
    ['room now', { previous: 0, current: 1, elapsed: 0.2, limit: 5 }, 0],
    ['the previous window must fade to 3', { previous: 6, current: 1, elapsed: 0, limit: 5 }, 0.5],
    ['already faded enough', { previous: 6, current: 1, elapsed: 0.6, limit: 5 }, 0],
    ['current window full: wait for the next', { previous: 0, current: 5, elapsed: 0.25, limit: 5 }, 0.75 + 0.2],
    ['over the limit: the next window must fade too', { previous: 20, current: 25, elapsed: 0, limit: 20 }, 1 + 1 - 19 / 25],
  ])('%s', (_label, input, windows) => {
    expect(windowsUntilNextAllowed(input)).toBeCloseTo(windows, 10);
  });
});
