import { describe, expect, it } from 'vitest';
import {
  extractOutwardCode,
  extractPostcode,
  locateAddress,
  outcodeInfo,
  postcodeArea,
  regionForOutwardCode,
} from './postcodes.ts';
import { OUTCODE_ROWS, REGION_OUTCODES } from './outcode-regions.ts';

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
    // The table covers the whole UK; London is one region, as is the West Midlands county.
    ['SW1A', 'Greater London'],
    ['EC1A', 'Greater London'],
    ['B1', 'West Midlands'],
    ['NG1', 'Nottingham'],
    ['BT1', 'Belfast'],
    // Unknown codes in an area split between counties, and nonsense.
    ['S99', null],
    ['ZZ1', null],
    ['', null],
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
    ['10 Downing Street, London SW1A 2AA', 'SW1A', 'Greater London'],
  ])('%s → %s, %s', (address, postcode, region) => {
    expect(locateAddress(address)).toEqual({ postcode, region });
  });
});

describe('regionForOutwardCode: areas split between counties', () => {
  // Postcode areas do not follow council boundaries (shared/data/README.md).
  it.each([
    ['S1', 'South Yorkshire'],
    ['S18', 'Derbyshire'],
    ['SK1', 'Greater Manchester'],
    ['SK9', 'Cheshire East'],
    ['CH1', 'Cheshire West and Chester'],
    ['CH41', 'Merseyside'],
    ['DL1', 'Darlington'],
    ['DL6', 'North Yorkshire'],
    ['OL1', 'Greater Manchester'],
    ['OL13', 'Lancashire'],
    ['OL14', 'West Yorkshire'],
    ['DN1', 'South Yorkshire'],
    ['DN21', 'Lincolnshire'],
  ])('%s → %s', (outcode, region) => {
    expect(regionForOutwardCode(outcode)).toBe(region);
  });
});

describe('outcodeInfo', () => {
  it.each([
    ['M1', { lat: 53.4773, lng: -2.2351, town: 'Manchester', county: 'Greater Manchester', onsRegion: 'North West' }],
    // A blank town in the dataset falls back to the district.
    ['SK1', { lat: 53.4074, lng: -2.1504, town: 'Stockport', county: 'Greater Manchester', onsRegion: 'North West' }],
    ['SK9', { lat: 53.3272, lng: -2.2298, town: 'Macclesfield', county: 'Cheshire East', onsRegion: 'North West' }],
    ['S18', { lat: 53.2993, lng: -1.4718, town: 'Dronfield', county: 'Derbyshire', onsRegion: 'East Midlands' }],
    ['OL14', { lat: 53.714, lng: -2.0985, town: 'Todmorden', county: 'West Yorkshire', onsRegion: 'Yorkshire and the Humber' }],
    ['DL6', { lat: 54.3704, lng: -1.3889, town: 'Winton', county: 'North Yorkshire', onsRegion: 'Yorkshire and the Humber' }],
    // The dataset labels Lincolnshire as Yorkshire; it is East Midlands.
    ['DN21', { lat: 53.4193, lng: -0.7013, town: 'Corringham', county: 'Lincolnshire', onsRegion: 'East Midlands' }],
    ['NE1', { lat: 54.9726, lng: -1.611, town: 'Newcastle Upon Tyne', county: 'Tyne and Wear', onsRegion: 'North East' }],
    ['SW1A', { lat: 51.5027, lng: -0.1311, town: 'Westminster', county: 'Greater London', onsRegion: 'London' }],
    ['CF10', { lat: 51.4739, lng: -3.1765, town: 'Butetown', county: 'Cardiff', onsRegion: 'Wales' }],
    ['G1', { lat: 55.8604, lng: -4.2467, town: 'Glasgow', county: 'Glasgow City', onsRegion: 'Scotland' }],
    ['BT1', { lat: 54.5994, lng: -5.9284, town: 'Belfast', county: 'Belfast', onsRegion: 'Northern Ireland' }],
    ['IM1', { lat: 54.1505, lng: -4.4817, town: 'Douglas, Braddan', county: 'Isle of Man', onsRegion: 'Isle of Man' }],
    ['JE1', { lat: 49.1909, lng: -2.1196, town: 'St Helier', county: 'Jersey', onsRegion: 'Channel Islands' }],
  ])('%s', (outcode, expected) => {
    expect(outcodeInfo(outcode)).toEqual({ outcode, ...expected });
  });

  it.each([' sk9 ', 'sk9'])('tolerates case and spacing: %j', (input) => {
    expect(outcodeInfo(input)?.outcode).toBe('SK9');
  });

  it.each(['M99', 'ZZ1', '', 'M1 1AE'])('%j → null (not in the table)', (input) => {
    expect(outcodeInfo(input)).toBeNull();
  });
});

describe('the outward-code table', () => {
  const ONS_REGIONS = [
    'North East', 'North West', 'Yorkshire and the Humber', 'East Midlands', 'West Midlands', 'East of England',
    'London', 'South East', 'South West', 'Wales', 'Scotland', 'Northern Ireland', 'Channel Islands', 'Isle of Man',
  ];
  const rows = OUTCODE_ROWS.map((row) => outcodeInfo(row.split('|')[0]!)!);

  it('covers every outward code of the dataset, each inside the British Isles', () => {
    expect(rows).toHaveLength(2856);
    for (const row of rows) {
      expect(row.lat).toBeGreaterThan(49);
      expect(row.lat).toBeLessThan(61);
      expect(row.lng).toBeGreaterThan(-9);
      expect(row.lng).toBeLessThan(2);
      expect(row.town).not.toBe('');
    }
  });

  it('names only the ONS regions and nations', () => {
    expect(new Set(rows.map((row) => row.onsRegion))).toEqual(new Set(ONS_REGIONS));
  });

  it.each([
    ['Greater Manchester', 'M1'],
    ['Merseyside', 'L1'],
    ['West Yorkshire', 'LS1'],
    ['South Yorkshire', 'S1'],
    ['Tyne and Wear', 'NE1'],
    ['West Midlands', 'B1'],
  ])('REGION_OUTCODES lists %s with %s', (region, outcode) => {
    expect(REGION_OUTCODES[region]!.split(' ')).toContain(outcode);
  });
});
