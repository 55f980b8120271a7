import { describe, it, expect } from 'vitest';
import { addDays, formatFileSize, formatLongDate, formatShortDay, isIsoDate, toIsoDate } from './format.ts';

describe('formatFileSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Bytes'],
    [1023, '1023 Bytes'],
    [1024, '1 KB'],
    [1536, '1.5 KB'],
    [1_234_567, '1.18 MB'],
    [10_485_760, '10 MB'],
    [1_048_575, '1 MB'],
    [3 * 1024 ** 3, '3 GB'],
    [2 * 1024 ** 4, '2048 GB'],
    [-5, '0 Bytes'],
    [Number.NaN, '0 Bytes'],
  ])('%s bytes shows as %s', (bytes, text) => {
    expect(formatFileSize(bytes)).toBe(text);
  });
});

describe('isIsoDate', () => {
  it.each([
    ['2026-07-14', true],
    ['2028-02-29', true],
    ['2027-02-29', false],
    ['2026-13-01', false],
    ['2026-7-14', false],
    ['14/07/2026', false],
    ['', false],
    ['2026-07-14T00:00:00Z', false],
  ])('%s → %s', (value, expected) => {
    expect(isIsoDate(value)).toBe(expected);
  });
});

describe('addDays', () => {
  it.each([
    ['2026-07-14', 7, '2026-07-21'],
    ['2026-07-28', 7, '2026-08-04'],
    ['2026-12-29', 7, '2027-01-05'],
    ['2028-02-27', 2, '2028-02-29'],
    // Across the UK clock change (25 October 2026) a day is still a day.
    ['2026-10-24', 2, '2026-10-26'],
    ['2026-07-01', -1, '2026-06-30'],
  ])('%s + %i days is %s', (date, days, expected) => {
    expect(addDays(date, days)).toBe(expected);
  });

  it('refuses a date that does not exist', () => {
    expect(() => addDays('2026-02-30', 1)).toThrow(RangeError);
  });
});

describe('formatLongDate', () => {
  it.each([
    ['2026-07-14', '14 July 2026'],
    ['2026-01-01', '1 January 2026'],
    ['2026-12-31', '31 December 2026'],
    // An instant just before midnight UTC in summer is already the next day in London.
    ['2026-07-14T23:30:00.000Z', '15 July 2026'],
    ['2026-12-31T23:30:00Z', '31 December 2026'],
  ])('%s shows as %s', (value, text) => {
    expect(formatLongDate(value)).toBe(text);
  });

  it('refuses text that is not a date', () => {
    expect(() => formatLongDate('soon')).toThrow(RangeError);
  });
});

describe('formatShortDay', () => {
  it.each([
    ['2027-07-20', '2027-07-18', 'Tue 20 July'],
    ['2027-01-04', '2026-12-30', 'Mon 4 January 2027'],
    ['2026-12-31', '2027-01-02', 'Thu 31 December 2026'],
  ])('%s (today %s) shows as %s', (day, today, text) => {
    expect(formatShortDay(day, today)).toBe(text);
  });
});

describe('toIsoDate', () => {
  it('gives the UTC calendar date', () => {
    expect(toIsoDate(new Date('2026-07-14T12:00:00Z'))).toBe('2026-07-14');
  });
});
