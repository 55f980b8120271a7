import { describe, expect, it } from 'vitest';
import { townForOutwardCode } from './postcode-towns.ts';

describe('townForOutwardCode', () => {
  it.each([
    ['M1', 'Manchester'],
    ['m4', 'Manchester'],
    ['LS6', 'Leeds'],
    ['L1', 'Liverpool'],
    ['S10', 'Sheffield'],
    ['NE1', 'Newcastle upon Tyne'],
    ['SK4', 'Stockport'],
    ['SW1A', null],
    ['', null],
    [null, null],
  ])('%s → %s', (outwardCode, town) => {
    expect(townForOutwardCode(outwardCode)).toBe(town);
  });
});
