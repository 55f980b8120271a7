/**
 * Derives src/domain/outcode-regions.ts (every UK outward code → centroid, town, county, ONS
 * region) from the shared outward-code dataset (../shared/data/uk-outcodes.csv, see its README).
 * Run it again only when the dataset or the rules below change; the generated table is committed.
 *
 *   npx tsx scripts/build-outcode-regions.ts [path/to/uk-outcodes.csv]
 *
 * Rules:
 * - Every row is kept: the admin groups whatever addresses customers give, and routing needs a
 *   centroid for each.
 * - County: the metropolitan county for the districts the admin's "By Region" view groups (Greater
 *   Manchester, Merseyside, West Yorkshire, South Yorkshire, Tyne and Wear, and likewise the West
 *   Midlands); every London code is 'Greater London' (the dataset names a few by borough);
 *   otherwise the dataset's own `region` column (a county or unitary authority, 2017 names: Cumbria
 *   and North Yorkshire predate the 2023 reorganisation). Postcode areas do not follow council
 *   boundaries, so the county is assigned per outward code, never per area (S, SK, CH, DL, OL straddle).
 * - ONS region: the dataset's `uk_region` without its ' England' suffix ('North West'), except that
 *   the dataset puts Lincolnshire (DN21 and the LN, NG3x, PE codes) in Yorkshire: it is East Midlands.
 * - Town: the dataset's town, or the district it names when the town is blank (M1, SK1, B1).
 * - Centroid: latitude and longitude rounded to 4 decimals (about 10 m, far finer than a district).
 * - Area fallback: an area whose codes all share one county (e.g. M → Greater Manchester) also
 *   gets an area-level entry, for outward codes newer than the dataset.
 *
 * The table is compact (one short string per code, counties indexed) because it is loaded by the
 * server only; no browser island imports it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// An argument is a path from where the command runs; the default is beside the repository.
const csvPath = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, '..', 'shared', 'data', 'uk-outcodes.csv');
const outPath = path.join(root, 'src', 'domain', 'outcode-regions.ts');

const METROPOLITAN_COUNTIES: Record<string, string[]> = {
  'Greater Manchester': [
    'Greater Manchester', 'Manchester', 'Salford', 'Trafford', 'Bury', 'Wigan',
    'Tameside', 'Rochdale', 'Oldham', 'Bolton', 'Stockport',
  ],
  Merseyside: ['Liverpool', 'Sefton', 'Knowsley', 'St Helens', 'Wirral'],
  'West Yorkshire': ['Leeds', 'Bradford', 'Calderdale', 'Kirklees', 'Wakefield'],
  'South Yorkshire': ['Sheffield', 'Rotherham', 'Barnsley', 'Doncaster'],
  'Tyne and Wear': ['Newcastle Upon Tyne', 'Gateshead', 'North Tyneside', 'South Tyneside', 'Sunderland'],
  'West Midlands': ['Birmingham', 'Coventry', 'Dudley', 'Sandwell', 'Solihull', 'Walsall', 'Wolverhampton'],
};
const COUNTY_OF_DISTRICT = new Map(
  Object.entries(METROPOLITAN_COUNTIES).flatMap(([county, districts]) =>
    districts.map((district) => [district.toLowerCase(), county] as const),
  ),
);

/** The dataset's `uk_region` → ONS region name; unlisted values are kept as they are. */
const ONS_REGION: Record<string, string> = {
  'North West England': 'North West',
  'North East England': 'North East',
  'South West England': 'South West',
  'South East England': 'South East',
  // A few Scottish rows carry their council area in this column.
  'City of Edinburgh': 'Scotland',
  'West Lothian': 'Scotland',
};
/** Counties the dataset places in the wrong ONS region (its README: DN21 is Lincolnshire). */
const ONS_REGION_OF_COUNTY: Record<string, string> = { Lincolnshire: 'East Midlands' };
/** Crown dependencies are outside the ONS regions; the ONS postcode directory names them so. */
const ONS_REGION_OF_COUNTRY: Record<string, string> = {
  GG: 'Channel Islands',
  JE: 'Channel Islands',
  IM: 'Isle of Man',
};
const COUNTY_NAMES: Record<string, string> = { IOM: 'Isle of Man' };

/** Splits one CSV line, honouring double-quoted fields (some town names hold commas). */
function splitCsvLine(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

const areaOf = (outcode: string) => /^[A-Z]+/.exec(outcode)?.[0] ?? '';
const round4 = (value: string) => {
  // Half away from zero, so a west longitude rounds like its east mirror.
  const number = Math.sign(Number(value)) * Math.round(Math.abs(Number(value)) * 10_000) / 10_000;
  if (!Number.isFinite(number)) throw new Error(`Not a coordinate: "${value}"`);
  return String(number);
};

const [header, ...lines] = readFileSync(csvPath, 'utf8').split(/\r?\n/).filter((line) => line.trim() !== '');
const columns = splitCsvLine(header!);
const column = (name: string) => {
  const index = columns.indexOf(name);
  if (index < 0) throw new Error(`${csvPath} has no "${name}" column`);
  return index;
};
const at = {
  outcode: column('postcode'),
  lat: column('latitude'),
  lng: column('longitude'),
  town: column('town'),
  district: column('region'),
  ukRegion: column('uk_region'),
  country: column('country'),
};

interface Row { outcode: string; lat: string; lng: string; town: string; county: string; onsRegion: string }
const rows: Row[] = [];
for (const line of lines) {
  const fields = splitCsvLine(line).map((field) => field.trim());
  const outcode = fields[at.outcode]!.toUpperCase();
  const district = fields[at.district]!;
  const ukRegion = fields[at.ukRegion]!;
  const county = ukRegion === 'London'
    ? 'Greater London'
    : COUNTY_OF_DISTRICT.get(district.toLowerCase()) ?? COUNTY_NAMES[district] ?? district;
  const onsRegion = ONS_REGION_OF_COUNTY[county] ?? ONS_REGION_OF_COUNTRY[fields[at.country]!]
    ?? ONS_REGION[ukRegion] ?? ukRegion;
  const town = fields[at.town] || COUNTY_NAMES[district] || district;
  for (const value of [outcode, town, county, onsRegion]) {
    if (!value || value.includes('|')) throw new Error(`Unusable field "${value}" in: ${line}`);
  }
  rows.push({ outcode, lat: round4(fields[at.lat]!), lng: round4(fields[at.lng]!), town, county, onsRegion });
}

const byOutcode = (a: string, b: string) =>
  areaOf(a).localeCompare(areaOf(b)) || a.localeCompare(b, 'en', { numeric: true });
rows.sort((a, b) => byOutcode(a.outcode, b.outcode));

const counties = [...new Set(rows.map((row) => `${row.county}|${row.onsRegion}`))].sort((a, b) => a.localeCompare(b));
const countyIndex = new Map(counties.map((county, index) => [county, index]));

const countiesByArea = new Map<string, Set<string>>();
for (const row of rows) {
  const area = areaOf(row.outcode);
  countiesByArea.set(area, (countiesByArea.get(area) ?? new Set()).add(row.county));
}
const areaLines = [...countiesByArea.entries()]
  .filter(([, regions]) => regions.size === 1)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([area, regions]) => `  ${area}: ${JSON.stringify([...regions][0])},`);

const source = `// Generated by scripts/build-outcode-regions.ts from ../shared/data/uk-outcodes.csv. Do not edit by hand:
// change the script's rules and run it again. ${rows.length} outward codes, ${counties.length} counties.
// Read it through src/domain/postcodes.ts (outcodeInfo, regionForOutwardCode). Server-only.

/** 'county|ONS region'; OUTCODE_ROWS point here by index. */
export const COUNTIES: readonly string[] = [
${counties.map((county) => `  ${JSON.stringify(county)},`).join('\n')}
];

/** 'outward code|latitude|longitude|town|index into COUNTIES', sorted by area then district. */
export const OUTCODE_ROWS: readonly string[] = [
${rows.map((row) => `  ${JSON.stringify([row.outcode, row.lat, row.lng, row.town, countyIndex.get(`${row.county}|${row.onsRegion}`)].join('|'))},`).join('\n')}
];

/** Postcode areas whose every known outward code lies in one county (fallback for newer codes). */
export const AREA_REGIONS: Readonly<Record<string, string>> = {
${areaLines.join('\n')}
};

/** County (the admin's "By Region" name) → its outward codes, separated by spaces. */
export const REGION_OUTCODES: Readonly<Record<string, string>> = (() => {
  const byCounty: Record<string, string> = {};
  for (const row of OUTCODE_ROWS) {
    const [outcode, , , , index] = row.split('|');
    const county = COUNTIES[Number(index)]!.split('|')[0]!;
    byCounty[county] = byCounty[county] ? \`\${byCounty[county]} \${outcode}\` : outcode!;
  }
  return byCounty;
})();
`;

writeFileSync(outPath, source);
console.log(`Wrote ${path.relative(root, outPath)}: ${rows.length} outward codes in ${counties.length} counties.`);
