/**
 * `npm start`. Plain JavaScript, so that serving needs no TypeScript compiler at run time:
 *
 * 1. builds the site (dist/) when it is missing or older than its sources;
 * 2. bundles the local server (scripts/serve.ts and what it imports) into dist-server/ with
 *    esbuild when that is missing or older than its sources; packages stay in node_modules;
 * 3. creates the embedded database, when the data folder has none, in a short-lived process
 *    of its own (src/server/local-database.ts says why: memory);
 * 4. imports the built server into this process, which then serves until Ctrl+C / SIGTERM.
 *
 * `npm start -- --build` rebuilds both regardless.
 *
 * package.json runs this with two V8 options that keep the serving process small (measured in
 * docs/PERFORMANCE.md, "Memory"): `--liftoff-only` compiles PGlite's WebAssembly with V8's
 * baseline compiler only (the optimising tier kept about 55 MB of code and compiler memory and
 * made no query measurably faster), and `--max-semi-space-size=2` caps the young generation
 * at 2 MB per half (about 25 MB less resident; a local server's garbage is small).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const serverDir = path.join(root, 'dist-server');
const SITE_SOURCES = ['src', 'public', 'astro.config.mjs', 'package.json'];
const SERVER_SOURCES = ['src', 'db', 'scripts/serve.ts', 'scripts/prepare-database.ts', 'package.json', 'tsconfig.json'];
const SERVER_ENTRIES = { serve: 'scripts/serve.ts', 'prepare-database': 'scripts/prepare-database.ts' };
const forced = process.argv.includes('--build');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const info = statSync(target);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

function isStale(output, sources) {
  const builtAt = existsSync(output) ? statSync(output).mtimeMs : 0;
  return forced || builtAt < Math.max(...sources.map((source) => newestMtime(path.join(root, source))));
}

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function buildServerIfStale() {
  // Every entry is checked: the bundle is written in one go, but an interrupted build or an
  // older layout may leave one missing.
  const outputs = Object.keys(SERVER_ENTRIES).map((name) => path.join(serverDir, `${name}.mjs`));
  if (!outputs.some((output) => isStale(output, SERVER_SOURCES))) return;
  const esbuild = await import('esbuild');
  try {
    await esbuild.build({
      absWorkingDir: root,
      entryPoints: SERVER_ENTRIES,
      outdir: serverDir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // Packages load from node_modules as they are (PGlite's WebAssembly sits beside its code).
      packages: 'external',
      logLevel: 'warning',
    });
  } finally {
    // The build service is a child process of its own: it must not stay in the serving tree.
    await esbuild.stop();
  }
}

if (process.argv.includes('--prepare-database')) {
  await import(pathToFileURL(path.join(serverDir, 'prepare-database.mjs')).href);
} else {
  if (isStale(path.join(root, 'dist', 'index.html'), SITE_SOURCES)) {
    console.log('Building the site…');
    run([path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs'), 'build']);
  }
  await buildServerIfStale();
  // A separate process, so that what creating a database costs leaves with it.
  run([fileURLToPath(import.meta.url), '--prepare-database']);
  await import(pathToFileURL(path.join(serverDir, 'serve.mjs')).href);
}
