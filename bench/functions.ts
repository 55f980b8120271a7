/**
 * `npm run bench:functions`: each Netlify function's cold start as deployed. Reads the zips
 * `netlify build --offline` wrote (.netlify/functions, or --dir=), unzips each into a folder of its
 * own, and imports the function's module in fresh Node 22 processes as a new function instance
 * does, with every package it carries, from those files only. (Netlify's own entry point and
 * bootstrap, which wrap it, run only inside Lambda and are the same for every function.) Median and p95 of --runs (default 7). Goal: the API function's import ≤ 100 ms.
 * Prints the size table too (scripts/function-sizes.ts) and writes both to bench/results/.
 *
 *   npx netlify build --offline && npm run bench:functions
 *   npm run bench:functions -- --runs=11 --dir=/path/to/functions
 *
 * Nothing is called: importing needs no database (the runtime opens it on the first request), so
 * DATABASE_URL points nowhere.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { measureBuiltFunctions, mb, readZipEntries, readZipEntry } from '../scripts/function-sizes.ts';
import { root } from './lib/child-server.ts';
import { option } from './lib/scratch-db.ts';
import { percentile, resultFileName, table } from './lib/stats.ts';

const argv = process.argv.slice(2);
const runs = Number(option(argv, 'runs', '7'));
const directory = path.resolve(option(argv, 'dir', path.join(root, '.netlify', 'functions')));
const API_IMPORT_GOAL_MS = 100;

/** One fresh process importing the function's module; times from performance.now(). */
const PROBE = `
const started = performance.now();
const cpu = process.cpuUsage();
const module = await import(process.env.BENCH_FUNCTION);
const imported = performance.now();
const used = process.cpuUsage(cpu);
if (typeof module.default !== 'function') throw new Error('the function module has no default export');
console.log(JSON.stringify({ bootMs: started, importMs: imported - started, importCpuMs: (used.user + used.system) / 1000 }));
process.exit(0);
`;

interface Probe {
  bootMs: number;
  /** The function's own module and every package it imports at load. */
  importMs: number;
  /** CPU time of the import: less sensitive than wall time to other work on a shared machine. */
  importCpuMs: number;
}

/** Unzips into the folder; the names of the files it wrote. */
function unzip(zipFile: string, into: string): string[] {
  const zip = readFileSync(zipFile);
  const entries = readZipEntries(zip);
  for (const entry of entries) {
    const target = path.join(into, entry.name);
    if (!target.startsWith(into + path.sep)) throw new Error(`${entry.name} points outside the folder`);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, readZipEntry(zip, entry), { mode: 0o755 });
  }
  return entries.map((entry) => entry.name);
}

const sizes = measureBuiltFunctions(directory);
const manifest = JSON.parse(readFileSync(path.join(directory, 'manifest.json'), 'utf8')) as { functions: { name: string; path: string; mainFile: string }[] };
const workDir = mkdtempSync(path.join(os.tmpdir(), 'cp-fn-cold-'));
const round = (value: number) => Math.round(value * 10) / 10;
try {
  const results = [];
  for (const size of sizes) {
    const folder = path.join(workDir, size.name);
    const built = manifest.functions.find((fn) => fn.name === size.name)!;
    const entries = unzip(path.join(directory, path.basename(built.path)), folder);
    // The function's own module (dist-functions/<name>.mjs as deployed, netlify/functions/ from a
    // dev-context build), beside Netlify's bootstrap files and the packages it carries.
    const mainName = path.basename(built.mainFile).replace(/\.m?ts$/, '.mjs');
    const main = entries.find((name) => !name.startsWith('node_modules/') && path.basename(name) === mainName);
    if (!main) throw new Error(`${size.name}: no ${mainName} in its zip`);
    const env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NETLIFY: 'true',
      CONTEXT: 'production',
      NODE_ENV: 'production',
      SITE_URL: 'https://cleanpatch.example',
      DATABASE_URL: 'postgres://bench@127.0.0.1:9/not-opened',
      BENCH_FUNCTION: pathToFileURL(path.join(folder, main)).href,
    };
    const probes: Probe[] = [];
    for (let run = 0; run < runs; run += 1) {
      const child = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: folder, env, encoding: 'utf8' });
      const line = child.stdout.trim().split('\n').at(-1) ?? '';
      if (child.status !== 0 || !line.startsWith('{')) throw new Error(`${size.name}: the probe failed (exit ${child.status}):\n${child.stderr.slice(-2000)}`);
      probes.push(JSON.parse(line) as Probe);
    }
    const sorted = (pick: (probe: Probe) => number) => probes.map(pick).sort((a, b) => a - b);
    results.push({
      name: size.name,
      zippedBytes: size.zippedBytes,
      unzippedBytes: size.unzippedBytes,
      largest: size.largest,
      import: { medianMs: round(percentile(sorted((p) => p.importMs), 0.5)), p95Ms: round(percentile(sorted((p) => p.importMs), 0.95)) },
      importCpu: { medianMs: round(percentile(sorted((p) => p.importCpuMs), 0.5)) },
      nodeBoot: { medianMs: round(percentile(sorted((p) => p.bootMs), 0.5)) },
      runs: probes,
    });
  }
  const api = results.find((result) => result.name === 'api');
  const summary = { measuredAt: new Date().toISOString(), node: process.version, loadAverage: os.loadavg()[0], runs, functions: results };
  console.log(`Cold import of each built function, ${runs} fresh processes each (${process.version}, load average ${summary.loadAverage!.toFixed(1)})\n`);
  console.log(
    table([
      ['Function', 'Zipped', 'Unzipped', 'Import median ms', 'Import p95 ms', 'Import CPU ms', 'Node boot ms'],
      ...results.map((result) => [
        result.name,
        mb(result.zippedBytes),
        mb(result.unzippedBytes),
        result.import.medianMs,
        result.import.p95Ms,
        result.importCpu.medianMs,
        result.nodeBoot.medianMs,
      ]),
    ]),
  );
  const met = api !== undefined && api.import.medianMs <= API_IMPORT_GOAL_MS;
  console.log(`\napi import median ≤ ${API_IMPORT_GOAL_MS} ms: ${met ? 'yes' : 'NO'}`);
  const resultsDir = path.join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, resultFileName('functions'));
  writeFileSync(file, JSON.stringify(summary, null, 2));
  console.log(`Written to ${path.relative(root, file)}`);
  process.exitCode = met ? 0 : 1;
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
