import { describe, expect, it } from 'vitest';
import { addBusinessDays } from './london-days.ts';

// The proof reminder's clock: only Monday-Friday time (London) counts.
describe('addBusinessDays', () => {
  it.each([
    ['Tuesday 10:00 → Friday 10:00', '2026-11-24T10:00:00Z', '2026-11-27T10:00:00.000Z'],
    ['Friday 15:00 → Wednesday 15:00', '2026-11-27T15:00:00Z', '2026-12-02T15:00:00.000Z'],
    ['Saturday → from Monday midnight, Thursday 00:00', '2026-11-28T12:00:00Z', '2026-12-03T00:00:00.000Z'],
    ['British Summer Time: Monday 09:00 BST → Thursday 09:00 BST', '2026-06-01T08:00:00Z', '2026-06-04T08:00:00.000Z'],
  ])('%s', (_name, start, due) => {
    expect(addBusinessDays(new Date(start), 3).toISOString()).toBe(due);
  });
});
