/**
 * `npm run bench:cold-start`: bundles netlify/functions/api.mts into one ESM file for Node 22,
 * every package bundled except those the app loads on first use (bench/lib/function-bundle.ts,
 * the options `npm run build:functions` deploys with; `npm run bench:functions` measures the built
 * zips themselves). Reports its size, then starts fresh Node processes that import the
 * bundle and answer one request through the handler (GET /api/reviews/public, which reads the
 * database) as a new function instance would. Median of 5. Target: import ≤ 150 ms.
 *
 * The function runs as on Netlify: NETLIFY set, DATABASE_URL pointing at a throwaway PostgreSQL
 * database (migrated and seeded beforehand, as the deploy does), ADMIN_PASSWORD_HASH set.
 *
 *   npm run bench:cold-start
 *   npm run bench:cold-start -- --runs=9
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { seedDatabase } from '../db/seed.ts';
import { hashAdminPassword } from '../src/server/admin-password.ts';
import { root } from './lib/child-server.ts';
import { functionBuildOptions, netlifyExternals } from './lib/function-bundle.ts';
import { createScratchDatabase, option } from './lib/scratch-db.ts';
import { median, resultFileName, table } from './lib/stats.ts';

const runs = Number(option(process.argv.slice(2), 'runs', '5'));
const TARGET_IMPORT_MS = 150;

async function bundle(outDir: string) {
  const outfile = path.join(outDir, 'api.mjs');
  const result = await build({
    ...functionBuildOptions(),
    outfile,
    // What Netlify adds to ESM bundles: bundled CommonJS packages still call require().
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  });
  // The externals resolve from the project's packages, as they would from the function's own.
  symlinkSync(path.join(root, 'node_modules'), path.join(outDir, 'node_modules'));
  const inputs = Object.entries(result.metafile.outputs[outfile]?.inputs ?? result.metafile.outputs[path.relative(process.cwd(), outfile)]?.inputs ?? {});
  const byPackage = new Map<string, number>();
  for (const [file, { bytesInOutput }] of inputs) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
    const name = match ? match[1]! : 'project code';
    byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
  }
  const bytes = statSync(outfile).size;
  return {
    outfile,
    bytes,
    gzipBytes: gzipSync(readFileSync(outfile)).length,
    largest: [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([name, size]) => ({ name, bytes: size })),
  };
}

/** One fresh process: boot, import the bundle, answer one request; times from performance.now(). */
const PROBE = `
const started = performance.now();
const cpu = process.cpuUsage();
const { default: handler } = await import(process.env.BENCH_BUNDLE);
const imported = performance.now();
const used = process.cpuUsage(cpu);
const response = await handler(new Request(process.env.SITE_URL + '/api/reviews/public'), { geo: {}, ip: '203.0.113.7' });
await response.text();
const answered = performance.now();
console.log(JSON.stringify({ bootMs: started, importMs: imported - started, importCpuMs: (used.user + used.system) / 1000, firstRequestMs: answered - imported, totalMs: answered, status: response.status }));
process.exit(0);
`;

interface Probe {
  bootMs: number;
  importMs: number;
  /** CPU time of the import: less sensitive than wall time to other work on a shared machine. */
  importCpuMs: number;
  firstRequestMs: number;
  totalMs: number;
  status: number;
}

const workDir = mkdtempSync(path.join(os.tmpdir(), 'cp-cold-'));
const scratch = await createScratchDatabase('pg', 'cold');
try {
  const handle = await openDatabase({ url: scratch.url });
  await migrateDatabase(handle);
  await seedDatabase(handle.db);
  await handle.close();

  const built = await bundle(workDir);
  const { DATABASE_URL: _url, NETLIFY_DATABASE_URL: _netlifyUrl, ADMIN_PASSWORD: _password, ...inherited } = process.env;
  const env = {
    ...inherited,
    NETLIFY: 'true',
    CONTEXT: 'production',
    NODE_ENV: 'production',
    SITE_URL: 'https://cleanpatch.example',
    DATABASE_URL: scratch.url,
    ADMIN_PASSWORD_HASH: await hashAdminPassword('cold start bench'),
    BENCH_BUNDLE: pathToFileURL(built.outfile).href,
  };
  const probes: Probe[] = [];
  for (let run = 0; run < runs; run += 1) {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', PROBE], { cwd: workDir, env, encoding: 'utf8' });
    const line = child.stdout.trim().split('\n').at(-1) ?? '';
    if (child.status !== 0 || !line.startsWith('{')) throw new Error(`The probe failed (exit ${child.status}):\n${child.stderr}`);
    probes.push(JSON.parse(line) as Probe);
  }
  const round = (value: number) => Math.round(value * 10) / 10;
  const summary = {
    measuredAt: new Date().toISOString(),
    node: process.version,
    loadAverage: os.loadavg()[0],
    bundle: { bytes: built.bytes, gzipBytes: built.gzipBytes, externals: netlifyExternals(), largest: built.largest },
    runs: probes,
    median: {
      bootMs: round(median(probes.map((probe) => probe.bootMs))),
      importMs: round(median(probes.map((probe) => probe.importMs))),
      importCpuMs: round(median(probes.map((probe) => probe.importCpuMs))),
      firstRequestMs: round(median(probes.map((probe) => probe.firstRequestMs))),
      totalMs: round(median(probes.map((probe) => probe.totalMs))),
    },
  };
  console.log(`\nBundle: ${(built.bytes / 1024).toFixed(0)} KB (${(built.gzipBytes / 1024).toFixed(0)} KB gzip), externals: ${summary.bundle.externals.join(', ') || 'none'}`);
  console.log(table([['Package', 'KB in bundle'], ...built.largest.map((entry) => [entry.name, Math.round(entry.bytes / 1024)])]));
  console.log(`\nMedian of ${runs} fresh processes (${process.version}, load average ${summary.loadAverage!.toFixed(1)}):`);
  console.log(
    table([
      ['Node boot ms', 'Import ms', 'Import CPU ms', 'First request ms', 'Total ms', `Import ≤ ${TARGET_IMPORT_MS} ms`],
      [summary.median.bootMs, summary.median.importMs, summary.median.importCpuMs, summary.median.firstRequestMs, summary.median.totalMs, summary.median.importMs <= TARGET_IMPORT_MS ? 'yes' : 'NO'],
    ]),
  );
  const resultsDir = path.join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, resultFileName('cold-start'));
  writeFileSync(file, JSON.stringify(summary, null, 2));
  console.log(`\nWritten to ${path.relative(root, file)}`);
  process.exitCode = summary.median.importMs <= TARGET_IMPORT_MS ? 0 : 1;
} finally {
  await scratch.drop();
  rmSync(workDir, { recursive: true, force: true });
}
