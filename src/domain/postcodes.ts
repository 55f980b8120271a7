import { AREA_REGIONS, COUNTIES, OUTCODE_ROWS } from './outcode-regions.ts';

// UK postcodes in addresses, for the admin's route grouping and "By Region" view
// (admin-dashboard.md: bookings are grouped by postcode outward code, then region).
// The outward-code table is large (every UK code with its centroid): import this module from
// server code only, never from a browser island.

/**
 * A full UK postcode: outward code (area letters, district digit, optional digit or letter) and
 * inward code (digit and two letters), with or without the space. Case-insensitive because people
 * type 'm1 1ae'. Outward codes alone are not matched: 'M6' in an address is as likely a motorway.
 */
const POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?) ?(\d[ABD-HJLNP-UW-Z]{2})\b/gi;

/** What the committed table knows about one outward code. */
export interface OutcodeInfo {
  /** The outward code, upper case: 'SK9'. */
  outcode: string;
  /** Centroid of the code's postcodes, degrees rounded to 4 decimals (about 10 m). */
  lat: number;
  lng: number;
  /** The main town or locality: 'Macclesfield'. */
  town: string;
  /**
   * The county, unitary authority or metropolitan county: the "region" the admin's By Region view
   * names ('Greater Manchester', 'Cheshire East').
   */
  county: string;
  /** The ONS region or nation: 'North West', 'Yorkshire and the Humber', 'Scotland'. */
  onsRegion: string;
}

/**
 * The table as a map, built on the first look-up rather than at import: the API function imports
 * this module on every cold start, and only some requests ask for an outward code.
 */
let outcodeMap: ReadonlyMap<string, OutcodeInfo> | undefined;
function outcodeTable(): ReadonlyMap<string, OutcodeInfo> {
  outcodeMap ??= new Map(
    OUTCODE_ROWS.map((row) => {
      const [outcode, lat, lng, town, index] = row.split('|') as [string, string, string, string, string];
      const [county, onsRegion] = COUNTIES[Number(index)]!.split('|') as [string, string];
      return [outcode, { outcode, lat: Number(lat), lng: Number(lng), town, county, onsRegion }] as const;
    }),
  );
  return outcodeMap;
}

/** Named in addresses the geocoder writes ('..., Leeds, West Yorkshire, England, ...'). */
const METROPOLITAN_COUNTIES = [
  'Greater Manchester',
  'Merseyside',
  'West Yorkshire',
  'South Yorkshire',
  'Tyne and Wear',
] as const;

/**
 * The last full postcode in an address, normalised ('m11ae' → 'M1 1AE'). The last one, because
 * addresses end with the postcode and may begin with a building or unit reference.
 */
export function extractPostcode(address: string): string | null {
  const matches = [...address.matchAll(POSTCODE)];
  const last = matches.at(-1);
  return last ? `${last[1]!.toUpperCase()} ${last[2]!.toUpperCase()}` : null;
}

/** 'M1 1AE' → 'M1'; an address without a full postcode → null. */
export function extractOutwardCode(address: string): string | null {
  return extractPostcode(address)?.split(' ')[0] ?? null;
}

/** 'SK4' → 'SK'. */
export function postcodeArea(outwardCode: string): string {
  return /^[A-Z]+/i.exec(outwardCode)?.[0].toUpperCase() ?? '';
}

/**
 * Centroid, town, county and ONS region of an outward code ('sk9', ' M1 ' are tolerated); null for
 * a code the table does not hold (a mistyped code, or one newer than the dataset).
 */
export function outcodeInfo(outwardCode: string): OutcodeInfo | null {
  return outcodeTable().get(outwardCode.trim().toUpperCase()) ?? null;
}

/**
 * The region (county or metropolitan county) of an outward code, from the committed table; a code
 * the table lacks falls back to its postcode area when the whole area lies in one county
 * ('M99' → Greater Manchester); otherwise null.
 */
export function regionForOutwardCode(outwardCode: string): string | null {
  const code = outwardCode.trim().toUpperCase();
  return outcodeTable().get(code)?.county ?? AREA_REGIONS[postcodeArea(code)] ?? null;
}

export interface AddressLocation {
  /** The outward code, e.g. 'M1'. */
  postcode: string | null;
  region: string | null;
}

/**
 * Outward code and region of an address: by its postcode, or, when it has none, by a
 * metropolitan county named in it.
 */
export function locateAddress(address: string): AddressLocation {
  const postcode = extractOutwardCode(address);
  if (postcode) return { postcode, region: regionForOutwardCode(postcode) };
  const lower = address.toLowerCase();
  const county = METROPOLITAN_COUNTIES.find((name) => lower.includes(name.toLowerCase()));
  return { postcode: null, region: county ?? null };
}
