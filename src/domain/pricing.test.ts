import { describe, it, expect } from 'vitest';
import {
  computeBasePricePence,
  computeTotalPricePence,
  formatPounds,
  penceFromPounds,
  poundsFromPence,
  priceListLines,
} from './pricing.ts';

describe('computeBasePricePence', () => {
  it.each([
    [5, 34_900],
    [6, 59_900],
    [10, 59_900],
    [11, 64_400],
    [12, 68_900],
    [20, 104_900],
    [1, 4_500],
    [4, 18_000],
    [0, 0],
  ])('%i patches cost %i pence', (quantity, pence) => {
    expect(computeBasePricePence(quantity)).toBe(pence);
  });

  it.each([-1, 2.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses %s patches', (quantity) => {
    expect(() => computeBasePricePence(quantity)).toThrow(RangeError);
  });
});

describe('computeTotalPricePence', () => {
  it.each([
    [5, 'day', 34_900],
    [5, 'night', 34_900 + 10_000],
    [10, 'night', 59_900 + 20_000],
    [12, 'day', 59_900 + 9_000],
    [12, 'night', 59_900 + 9_000 + 24_000],
    [1, 'night', 4_500 + 2_000],
  ] as const)('%i patches of %s work cost %i pence', (quantity, workType, pence) => {
    expect(computeTotalPricePence(quantity, workType)).toBe(pence);
  });

  it.each([
    [5, 'day', 34_900 + 15_000],
    [12, 'night', 59_900 + 9_000 + 24_000 + 36_000],
  ] as const)('a Rush Job adds £30 a patch: %i patches of %s work cost %i pence', (quantity, workType, pence) => {
    expect(computeTotalPricePence(quantity, workType, true)).toBe(pence);
  });
});

describe('priceListLines', () => {
  it.each([
    [{ quantity: 5, workType: 'day' }, [['plan', 'Starter Pack: 5 patches', 1, 34_900]]],
    [{ quantity: 8, workType: 'night' }, [['plan', 'Business Pack: 8 patches', 1, 59_900], ['night', 'Night work', 8, 16_000]]],
    [
      { quantity: 14, workType: 'day', rush: true },
      [['plan', 'Business Pack: 10 patches', 1, 59_900], ['extra_patches', 'Extra patches above 10', 4, 18_000], ['rush', 'Rush Job', 14, 42_000]],
    ],
    [{ quantity: 1, workType: 'day' }, [['extra_patches', '1 patch', 1, 4_500]]],
  ] as const)('%o gives the price list\'s lines', (campaign, expected) => {
    expect(priceListLines(campaign).map((line) => [line.kind, line.label, line.quantity, line.amountPence])).toEqual(expected);
  });
});

describe('pounds and pence', () => {
  it.each([
    [34_900, 349],
    [1_999, 19.99],
    [0, 0],
  ])('%i pence is £%s', (pence, pounds) => {
    expect(poundsFromPence(pence)).toBe(pounds);
  });

  it.each([
    [349, 34_900],
    [19.99, 1_999],
    [0.1 + 0.2, 30],
    [1049, 104_900],
  ])('£%s is %i pence', (pounds, pence) => {
    expect(penceFromPounds(pounds)).toBe(pence);
  });

  it('refuses a non-number', () => {
    expect(() => penceFromPounds(Number.NaN)).toThrow(RangeError);
  });
});

describe('formatPounds', () => {
  it.each([
    [34_900, '£349'],
    [34_950, '£349.50'],
    [59_900, '£599'],
    [104_900, '£1,049'],
    [5, '£0.05'],
    [0, '£0'],
  ])('%i pence shows as %s', (pence, text) => {
    expect(formatPounds(pence)).toBe(text);
  });
});
