/**
 * `npm run bench:api`: HTTP load on the API with autocannon, at 1, 20 and 100 connections, on a
 * fresh PGlite and on PostgreSQL (a throwaway database on 127.0.0.1:5432 or BENCH_DATABASE_URL).
 * For each database the app runs in its own process (bench/api-server.ts: the `npm start`
 * runtime, demo data seeded, TRUST_PROXY on so every booking and tracking call can come from its
 * own address); the admin calls carry a session from a real sign-in. Prints a table and writes
 * bench/results/api-<date>.json.
 *
 *   npm run bench:api                                   everything, 5 s per run (about 4 minutes)
 *   npm run bench:api -- --duration=10 --db=pg
 *   npm run bench:api -- --targets=booking,unavailable-dates --connections=20
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon, { type Client as AutocannonClient } from 'autocannon';
import { freePort } from '../scripts/free-port.ts';
import { createScratchDatabase, databasesOption, option, type BenchDb } from './lib/scratch-db.ts';
import { startChildServer, root } from './lib/child-server.ts';
import { requestFor, TARGETS, type Target, type TargetContext } from './lib/api-targets.ts';
import { resultFileName, summarise, table, type LatencySummary } from './lib/stats.ts';

const argv = process.argv.slice(2);
const duration = Number(option(argv, 'duration', '5'));
const connectionCounts = option(argv, 'connections', '1,20,100').split(',').map(Number);
const databases = databasesOption(argv);
const targets = option(argv, 'targets', TARGETS.join(',')).split(',') as Target[];
for (const target of targets) if (!TARGETS.includes(target)) throw new Error(`--targets: unknown ${target} (known: ${TARGETS.join(', ')})`);
if (!(duration > 0) || connectionCounts.some((count) => !Number.isInteger(count) || count < 1)) {
  throw new Error('--duration must be positive and --connections whole numbers of at least 1');
}

interface Run {
  db: BenchDb;
  target: Target;
  connections: number;
  seconds: number;
  requests: number;
  perSecond: number;
  latency: LatencySummary;
  ok: number;
  non2xx: number;
  statuses: Record<string, number>;
  /** The first non-2xx answer's status and body. */
  refusal?: string;
  errors: number;
}

async function signIn(baseUrl: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: baseUrl },
    body: JSON.stringify({ password }),
  });
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  if (!response.ok || !cookie) throw new Error(`Admin sign-in failed: ${response.status} ${await response.text()}`);
  return cookie;
}

/**
 * Waits until the server has worked through what the last run left queued (autocannon stops
 * sending at the end of its duration, not the server answering): a database read must answer
 * twice in a row within 250 ms, or a minute passes. Otherwise the next run measures the backlog.
 */
async function settle(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  let quick = 0;
  while (quick < 2 && Date.now() < deadline) {
    const started = performance.now();
    await (await fetch(`${baseUrl}/api/reviews/public`)).arrayBuffer();
    quick = performance.now() - started < 250 ? quick + 1 : 0;
  }
}

async function load(db: BenchDb, baseUrl: string, target: Target, connections: number, context: TargetContext): Promise<Run> {
  const durations: number[] = [];
  const statuses: Record<string, number> = {};
  let requestErrors = 0;
  let refusal: string | undefined;
  // The first answer that is not a success, so a table full of non-2xx says why.
  const setupClient = (client: AutocannonClient) => {
    let body = '';
    client.on('body', (chunk: Buffer) => (body = chunk.toString()));
    client.on('response', (status: number) => {
      if (status >= 300 && refusal === undefined) refusal = `${status} ${body.slice(0, 300)}`;
    });
  };
  const instance = autocannon({ url: baseUrl, connections, duration, timeout: 30, requests: [requestFor(target, context)], setupClient });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    durations.push(responseTime);
    statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  });
  instance.on('reqError', () => (requestErrors += 1));
  const result = await instance;
  const ok = Object.entries(statuses).reduce((sum, [status, count]) => sum + (status.startsWith('2') ? count : 0), 0);
  return {
    db,
    target,
    connections,
    seconds: result.duration,
    requests: durations.length,
    perSecond: Math.round((durations.length / result.duration) * 10) / 10,
    latency: summarise(durations),
    ok,
    non2xx: durations.length - ok,
    statuses,
    refusal,
    errors: Math.max(result.errors, requestErrors),
  };
}

async function benchDatabase(db: BenchDb): Promise<Run[]> {
  const scratch = await createScratchDatabase(db, 'api');
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  const origin = `http://127.0.0.1:${port}`;
  // The bench must never write into a database named by the caller's own settings.
  const { DATABASE_URL: _url, NETLIFY_DATABASE_URL: _netlifyUrl, NETLIFY: _netlify, ADMIN_PASSWORD_HASH: _hash, ...inherited } = process.env;
  const env = {
    ...inherited,
    ...(scratch.url ? { DATABASE_URL: scratch.url } : {}),
    DATA_DIR: scratch.dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    SITE_URL: origin,
    TRUST_PROXY: 'true',
    // The load is one flood by design: the site-wide ceilings would answer it with 429s.
    SITE_MAX_BOOKINGS_PER_HOUR: '1000000000',
    SITE_MAX_TRACKING_LOOKUPS_PER_HOUR: '1000000000',
    ADMIN_PASSWORD: password,
    ADMIN_TOTP_SECRET: '',
  };
  console.log(`\n${db}: starting the API (migrations and demo data)…`);
  const server = await startChildServer('bench/api-server.ts', env, port, path.join(scratch.dataDir, 'server.log'));
  const runs: Run[] = [];
  try {
    const context: TargetContext = { origin, adminCookie: await signIn(server.baseUrl, password) };
    for (const target of targets) {
      for (const connections of connectionCounts) {
        await settle(server.baseUrl);
        const run = await load(db, server.baseUrl, target, connections, context);
        console.log(
          `  ${target} × ${connections}: ${run.perSecond}/s, p50 ${run.latency.p50} ms, p99 ${run.latency.p99} ms, ` +
            `${run.ok} 2xx, ${run.non2xx} other${run.non2xx ? ` ${JSON.stringify(run.statuses)}, first: ${run.refusal}` : ''}, ${run.errors} errors`,
        );
        runs.push(run);
      }
    }
  } finally {
    await server.stop();
    await scratch.drop();
  }
  return runs;
}

const started = new Date();
const load1 = os.loadavg()[0]!;
const runs: Run[] = [];
for (const db of databases) runs.push(...(await benchDatabase(db)));

console.log(`\n${duration} s per run; load average ${load1.toFixed(1)} at start, ${os.loadavg()[0]!.toFixed(1)} at the end (${os.cpus().length} cores)\n`);
console.log(
  table([
    ['DB', 'Target', 'Conns', 'req/s', 'p50 ms', 'p95 ms', 'p99 ms', '2xx', 'non-2xx', 'errors'],
    ...runs.map((run) => [run.db, run.target, run.connections, run.perSecond, run.latency.p50, run.latency.p95, run.latency.p99, run.ok, run.non2xx, run.errors]),
  ]),
);

const resultsDir = path.join(root, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, resultFileName('api', started));
writeFileSync(
  file,
  JSON.stringify({ measuredAt: started.toISOString(), durationSeconds: duration, cores: os.cpus().length, loadAverage: { start: load1, end: os.loadavg()[0] }, runs }, null, 2),
);
console.log(`\nWritten to ${path.relative(root, file)}`);
