/**
 * `npm run bench:peer`: the home page against the original site's architecture, a client-rendered
 * single-page app kept as `shared/peers/spa-baseline` beside the project (its README says how it
 * is built and served). Both are served on this machine and audited by Lighthouse (mobile
 * defaults) in alternating runs, so a busy spell of the machine falls on both; the answer is the
 * median LCP of each and the ratio ours / peer (the goal is at most 0.45). Writes
 * bench/results/peer-<date>.json.
 *
 *   npm run bench:peer                      5 runs of each
 *   npm run bench:peer -- --runs=3          3 runs of each
 *   npm run bench:peer -- --peer=DIR        the peer's sources in another place
 *   npm run bench:peer -- --dist=/tmp/b     our site from an existing build instead of a fresh one
 *
 * The peer's folder is read-only and shared, so it is copied to bench/.cache/spa-baseline (git-
 * ignored), installed there with npm once, and rebuilt by its own script when its sources change.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { freePort } from '../scripts/free-port.ts';
import { auditOnce, figuresFrom, median, type PageFigures } from './lighthouse-audit.ts';
import { root, startLocalSite, stopProcessGroup, waitUntilAnswering, type LocalSite } from './local-site.ts';

/** Issue 11's target: our home page's LCP at most 0.45 of the single-page app's, same run. */
export const TARGET_RATIO = 0.45;
const PEER_NAME = path.join('shared', 'peers', 'spa-baseline');
const cacheDir = path.join(root, 'bench', '.cache', 'spa-baseline');

interface Options {
  runs: number;
  peer?: string;
  dist?: string;
}

function parseArguments(argv: string[]): Options {
  const value = (name: string) => argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3);
  const runs = Number(value('runs') ?? 5);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
  const peer = value('peer');
  const dist = value('dist');
  return { runs, peer: peer && path.resolve(peer), dist: dist && path.resolve(dist) };
}

/** `shared/peers/spa-baseline` in the project's parent folder or one of its ancestors. */
function findPeer(): string {
  for (let folder = path.dirname(root); ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, PEER_NAME);
    if (existsSync(path.join(candidate, 'serve.mjs'))) return candidate;
    if (path.dirname(folder) === folder) break;
  }
  throw new Error(`No ${PEER_NAME} found beside the project or above it; pass --peer=DIR`);
}

/** Copies the peer's sources (never its node_modules or dist), installs once, builds if stale. */
function preparePeer(source: string): void {
  mkdirSync(cacheDir, { recursive: true });
  const kept = new Set(['node_modules', 'dist']);
  for (const entry of readdirSync(cacheDir)) if (!kept.has(entry)) rmSync(path.join(cacheDir, entry), { recursive: true, force: true });
  // Timestamps kept, so the peer's own ensure-build script rebuilds only when a source changed.
  cpSync(source, cacheDir, {
    recursive: true,
    preserveTimestamps: true,
    filter: (from) => !kept.has(path.basename(from)) || path.dirname(from) !== source,
  });
  makeWritable(cacheDir);

  const installed = path.join(cacheDir, 'node_modules', '.package-lock.json');
  if (!existsSync(installed) || statSync(installed).mtimeMs < statSync(path.join(cacheDir, 'package-lock.json')).mtimeMs) {
    console.log('Installing the peer’s packages (once)…');
    run('npm', ['install', '--no-audit', '--no-fund'], 'Installing the peer’s packages failed');
  }
  run(process.execPath, ['scripts/ensure-build.mjs'], 'Building the peer failed');
}

function makeWritable(folder: string): void {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name === 'dist') continue;
    const full = path.join(folder, entry.name);
    chmodSync(full, entry.isDirectory() ? 0o755 : 0o644);
    if (entry.isDirectory()) makeWritable(full);
  }
}

function run(command: string, args: string[], failure: string): void {
  const result = spawnSync(command, args, { cwd: cacheDir, stdio: ['ignore', 'ignore', 'inherit'] });
  if (result.status !== 0) throw new Error(failure);
}

async function startPeer(): Promise<LocalSite> {
  const port = await freePort();
  const server = spawn(process.execPath, ['serve.mjs'], {
    cwd: cacheDir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1' },
    detached: true,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await waitUntilAnswering(`${baseUrl}/`, server);
  } catch (error) {
    await stopProcessGroup(server);
    throw error;
  }
  return { baseUrl, stop: () => stopProcessGroup(server) };
}

interface SideFigures {
  medianLcpMs?: number;
  medianFcpMs?: number;
  medianPerformance?: number;
  medianScriptBytes?: number;
  medianTotalBytes?: number;
  runs: PageFigures[];
}

function summarise(runs: PageFigures[]): SideFigures {
  return {
    medianLcpMs: median(runs.map((figures) => figures.lcpMs)),
    medianFcpMs: median(runs.map((figures) => figures.fcpMs)),
    medianPerformance: median(runs.map((figures) => figures.scores?.performance)),
    medianScriptBytes: median(runs.map((figures) => figures.scriptBytes)),
    medianTotalBytes: median(runs.map((figures) => figures.totalBytes)),
    runs,
  };
}

const seconds = (ms?: number) => (ms === undefined ? '-' : `${(ms / 1000).toFixed(2)} s`);
const kilobytes = (bytes?: number) => (bytes === undefined ? '-' : `${(bytes / 1024).toFixed(1)} KB`);

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const peerSource = options.peer ?? findPeer();
  preparePeer(peerSource);
  const ours = await startLocalSite(options.dist);
  let peer: LocalSite | undefined;
  const stopAll = async () => {
    await ours.stop();
    await peer?.stop();
  };
  process.once('SIGINT', () => void stopAll().finally(() => process.exit(130)));
  process.once('SIGTERM', () => void stopAll().finally(() => process.exit(143)));

  const started = new Date();
  const runs: { ours: PageFigures[]; peer: PageFigures[] } = { ours: [], peer: [] };
  let chromium = '';
  let lighthouseVersion = '';
  try {
    peer = await startPeer();
    for (let round = 1; round <= options.runs; round += 1) {
      for (const [side, site] of [['ours', ours], ['peer', peer]] as const) {
        const { lhr, chromium: version } = await auditOnce(`${site.baseUrl}/`);
        const figures = figuresFrom('/', 200, lhr);
        runs[side].push(figures);
        chromium = version;
        lighthouseVersion = lhr.lighthouseVersion;
        console.log(`round ${round} ${side}: LCP ${seconds(figures.lcpMs)}, performance ${figures.scores?.performance}, benchmarkIndex ${figures.benchmarkIndex}`);
      }
    }
  } finally {
    await stopAll();
  }

  const oursSummary = summarise(runs.ours);
  const peerSummary = summarise(runs.peer);
  const ratio =
    oursSummary.medianLcpMs !== undefined && peerSummary.medianLcpMs ? oursSummary.medianLcpMs / peerSummary.medianLcpMs : undefined;
  console.log(`\n            LCP      FCP      Perf  JS          Total`);
  for (const [name, side] of [['ours', oursSummary], ['peer', peerSummary]] as const) {
    console.log(
      `${name.padEnd(10)}  ${seconds(side.medianLcpMs).padEnd(7)}  ${seconds(side.medianFcpMs).padEnd(7)}  ${String(side.medianPerformance ?? '-').padEnd(4)}  ${kilobytes(side.medianScriptBytes).padEnd(10)}  ${kilobytes(side.medianTotalBytes)}`,
    );
  }
  const verdict = ratio === undefined ? 'no ratio' : ratio <= TARGET_RATIO ? 'target met' : 'target missed';
  console.log(`\nLCP ours / peer: ${ratio?.toFixed(2) ?? '-'} (target ≤ ${TARGET_RATIO}, ${verdict}); median of ${options.runs} alternating runs each`);

  const resultsDir = path.join(root, 'bench', 'results');
  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `peer-${started.toISOString().slice(0, 19).replace(/:/g, '-')}Z.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: started.toISOString(),
        lighthouse: lighthouseVersion,
        chromium,
        settings: 'Lighthouse default (mobile form factor, simulated slow 4G and 4x CPU throttling)',
        page: '/',
        runsEach: options.runs,
        peer: path.relative(root, peerSource),
        lcpRatio: ratio,
        targetRatio: TARGET_RATIO,
        ours: oursSummary,
        spaBaseline: peerSummary,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Written ${path.relative(root, file)}`);
}

await main();
