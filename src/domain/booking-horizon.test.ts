import { describe, expect, it } from 'vitest';
import { isBeyondBookingHorizon, latestBookingDate } from './booking-horizon.ts';

describe('latestBookingDate', () => {
  it.each([
    ['2026-11-22', '2028-11-22'],
    ['2026-01-01', '2028-01-01'],
    ['2028-02-29', '2030-02-28'],
    ['2026-12-31', '2028-12-31'],
  ])('on %s → %s', (today, latest) => {
    expect(latestBookingDate(today)).toBe(latest);
  });
});

describe('isBeyondBookingHorizon', () => {
  it.each([
    ['2028-11-22', false],
    ['2028-11-23', true],
    ['2027-07-15', false],
    ['9999-07-15', true],
  ])('%s on 2026-11-22 → %s', (date, beyond) => {
    expect(isBeyondBookingHorizon(date, '2026-11-22')).toBe(beyond);
  });
});
