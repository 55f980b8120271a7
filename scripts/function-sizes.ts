/**
 * `npx tsx scripts/function-sizes.ts [--dir=.netlify/functions]`: the size of every function
 * `netlify build` (or `netlify serve`, which runs the same build) wrote, zipped and unzipped, with
 * its five largest parts, against Netlify's limits. CI's Netlify stage runs it right after the
 * build (.ci/run); it fails above 45 MB zipped or 200 MB unzipped, a margin under the 50 MB and
 * 250 MB that AWS Lambda, which runs Netlify's functions, refuses past, and when a function
 * carries a part it must not (FORBIDDEN_PARTS: the Node binary, PGlite, the PDF libraries outside
 * proof-preview).
 *
 * It cannot be fooled by a missing or partial build: the functions are those the build's own
 * manifest (manifest.json, beside the zips) lists, each zip must exist, and no zip or no manifest
 * fails the check. Sizes are read from each archive's central directory: the zip's bytes on disk
 * and the sum of its files' uncompressed sizes.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const MB = 1_000_000;
/** Netlify's (Lambda's) limits are 50 MB zipped and 250 MB unzipped; these leave a margin. */
export const LIMITS = { zippedBytes: 45 * MB, unzippedBytes: 200 * MB } as const;

export interface ZipEntry {
  name: string;
  /** Uncompressed bytes. */
  size: number;
  /** Where the entry's local header starts, and how its data is stored (0 stored, 8 deflated). */
  offset: number;
  method: number;
  compressedSize: number;
}

/** The files an archive holds, from its central directory (zip64 included). */
export function readZipEntries(zip: Buffer): ZipEntry[] {
  // The end-of-central-directory record sits in the last 22 + 65 535 bytes (its comment).
  let eocd = -1;
  for (let offset = zip.length - 22; offset >= Math.max(0, zip.length - 22 - 0xffff); offset -= 1) {
    if (zip.readUInt32LE(offset) === 0x06054b50) {
      eocd = offset;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  let count = zip.readUInt16LE(eocd + 10);
  let start = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || start === 0xffffffff) {
    const locator = eocd - 20;
    if (locator < 0 || zip.readUInt32LE(locator) !== 0x07064b50) throw new Error('zip64 archive without its locator');
    const record = Number(zip.readBigUInt64LE(locator + 8));
    count = Number(zip.readBigUInt64LE(record + 32));
    start = Number(zip.readBigUInt64LE(record + 48));
  }
  const entries: ZipEntry[] = [];
  let offset = start;
  for (let index = 0; index < count; index += 1) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`damaged central directory at entry ${index}`);
    const method = zip.readUInt16LE(offset + 10);
    let compressedSize = zip.readUInt32LE(offset + 20);
    let size = zip.readUInt32LE(offset + 24);
    let localOffset = zip.readUInt32LE(offset + 42);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    // The zip64 extra field (id 1) holds, in this order, the values their 32-bit fields could not.
    for (let extra = offset + 46 + nameLength; extra < offset + 46 + nameLength + extraLength; ) {
      const id = zip.readUInt16LE(extra);
      const length = zip.readUInt16LE(extra + 2);
      if (id === 1) {
        let field = extra + 4;
        const next = () => {
          const value = Number(zip.readBigUInt64LE(field));
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localOffset === 0xffffffff) localOffset = next();
      }
      extra += 4 + length;
    }
    if (!name.endsWith('/')) entries.push({ name, size, offset: localOffset, method, compressedSize });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** One entry's bytes, inflated (stored and deflated entries, which is all a function zip holds). */
export function readZipEntry(zip: Buffer, entry: ZipEntry): Buffer {
  if (zip.readUInt32LE(entry.offset) !== 0x04034b50) throw new Error(`damaged local header for ${entry.name}`);
  const start = entry.offset + 30 + zip.readUInt16LE(entry.offset + 26) + zip.readUInt16LE(entry.offset + 28);
  const data = zip.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) return Buffer.from(data);
  if (entry.method === 8) return inflateRawSync(data);
  throw new Error(`${entry.name}: compression method ${entry.method} is not supported`);
}

/** What a file belongs to: its package under node_modules, else its first folder (or itself). */
export function partOf(name: string): string {
  // The innermost node_modules: a package nested inside another is counted as itself.
  const packageMatch = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)(?!.*\/node_modules\/)/.exec(name);
  if (packageMatch) return `node_modules/${packageMatch[1]}`;
  const slash = name.indexOf('/');
  return slash < 0 ? name : name.slice(0, slash);
}

/**
 * Parts no function may carry, whatever its size, each with the reason: they slipped in before
 * (docs/DEPLOYMENT.md, "What each function carries") and would again without a word while under the limits.
 * The PDF libraries belong to proof-preview alone.
 */
export const FORBIDDEN_PARTS: readonly { part: string; reason: string; except?: string }[] = [
  { part: 'node_modules/node', reason: 'the Node binary that ran the build (run netlify-cli on a Node outside the project)' },
  { part: 'node_modules/@electric-sql/pglite', reason: 'PGlite is for `npm start`; functions open a PostgreSQL server only' },
  { part: 'node_modules/pdfjs-dist', reason: 'pdf.js belongs to the proof-preview function', except: 'proof-preview' },
  { part: 'node_modules/@napi-rs/canvas', reason: 'the canvas belongs to the proof-preview function', except: 'proof-preview' },
];

export interface FunctionSize {
  name: string;
  zippedBytes: number;
  unzippedBytes: number;
  files: number;
  /** The five largest parts, largest first. */
  largest: { part: string; bytes: number }[];
  problems: string[];
}

/** One function's archive measured and judged against `limits`. */
export function measureFunction(name: string, zip: Buffer, limits: typeof LIMITS = LIMITS): FunctionSize {
  const entries = readZipEntries(zip);
  const byPart = new Map<string, number>();
  for (const entry of entries) byPart.set(partOf(entry.name), (byPart.get(partOf(entry.name)) ?? 0) + entry.size);
  const unzippedBytes = entries.reduce((sum, entry) => sum + entry.size, 0);
  const problems: string[] = [];
  for (const { part, reason, except } of FORBIDDEN_PARTS) {
    const bytes = [...byPart].filter(([name]) => name === part || name.startsWith(`${part}-`)).reduce((sum, [, size]) => sum + size, 0);
    if (bytes > 0 && name !== except) problems.push(`carries ${part} (${mb(bytes)}): ${reason}`);
  }
  if (zip.length > limits.zippedBytes) problems.push(`${mb(zip.length)} zipped is over ${mb(limits.zippedBytes)}`);
  if (unzippedBytes > limits.unzippedBytes) problems.push(`${mb(unzippedBytes)} unzipped is over ${mb(limits.unzippedBytes)}`);
  return {
    name,
    zippedBytes: zip.length,
    unzippedBytes,
    files: entries.length,
    largest: [...byPart].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([part, bytes]) => ({ part, bytes })),
    problems,
  };
}

interface Manifest {
  functions?: { name: string; path: string }[];
}

/**
 * Every function the build's manifest lists, measured from its zip. Throws when the folder holds
 * no manifest, the manifest no function, or a listed zip is missing.
 */
export function measureBuiltFunctions(directory: string, limits: typeof LIMITS = LIMITS): FunctionSize[] {
  const manifestFile = path.join(directory, 'manifest.json');
  if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run \`netlify build --offline\` first`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest;
  const listed = manifest.functions ?? [];
  const zips = existsSync(directory) ? readdirSync(directory).filter((file) => file.endsWith('.zip')) : [];
  if (listed.length === 0 || zips.length === 0) throw new Error(`no built functions in ${directory} (manifest lists ${listed.length}, ${zips.length} zip files)`);
  return listed.map((entry) => {
    // The manifest's paths are absolute on the machine that built; the zip sits in this folder.
    const zipFile = path.join(directory, path.basename(entry.path));
    if (!zipFile.endsWith('.zip') || !existsSync(zipFile) || !statSync(zipFile).isFile()) {
      throw new Error(`the manifest lists ${entry.name} at ${entry.path}, but ${zipFile} is not there`);
    }
    return measureFunction(entry.name, readFileSync(zipFile), limits);
  });
}

export const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** The report CI prints: one block per function, then the verdict. */
export function report(sizes: FunctionSize[], limits: typeof LIMITS = LIMITS): string {
  const lines = [`Netlify functions as built (limits: ${mb(limits.zippedBytes)} zipped, ${mb(limits.unzippedBytes)} unzipped)`];
  for (const size of sizes) {
    lines.push(
      `\n  ${size.name}: ${mb(size.zippedBytes)} zipped, ${mb(size.unzippedBytes)} unzipped, ${size.files} files  ${size.problems.length ? 'FAIL' : 'ok'}`,
    );
    for (const { part, bytes } of size.largest) lines.push(`    ${mb(bytes).padStart(9)}  ${part}`);
    for (const problem of size.problems) lines.push(`    FAIL: ${problem}`);
  }
  const failed = sizes.filter((size) => size.problems.length > 0);
  lines.push(failed.length ? `\n${failed.length} function(s) over the limits or carrying what they must not` : `\nAll ${sizes.length} functions within the limits`);
  return lines.join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const directory = process.argv.find((argument) => argument.startsWith('--dir='))?.slice('--dir='.length) ?? '.netlify/functions';
  try {
    const sizes = measureBuiltFunctions(directory);
    console.log(report(sizes));
    process.exitCode = sizes.some((size) => size.problems.length > 0) ? 1 : 0;
  } catch (error) {
    console.error(`Function sizes: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
