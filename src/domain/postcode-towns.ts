import { postcodeArea } from './postcodes.ts';

// The public project page names the town a campaign ran in, never its street. Royal Mail names
// each postcode area after its main post town; that town is as precise as the page should be.
// Only the areas this business covers (outcode-regions.ts) are listed; others show the region.

export const POSTCODE_AREA_TOWNS: Readonly<Record<string, string>> = {
  BB: 'Blackburn',
  BD: 'Bradford',
  BL: 'Bolton',
  CA: 'Carlisle',
  CH: 'Chester',
  CW: 'Crewe',
  DH: 'Durham',
  DL: 'Darlington',
  DN: 'Doncaster',
  FY: 'Blackpool',
  HD: 'Huddersfield',
  HG: 'Harrogate',
  HU: 'Hull',
  HX: 'Halifax',
  L: 'Liverpool',
  LA: 'Lancaster',
  LN: 'Lincoln',
  LS: 'Leeds',
  M: 'Manchester',
  NE: 'Newcastle upon Tyne',
  OL: 'Oldham',
  PR: 'Preston',
  S: 'Sheffield',
  SK: 'Stockport',
  SR: 'Sunderland',
  TS: 'Teesside',
  WA: 'Warrington',
  WF: 'Wakefield',
  WN: 'Wigan',
  YO: 'York',
};

/** 'LS1' → 'Leeds'; an outward code outside the listed areas, or none → null. */
export function townForOutwardCode(outwardCode: string | null | undefined): string | null {
  if (!outwardCode) return null;
  return POSTCODE_AREA_TOWNS[postcodeArea(outwardCode)] ?? null;
}
