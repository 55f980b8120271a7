import { describe, expect, it } from 'vitest';
import {
  extractOutwardCode,
  extractPostcode,
  locateAddress,
  postcodeArea,
  regionForOutwardCode,
} from './postcodes.ts';

describe('extractPostcode', () => {
  it.each([
    ['Piccadilly, Manchester, Greater Manchester, England, M1 1RG, United Kingdom', 'M1 1RG'],
    ['1 Park Row, Leeds LS1 5AB', 'LS1 5AB'],
    ['Stockport sk4 1aa', 'SK4 1AA'],
    ['Lime Street, Liverpool L11JD', 'L1 1JD'],
    ['Unit 3, Quayside, Newcastle upon Tyne NE1 3DX', 'NE1 3DX'],
    ['London EC1A 1BB', 'EC1A 1BB'],
    ['Westminster SW1A 2AA', 'SW1A 2AA'],
    ['Old address M1 1AE, moved to Leeds LS2 7HY', 'LS2 7HY'],
    ['Market Street, Manchester', null],
    ['Location 53.480000, -2.240000', null],
    ['Junction 19 of the M6 near Knutsford', null],
    // 'C', 'I', 'K', 'M', 'O' and 'V' never appear in an inward code.
    ['Reference M1 1CK', null],
    ['', null],
  ])('%s → %s', (address, expected) => {
    expect(extractPostcode(address)).toBe(expected);
  });
});

describe('extractOutwardCode', () => {
  it.each([
    ['Manchester M1 1AE', 'M1'],
    ['Stockport SK4 1AA', 'SK4'],
    ['Leeds LS10 1AB', 'LS10'],
    ['London W1A 0AX', 'W1A'],
    ['no postcode here', null],
  ])('%s → %s', (address, expected) => {
    expect(extractOutwardCode(address)).toBe(expected);
  });
});

describe('postcodeArea', () => {
  it.each([
    ['M1', 'M'],
    ['SK4', 'SK'],
    ['ne1', 'NE'],
    ['W1A', 'W'],
  ])('%s → %s', (outcode, area) => {
    expect(postcodeArea(outcode)).toBe(area);
  });
});

describe('regionForOutwardCode', () => {
  it.each([
    // Metropolitan counties group their districts (shared/data/README.md).
    ['M1', 'Greater Manchester'],
    ['M50', 'Greater Manchester'],
    ['SK4', 'Greater Manchester'],
    ['OL1', 'Greater Manchester'],
    ['BL1', 'Greater Manchester'],
    ['WN1', 'Greater Manchester'],
    ['L1', 'Merseyside'],
    ['CH41', 'Merseyside'],
    ['WA10', 'Merseyside'],
    ['LS1', 'West Yorkshire'],
    ['BD1', 'West Yorkshire'],
    ['HX1', 'West Yorkshire'],
    ['HD1', 'West Yorkshire'],
    ['WF1', 'West Yorkshire'],
    ['S1', 'South Yorkshire'],
    ['DN1', 'South Yorkshire'],
    ['NE1', 'Tyne and Wear'],
    ['SR1', 'Tyne and Wear'],
    // Areas do not follow council boundaries: neighbouring codes fall in different regions.
    ['SK9', 'Cheshire East'],
    ['SK17', 'Derbyshire'],
    ['S40', 'Derbyshire'],
    ['CH1', 'Cheshire West and Chester'],
    ['CH5', 'Flintshire'],
    ['NE61', 'Northumberland'],
    ['DH1', 'County Durham'],
    ['TS1', 'Middlesbrough'],
    ['PR1', 'Lancashire'],
    ['FY1', 'Blackpool'],
    ['BB1', 'Blackburn with Darwen'],
    ['LA1', 'Lancashire'],
    ['CA1', 'Cumbria'],
    ['HG1', 'North Yorkshire'],
    ['YO1', 'York'],
    ['WA1', 'Warrington'],
    // The dataset's README: DN21 is in Lincolnshire.
    ['DN21', 'Lincolnshire'],
    // Lower case and spacing are tolerated.
    [' m1 ', 'Greater Manchester'],
    // A district newer than the dataset falls back to its area when the area has one region.
    ['M99', 'Greater Manchester'],
    // Outside the covered areas.
    ['SW1A', null],
    ['B1', null],
    ['NG1', null],
  ])('%s → %s', (outcode, region) => {
    expect(regionForOutwardCode(outcode)).toBe(region);
  });
});

describe('locateAddress', () => {
  it.each([
    ['Piccadilly, Manchester, Greater Manchester, England, M1 1RG, United Kingdom', 'M1', 'Greater Manchester'],
    ['Briggate, Leeds, West Yorkshire, England, LS1 6HD, United Kingdom', 'LS1', 'West Yorkshire'],
    ['Fargate, Sheffield, South Yorkshire, England, United Kingdom', null, 'South Yorkshire'],
    ['Location 53.480000, -2.240000', null, null],
    ['10 Downing Street, London SW1A 2AA', 'SW1A', null],
  ])('%s → %s, %s', (address, postcode, region) => {
    expect(locateAddress(address)).toEqual({ postcode, region });
  });
});
