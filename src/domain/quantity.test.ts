import { describe, it, expect } from 'vitest';
import { normalizeCustomInput, quantityForLocationCount, selectTile } from './quantity.ts';

describe('quantityForLocationCount', () => {
  it.each([
    [1, '5', { quantity: '5', isCustom: false }],
    [5, '10', { quantity: '5', isCustom: false }],
    [6, '5', { quantity: '10', isCustom: false }],
    [10, '25', { quantity: '10', isCustom: false }],
    [11, '5', { quantity: '11', isCustom: true }],
    [30, '10', { quantity: '30', isCustom: true }],
  ])('%i locations with quantity %s → %o', (count, current, expected) => {
    expect(quantityForLocationCount(count, current)).toEqual(expected);
  });

  it.each([
    [0, '5'],
    [3, '1'],
    [12, '1'],
  ])('%i locations with quantity %s leave the quantity alone', (count, current) => {
    expect(quantityForLocationCount(count, current)).toBeNull();
  });
});

describe('selectTile', () => {
  it.each([
    ['5', { quantity: '5', isCustom: false }],
    ['10', { quantity: '10', isCustom: false }],
    ['custom', { quantity: '10', isCustom: true }],
  ] as const)('the %s tile → %o', (tile, expected) => {
    expect(selectTile(tile)).toEqual(expected);
  });
});

describe('normalizeCustomInput', () => {
  it.each([
    ['', '10'],
    ['  ', '10'],
    ['10', '10'],
    ['25', '25'],
    ['012', '12'],
    ['9', null],
    ['1', null],
    ['0', null],
    ['-12', null],
    ['12.5', null],
    ['abc', null],
    ['1e3', null],
  ])('%j → %j', (input, expected) => {
    expect(normalizeCustomInput(input)).toBe(expected);
  });
});
