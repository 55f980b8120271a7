import { describe, expect, it } from 'vitest';
import { waitingFor } from './ProofPanel.tsx';

// "Awaiting sign-off for how long" on the project card.
describe('waitingFor', () => {
  const now = new Date('2026-12-02T15:00:00Z');
  it.each([
    ['2026-12-02T14:50:00Z', 'for a few minutes'],
    ['2026-12-02T14:00:00Z', 'for 1 hour'],
    ['2026-12-02T05:00:00Z', 'for 10 hours'],
    ['2026-12-01T15:00:00Z', 'for 1 day'],
    ['2026-11-27T15:00:00Z', 'for 5 days'],
    ['2026-12-02T16:00:00Z', 'for a few minutes'],
  ])('since %s: %s', (since, text) => {
    expect(waitingFor(since, now)).toBe(text);
  });
});
