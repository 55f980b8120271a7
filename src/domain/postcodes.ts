import { AREA_REGIONS, REGION_OUTCODES } from './outcode-regions.ts';

// UK postcodes in addresses, for the admin's route grouping and "By Region" view
// (admin-dashboard.md: bookings are grouped by postcode outward code, then region).

/**
 * A full UK postcode: outward code (area letters, district digit, optional digit or letter) and
 * inward code (digit and two letters), with or without the space. Case-insensitive because people
 * type 'm1 1ae'. Outward codes alone are not matched: 'M6' in an address is as likely a motorway.
 */
const POSTCODE = /\b([A-Z]{1,2}\d[A-Z\d]?) ?(\d[ABD-HJLNP-UW-Z]{2})\b/gi;

const REGION_OF_OUTCODE: ReadonlyMap<string, string> = new Map(
  Object.entries(REGION_OUTCODES).flatMap(([region, outcodes]) =>
    outcodes.split(' ').map((outcode) => [outcode, region] as const),
  ),
);

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

/** The region of an outward code, from the committed table; null outside the covered areas. */
export function regionForOutwardCode(outwardCode: string): string | null {
  const code = outwardCode.trim().toUpperCase();
  return REGION_OF_OUTCODE.get(code) ?? AREA_REGIONS[postcodeArea(code)] ?? null;
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
