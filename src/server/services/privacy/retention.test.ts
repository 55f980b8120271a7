import { describe, expect, it } from 'vitest';
import { retentionCutoffs, subtractPeriod } from './retention.ts';

describe('retention periods', () => {
  it.each([
    ['2026-11-23T10:00:00.000Z', { years: 7 }, '2019-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00.000Z', { years: 3 }, '2023-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00.000Z', { months: 26 }, '2024-09-23T10:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', { years: 1 }, '2027-02-28T00:00:00.000Z'],
    ['2026-03-31T12:30:00.000Z', { months: 1 }, '2026-02-28T12:30:00.000Z'],
    ['2026-01-15T00:00:00.000Z', { months: 26 }, '2023-11-15T00:00:00.000Z'],
  ])('%s minus %o is %s', (now, period, expected) => {
    expect(subtractPeriod(new Date(now), period).toISOString()).toBe(expected);
  });

  it('gives each kind of record the period /privacy promises', () => {
    const cutoffs = retentionCutoffs(new Date('2026-11-23T00:00:00Z'));
    expect(cutoffs.bookings.toISOString().slice(0, 10)).toBe('2019-11-23');
    expect(cutoffs.communications.toISOString().slice(0, 10)).toBe('2023-11-23');
    expect(cutoffs.analytics.toISOString().slice(0, 10)).toBe('2024-09-23');
  });
});
