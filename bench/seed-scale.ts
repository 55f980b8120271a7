/**
 * `npm run bench:scale`: years of data (20 000 bookings, 1 000 000 page views, 200 000 channel
 * logs, 5 000 photos, 100 000 events) seeded with set-based SQL into a throwaway database, then
 * the admin endpoints called in this process through the app (no network), sequentially, and the
 * statements each one runs shown with EXPLAIN (ANALYZE, BUFFERS). Target: p95 ≤ 100 ms on PostgreSQL.
 *
 *   npm run bench:scale                        PostgreSQL (127.0.0.1:5432, or BENCH_DATABASE_URL)
 *   npm run bench:scale -- --db=pglite,pg      both
 *   npm run bench:scale -- --calls=30 --scale=0.1 --no-explain
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql, type Logger } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { encodeCursor as bookingCursor } from '../src/server/services/lib/keyset-page.ts';
import { encodeCursor as logCursor } from '../src/server/services/messages/channel-logs-query.ts';
import { londonDate } from '../src/domain/schedule.ts';
import { rollUpPageViews } from '../src/server/services/analytics/page-view-rollup.ts';
import { benchApp } from './lib/bench-app.ts';
import { createScratchDatabase, databasesOption, option, type BenchDb } from './lib/scratch-db.ts';
import { SCALE, seedScale, type ScaleCounts } from './lib/scale-data.ts';
import { resultFileName, summarise, table, type LatencySummary } from './lib/stats.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const calls = Number(option(argv, 'calls', '30'));
const scale = Number(option(argv, 'scale', '1'));
const explain = !argv.includes('--no-explain');
const databases = databasesOption(argv, 'pg');
const SITE_URL = 'http://localhost:8888';
const TARGET_P95_MS = 100;

interface Endpoint {
  name: string;
  path: string;
}

interface EndpointResult extends Endpoint {
  status: number;
  latency: LatencySummary;
  statements: { sql: string; plan: string[] }[];
}

/** Collects the statements drizzle sends while `capturing` is on. */
class CapturingLogger implements Logger {
  capturing = false;
  statements: { sql: string; params: unknown[] }[] = [];
  logQuery(query: string, params: unknown[]): void {
    if (this.capturing) this.statements.push({ sql: query, params });
  }
}

async function endpoints(db: DatabaseHandle['db'], counts: ScaleCounts): Promise<Endpoint[]> {
  // Three quarters of the way down each list (row 15 000 of 20 000 bookings, 150 000 of 200 000 logs).
  const deepBookingRow = Math.floor(counts.bookings * 0.75);
  const deepLogRow = Math.floor(counts.channelLogs * 0.75);
  const row = async <T>(statement: ReturnType<typeof sql>) => {
    const result = (await db.execute(statement)) as unknown as { rows: T[] };
    return result.rows[0]!;
  };
  const deepBooking = await row<{ micros: string; id: number }>(sql`
    select (extract(epoch from created_at) * 1000000)::bigint::text as micros, id
    from bookings order by created_at desc, id desc offset ${sql.raw(String(deepBookingRow))} limit 1`);
  const deepLog = await row<{ at: string; id: number }>(sql`
    select timestamp::text as at, id from channel_logs order by timestamp desc, id desc offset ${sql.raw(String(deepLogRow))} limit 1`);
  return [
    { name: 'stats', path: '/api/admin/stats' },
    { name: 'bookings: active, page 1', path: '/api/bookings?archived=false' },
    { name: 'bookings: all, page 1', path: '/api/bookings' },
    { name: `bookings: all, deep page (row ${deepBookingRow})`, path: `/api/bookings?cursor=${bookingCursor(deepBooking.micros, Number(deepBooking.id))}` },
    { name: 'bookings: search "owner1234"', path: '/api/bookings?q=owner1234' },
    { name: 'projects: page 1 (today first)', path: '/api/admin/projects' },
    { name: 'projects: step=3', path: '/api/admin/projects?step=3' },
    { name: "projects: today's installations", path: `/api/admin/projects?date=${londonDate(new Date())}` },
    { name: 'projects: search "owner1234"', path: '/api/admin/projects?q=owner1234' },
    { name: `projects: deep page (after row ${deepBookingRow})`, path: `/api/admin/projects?cursor=${bookingCursor(deepBooking.micros, Number(deepBooking.id))}` },
    { name: 'logs: page 1', path: '/api/admin/channel-logs' },
    { name: 'logs: channel=email', path: '/api/admin/channel-logs?channel=email' },
    { name: 'logs: severity=error', path: '/api/admin/channel-logs?severity=error' },
    { name: 'logs: severity=critical', path: '/api/admin/channel-logs?severity=critical' },
    { name: 'logs: search "mailbox"', path: '/api/admin/channel-logs?search=mailbox' },
    { name: `logs: deep page (row ${deepLogRow})`, path: `/api/admin/channel-logs?cursor=${logCursor({ timestamp: deepLog.at, id: Number(deepLog.id) })}` },
    { name: 'logs: stats', path: '/api/admin/channel-logs/stats' },
    { name: 'analytics summary', path: '/api/analytics/summary' },
  ];
}

/** EXPLAIN (ANALYZE, BUFFERS) of one captured statement, with its parameters, on the raw client. */
async function explainStatement(handle: DatabaseHandle, statement: { sql: string; params: unknown[] }): Promise<string[]> {
  const client = (handle.db as unknown as { $client: { query(text: string, params: unknown[]): Promise<{ rows: Record<string, string>[] }> } }).$client;
  const result = await client.query(`explain (analyze, buffers) ${statement.sql}`, statement.params);
  return result.rows.map((row) => Object.values(row)[0]!);
}

async function measure(kind: BenchDb, counts: ScaleCounts) {
  const scratch = await createScratchDatabase(kind, 'scale');
  const logger = new CapturingLogger();
  const handle = await openDatabase({ url: scratch.url, dataDir: scratch.url ? undefined : path.join(scratch.dataDir, 'pglite'), logger });
  try {
    await migrateDatabase(handle);
    console.log(`\n${kind}: seeding…`);
    const seedStarted = performance.now();
    await seedScale(handle.db, counts, (line) => console.log(line));
    // What the hourly maintenance keeps current on a live site; then statistics, as autovacuum would.
    const rollupStarted = performance.now();
    await rollUpPageViews(handle.db, new Date());
    console.log(`  page-view roll-up: ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s`);
    await handle.db.execute(sql`vacuum analyze`);
    const seedSeconds = Math.round((performance.now() - seedStarted) / 100) / 10;

    const { app, headers } = await benchApp(handle.db, scratch, SITE_URL);

    const results: EndpointResult[] = [];
    for (const endpoint of await endpoints(handle.db, counts)) {
      let status = 0;
      const call = async () => {
        const response = await app.request(endpoint.path, { headers });
        status = response.status;
        await response.arrayBuffer();
      };
      for (let warm = 0; warm < 3; warm += 1) await call();
      const durations: number[] = [];
      for (let index = 0; index < calls; index += 1) {
        const started = performance.now();
        await call();
        durations.push(performance.now() - started);
      }
      const statements: EndpointResult['statements'] = [];
      if (explain) {
        logger.statements = [];
        logger.capturing = true;
        await call();
        logger.capturing = false;
        // The session check is the same for every admin call; the endpoint's own statements follow it.
        for (const statement of logger.statements.filter((entry) => !/admin_sessions/.test(entry.sql))) {
          statements.push({ sql: statement.sql, plan: await explainStatement(handle, statement) });
        }
      }
      results.push({ ...endpoint, status, latency: summarise(durations), statements });
    }
    return { db: kind, seedSeconds, counts, results };
  } finally {
    await handle.close();
    await scratch.drop();
  }
}

const counts = Object.fromEntries(Object.entries(SCALE).map(([name, value]) => [name, Math.round(value * scale)])) as unknown as ScaleCounts;
const runs = [];
for (const kind of databases) runs.push(await measure(kind, counts));

for (const run of runs) {
  console.log(`\n${run.db}: ${calls} sequential calls each after 3 warm-ups (seeded in ${run.seedSeconds} s)\n`);
  console.log(
    table([
      ['Endpoint', 'Status', 'p50 ms', 'p95 ms', 'max ms', `p95 ≤ ${TARGET_P95_MS} ms`],
      ...run.results.map((result) => [
        result.name,
        result.status,
        result.latency.p50,
        result.latency.p95,
        result.latency.max,
        result.latency.p95 <= TARGET_P95_MS ? 'yes' : 'NO',
      ]),
    ]),
  );
  if (explain) {
    for (const result of run.results) {
      console.log(`\n── ${run.db} · ${result.name}`);
      for (const statement of result.statements) {
        console.log(`   ${statement.sql.replace(/\s+/g, ' ').slice(0, 160)}`);
        console.log(statement.plan.map((line) => `     ${line}`).join('\n'));
      }
    }
  }
}

const resultsDir = path.join(root, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const file = path.join(resultsDir, resultFileName('scale'));
writeFileSync(file, JSON.stringify({ measuredAt: new Date().toISOString(), calls, runs }, null, 2));
console.log(`\nWritten to ${path.relative(root, file)}`);
const missed = runs.some((run) => run.db === 'pg' && run.results.some((result) => result.latency.p95 > TARGET_P95_MS || result.status !== 200));
process.exitCode = missed ? 1 : 0;
