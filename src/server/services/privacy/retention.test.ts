import { describe, expect, it } from 'vitest';
import { invoiceRetentionCutoff, retentionCutoffs, subtractPeriod } from './retention.ts';

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

describe("invoices' retention: 6 years from the end of the financial year they belong to", () => {
  // [London today, year end, the last time of supply whose invoice may go]
  it.each([
    // Year ending 31 March: supplied 1 April 2020 to 31 March 2021, kept to the end of 31 March 2027.
    ['2027-03-31', '03-31', '2020-03-31'],
    ['2027-04-01', '03-31', '2021-03-31'],
    ['2027-11-28', '03-31', '2021-03-31'],
    ['2028-02-29', '03-31', '2021-03-31'],
    // Calendar years: 2020's invoices go on 1 January 2027.
    ['2026-12-31', '12-31', '2019-12-31'],
    ['2027-01-01', '12-31', '2020-12-31'],
    // A year ending in February, in and after a leap year.
    ['2028-02-28', '02-28', '2021-02-28'],
    ['2028-02-29', '02-28', '2022-02-28'],
  ])('on %s with the year ending %s, invoices supplied up to %s go', (today, yearEnd, cutoff) => {
    expect(invoiceRetentionCutoff(today, yearEnd)).toBe(cutoff);
  });
});
