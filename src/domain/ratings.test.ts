import { describe, expect, it } from 'vitest';
import { averageRating, responseRate } from './ratings.ts';

describe('averageRating', () => {
  it.each<[number[], number]>([
    [[], 0],
    [[5], 5],
    [[4, 5], 4.5],
    [[4, 4, 5], 4.3],
    [[5, 4, 4, 4], 4.3], // 4.25 rounds half up
    [[5, 5, 4], 4.7],
    [[1, 2], 1.5],
    [[3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5], 4.5], // 89 / 20 = 4.45
  ])('%j → %d', (ratings, average) => {
    expect(averageRating(ratings)).toBe(average);
  });

  it.each([[[6]], [[-1]], [[Number.NaN]]])('refuses %j', (ratings) => {
    expect(() => averageRating(ratings)).toThrow(RangeError);
  });
});

describe('responseRate', () => {
  it.each([
    [0, 0, 0],
    [0, 4, 0],
    [1, 4, 25],
    [2, 3, 67],
    [1, 3, 33],
    [1, 200, 1], // 0.5 rounds half up
    [4, 4, 100],
    [5, 4, 100],
  ])('%i reviews of %i e-mails → %i%%', (reviews, emails, rate) => {
    expect(responseRate(reviews, emails)).toBe(rate);
  });

  it.each([[-1, 3], [1.5, 3], [1, Number.NaN]])('refuses %d of %d', (reviews, emails) => {
    expect(() => responseRate(reviews, emails)).toThrow(RangeError);
  });
});
