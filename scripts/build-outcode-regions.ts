/**
 * Derives src/domain/outcode-regions.ts (postcode outward code → region) from the shared
 * outward-code dataset (../shared/data/uk-outcodes.csv, see its README). Run it again only when
 * the dataset or the rules below change; the generated table is committed.
 *
 *   npx tsx scripts/build-outcode-regions.ts [path/to/uk-outcodes.csv]
 *
 * Rules:
 * - Kept: every outward code of the North England postcode areas the business serves, and every
 *   other code whose ONS region is North West, North East or Yorkshire and the Humber.
 * - Region: the metropolitan county for the districts the admin's "By Region" view groups
 *   (Greater Manchester, Merseyside, West Yorkshire, South Yorkshire, Tyne and Wear); otherwise the
 *   dataset's own `region` column (a county or unitary authority). Postcode areas do not follow
 *   council boundaries, so the region is assigned per outward code, never per area.
 * - Area fallback: a served area whose codes all share one region (e.g. M → Greater Manchester)
 *   also gets an area-level entry, for outward codes newer than the dataset.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const csvPath = path.resolve(process.argv[2] ?? path.join(root, '..', 'shared', 'data', 'uk-outcodes.csv'));
const outPath = path.join(root, 'src', 'domain', 'outcode-regions.ts');

const SERVED_AREAS = [
  'M', 'SK', 'OL', 'BL', 'WN', 'WA', 'L', 'CH', 'PR', 'BB', 'FY', 'LA', 'CA',
  'LS', 'BD', 'HX', 'HD', 'WF', 'S', 'DN', 'NE', 'SR', 'DH', 'TS', 'HG', 'YO',
];
const NORTHERN_REGIONS = new Set(['North West England', 'North East England', 'Yorkshire and the Humber']);

const METROPOLITAN_COUNTIES: Record<string, string[]> = {
  'Greater Manchester': [
    'Greater Manchester', 'Manchester', 'Salford', 'Trafford', 'Bury', 'Wigan',
    'Tameside', 'Rochdale', 'Oldham', 'Bolton', 'Stockport',
  ],
  Merseyside: ['Liverpool', 'Sefton', 'Knowsley', 'St Helens', 'Wirral'],
  'West Yorkshire': ['Leeds', 'Bradford', 'Calderdale', 'Kirklees', 'Wakefield'],
  'South Yorkshire': ['Sheffield', 'Rotherham', 'Barnsley', 'Doncaster'],
  'Tyne and Wear': ['Newcastle Upon Tyne', 'Gateshead', 'North Tyneside', 'South Tyneside', 'Sunderland'],
};
const COUNTY_OF_DISTRICT = new Map(
  Object.entries(METROPOLITAN_COUNTIES).flatMap(([county, districts]) =>
    districts.map((district) => [district.toLowerCase(), county] as const),
  ),
);

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

const [header, ...lines] = readFileSync(csvPath, 'utf8').split(/\r?\n/).filter((line) => line.trim() !== '');
const columns = splitCsvLine(header!);
const column = (name: string) => {
  const index = columns.indexOf(name);
  if (index < 0) throw new Error(`${csvPath} has no "${name}" column`);
  return index;
};
const [outcodeAt, regionAt, ukRegionAt] = [column('postcode'), column('region'), column('uk_region')];

const regionOfOutcode = new Map<string, string>();
for (const line of lines) {
  const fields = splitCsvLine(line);
  const outcode = fields[outcodeAt]!.trim().toUpperCase();
  const district = fields[regionAt]!.trim();
  const kept = SERVED_AREAS.includes(areaOf(outcode)) || NORTHERN_REGIONS.has(fields[ukRegionAt]!.trim());
  if (!kept || !district) continue;
  regionOfOutcode.set(outcode, COUNTY_OF_DISTRICT.get(district.toLowerCase()) ?? district);
}

const outcodesByRegion = new Map<string, string[]>();
const regionsByArea = new Map<string, Set<string>>();
for (const [outcode, region] of regionOfOutcode) {
  outcodesByRegion.set(region, [...(outcodesByRegion.get(region) ?? []), outcode]);
  const area = areaOf(outcode);
  regionsByArea.set(area, (regionsByArea.get(area) ?? new Set()).add(region));
}

const byOutcode = (a: string, b: string) =>
  areaOf(a).localeCompare(areaOf(b)) || a.localeCompare(b, 'en', { numeric: true });
const regionLines = [...outcodesByRegion.keys()]
  .sort((a, b) => a.localeCompare(b))
  .map((region) => `  ${JSON.stringify(region)}: ${JSON.stringify(outcodesByRegion.get(region)!.sort(byOutcode).join(' '))},`);
const areaLines = [...regionsByArea.entries()]
  // Only areas kept whole: a partly kept area (e.g. NG) says nothing about its other codes.
  .filter(([area, regions]) => SERVED_AREAS.includes(area) && regions.size === 1)
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([area, regions]) => `  ${area}: ${JSON.stringify([...regions][0])},`);

const source = `// Generated by scripts/build-outcode-regions.ts from ../shared/data/uk-outcodes.csv. Do not edit by hand:
// change the script's rules and run it again. ${regionOfOutcode.size} outward codes.
// Metropolitan counties group their districts; other codes keep the dataset's county or unitary
// authority (2017 names: Cumbria and North Yorkshire predate the 2023 reorganisation).

/** Region → its outward codes, separated by spaces. */
export const REGION_OUTCODES: Readonly<Record<string, string>> = {
${regionLines.join('\n')}
};

/** Postcode areas whose every known outward code lies in one region (fallback for newer codes). */
export const AREA_REGIONS: Readonly<Record<string, string>> = {
${areaLines.join('\n')}
};
`;

writeFileSync(outPath, source);
console.log(`Wrote ${path.relative(root, outPath)}: ${regionOfOutcode.size} outward codes in ${outcodesByRegion.size} regions.`);
