import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS, measureBuiltFunctions, measureFunction, partOf, readZipEntries, readZipEntry, report } from './function-sizes.ts';

// The size check CI runs on Netlify's built functions (scripts/function-sizes.ts), on archives
// this file writes itself: a zip of compressed files whose sizes are known.

/** A zip archive of `files` (deflated, as Netlify's are), written by hand to the format. */
function zipOf(files: Record<string, Buffer>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, data] of Object.entries(files)) {
    const compressed = deflateRawSync(data);
    const nameBytes = Buffer.from(name);
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt16LE(8, 8);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(compressed.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(header, nameBytes, compressed);
    centrals.push(central, nameBytes);
    offset += header.length + nameBytes.length + compressed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Compresses to almost nothing: the unzipped size far above the zipped one. */
const zeros = (bytes: number) => Buffer.alloc(bytes);
/** Does not compress: zipped about as large as unzipped. */
const noise = (bytes: number) => Buffer.from(Array.from({ length: bytes }, (_, index) => (index * 7919 + (index >> 3) * 104729) % 251));

const FILES = {
  'netlify/functions/api.mjs': noise(3_000),
  'node_modules/sharp/lib/index.js': zeros(1_000),
  'node_modules/@img/sharp-libvips-linux-x64/lib/libvips.so': zeros(50_000),
  'node_modules/@img/sharp-libvips-linux-x64/versions.json': zeros(500),
  'node_modules/stripe/esm/stripe.js': noise(2_000),
  'src/server/api/app.js': zeros(700),
  'package.json': zeros(100),
};
const ZIP = zipOf(FILES);
const UNZIPPED = Object.values(FILES).reduce((sum, data) => sum + data.length, 0);

const folders: string[] = [];
afterAll(() => folders.forEach((folder) => rmSync(folder, { recursive: true, force: true })));
function buildFolder(manifest: unknown, zips: Record<string, Buffer>): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'cp-fn-sizes-'));
  folders.push(folder);
  if (manifest !== undefined) writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
  for (const [name, zip] of Object.entries(zips)) writeFileSync(path.join(folder, name), zip);
  return folder;
}

describe('measuring a built function', () => {
  it('reads every file and its uncompressed size from the archive', () => {
    const entries = readZipEntries(ZIP);
    expect(entries.map(({ name, size }) => ({ name, size }))).toEqual(Object.entries(FILES).map(([name, data]) => ({ name, size: data.length })));
    // The bench unzips functions with the same reader: every file comes back byte for byte.
    for (const entry of entries) expect(readZipEntry(ZIP, entry).equals(FILES[entry.name as keyof typeof FILES])).toBe(true);
  });

  it('reports the zip’s bytes, the unzipped total and the five largest parts by package or folder', () => {
    const size = measureFunction('api', ZIP);
    expect(size.zippedBytes).toBe(ZIP.length);
    expect(size.unzippedBytes).toBe(UNZIPPED);
    expect(size.files).toBe(7);
    expect(size.largest).toEqual([
      { part: 'node_modules/@img/sharp-libvips-linux-x64', bytes: 50_500 },
      { part: 'netlify', bytes: 3_000 },
      { part: 'node_modules/stripe', bytes: 2_000 },
      { part: 'node_modules/sharp', bytes: 1_000 },
      { part: 'src', bytes: 700 },
    ]);
    expect(size.problems).toEqual([]);
  });

  it('names a nested package by its own name', () => {
    expect(partOf('node_modules/a/node_modules/@scope/b/index.js')).toBe('node_modules/@scope/b');
    expect(partOf('api.mjs')).toBe('api.mjs');
  });

  it('fails a function over either limit, and says which', () => {
    const zippedOver = measureFunction('api', ZIP, { zippedBytes: ZIP.length - 1, unzippedBytes: UNZIPPED });
    expect(zippedOver.problems).toEqual([expect.stringContaining('zipped is over')]);
    const unzippedOver = measureFunction('api', ZIP, { zippedBytes: ZIP.length, unzippedBytes: UNZIPPED - 1 });
    expect(unzippedOver.problems).toEqual([expect.stringContaining('unzipped is over')]);
    expect(measureFunction('api', ZIP, { zippedBytes: ZIP.length, unzippedBytes: UNZIPPED }).problems).toEqual([]);
    expect(report([zippedOver], LIMITS)).toContain('1 function(s) over the limits');
  });

  it('fails a function carrying the Node binary, PGlite or, outside proof-preview, the PDF libraries', () => {
    const zip = zipOf({
      'netlify/functions/api.mjs': noise(100),
      'node_modules/node/bin/node': zeros(2_000),
      'node_modules/@electric-sql/pglite/dist/pglite.wasm': zeros(1_000),
      'node_modules/@napi-rs/canvas-linux-x64-gnu/skia.linux-x64-gnu.node': zeros(1_000),
    });
    expect(measureFunction('api', zip).problems).toEqual([
      expect.stringContaining('carries node_modules/node'),
      expect.stringContaining('carries node_modules/@electric-sql/pglite'),
      expect.stringContaining('carries node_modules/@napi-rs/canvas'),
    ]);
    const preview = zipOf({ 'node_modules/@napi-rs/canvas-linux-x64-gnu/skia.node': zeros(1_000), 'node_modules/pdfjs-dist/build/pdf.mjs': zeros(500) });
    expect(measureFunction('proof-preview', preview).problems).toEqual([]);
  });

  it('refuses a file that is not a zip', () => {
    expect(() => readZipEntries(Buffer.from('not a zip at all, just some text'))).toThrow(/not a zip/);
  });
});

describe('measuring the build folder', () => {
  it('measures each function the manifest lists, from its zip in the folder', () => {
    const folder = buildFolder({ functions: [{ name: 'api', path: '/elsewhere/.netlify/functions/api.zip' }] }, { 'api.zip': ZIP });
    const [size] = measureBuiltFunctions(folder);
    expect(size).toMatchObject({ name: 'api', zippedBytes: ZIP.length, unzippedBytes: UNZIPPED });
    expect(report(measureBuiltFunctions(folder))).toContain('All 1 functions within the limits');
  });

  it('fails without a manifest, with no zips, or when a listed zip is missing', () => {
    expect(() => measureBuiltFunctions(buildFolder(undefined, { 'api.zip': ZIP }))).toThrow(/manifest.json is missing/);
    expect(() => measureBuiltFunctions(buildFolder({ functions: [] }, {}))).toThrow(/no built functions/);
    expect(() =>
      measureBuiltFunctions(
        buildFolder({ functions: [{ name: 'api', path: 'api.zip' }, { name: 'proof-preview', path: 'proof-preview.zip' }] }, { 'api.zip': ZIP }),
      ),
    ).toThrow(/proof-preview/);
  });
});
