/**
 * `npm run bench:jobs`: the scheduled functions against Netlify's 30 s limit for a scheduled run.
 * A throwaway database gets a busy evening's data (500 paid bookings installed tomorrow, each with
 * one to three pins, and 50 active workers); then each job runs twice, as Netlify would invoke it
 * (the same service call the function makes), and the second run must change nothing.
 *
 * E-mail goes through the SendGrid transport to a fake endpoint that answers 202 after
 * `--mail-ms` (default 150 ms, a plausible round trip from a function to SendGrid's API), so the
 * figures include delivery, which is what dominates a run that mails hundreds of people.
 *
 *   npm run bench:jobs                                   PGlite; also PostgreSQL when TEST_DATABASE_URL is set
 *   npm run bench:jobs -- --db=pglite,pg --bookings=500 --workers=50 --mail-ms=150
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { silentLogger } from '../src/server/app/logger.ts';
import { parseEnv, testSettings } from '../src/server/env.ts';
import { createMailer } from '../src/server/providers/mailer.ts';
import { createDiskFileStore } from '../src/server/providers/files.ts';
import { runMaintenance } from '../src/server/services/jobs/maintenance.ts';
import { runWorkerNotificationJob } from '../src/server/services/crew/worker-notifications.ts';
import { isWorkerNotificationHour, londonDate, londonTomorrow } from '../src/domain/schedule.ts';
import { withDatabase } from '../tests/setup/postgres.ts';
import { createScratchDatabase, databasesOption, option, type BenchDb } from './lib/scratch-db.ts';

const argv = process.argv.slice(2);
const settings = testSettings();
// PostgreSQL when asked for, or by default when CI's TEST_DATABASE_URL names a server.
if (settings.testDatabaseUrl && !process.env.BENCH_DATABASE_URL) {
  process.env.BENCH_DATABASE_URL = withDatabase(settings.testDatabaseUrl, 'postgres');
}
const databases = databasesOption(argv, settings.testDatabaseUrl ? 'pglite,pg' : 'pglite');
const bookingCount = Number(option(argv, 'bookings', '500'));
const workerCount = Number(option(argv, 'workers', '50'));
const mailMs = Number(option(argv, 'mail-ms', '150'));
const LIMIT_SECONDS = 30;
const SITE_URL = 'https://cleanpatch.example';

/** 18:30 in London today: the hour the worker e-mail acts in (17:30 or 18:30 UTC). */
function eveningRun(): Date {
  const today = londonDate(new Date());
  const candidates = [`${today}T17:30:00Z`, `${today}T18:30:00Z`].map((iso) => new Date(iso));
  return candidates.find(isWorkerNotificationHour)!;
}

/** Town centres the pins scatter around: outward code, region, latitude, longitude. */
const PLACES: readonly [string, string, number, number][] = [
  ['M1', 'North West', 53.4794, -2.2453],
  ['M4', 'North West', 53.4846, -2.2306],
  ['L1', 'North West', 53.4032, -2.9818],
  ['LS1', 'Yorkshire and The Humber', 53.7965, -1.5478],
  ['S1', 'Yorkshire and The Humber', 53.3811, -1.4701],
  ['NE1', 'North East', 54.9738, -1.6132],
  ['B1', 'West Midlands', 52.4796, -1.9026],
  ['NG1', 'East Midlands', 52.9536, -1.1505],
  ['BS1', 'South West', 51.4545, -2.5879],
  ['EC1A', 'London', 51.5203, -0.0977],
];

async function seed(db: Database, date: string) {
  const places = sql.raw(`(values ${PLACES.map(([code, region, lat, lng], index) => `(${index}, '${code}', '${region}', ${lat}, ${lng})`).join(', ')}) as p(i, code, region, lat, lng)`);
  await db.execute(sql`
    insert into bookings (first_name, last_name, business_name, email, phone, quantity, location_address, postcode,
      region, work_type, preferred_date, total_price_pence, status, current_step, payment_status, amount_paid_pence,
      created_at, updated_at)
    select 'Owner', 'Number ' || g, 'Business ' || g, 'owner' || g || '@business.example', '0161 496 0000', 10,
      g || ' High Street, ' || p.code, p.code, p.region, case when g % 3 = 0 then 'night' else 'day' end,
      ${date}::date, 79900, 'confirmed', 3, 'paid', 79900, now() - interval '20 days', now() - interval '20 days'
    from generate_series(1, ${bookingCount}) g join ${places} on p.i = g % ${PLACES.length}`);
  // One to three pins each, a few hundred metres apart around the town centre.
  await db.execute(sql`
    insert into booking_locations (booking_id, position, address, lat, lng, postcode, region)
    select b.id, k, b.location_address, p.lat + ((b.id * 37 + k * 11) % 100 - 50) / 5000.0,
      p.lng + ((b.id * 53 + k * 17) % 100 - 50) / 3000.0, b.postcode, b.region
    from bookings b join ${places} on p.code = b.postcode
    cross join lateral generate_series(0, b.id % 3) k`);
  await db.execute(sql`
    insert into workers (name, email, active)
    select 'Worker ' || g, 'worker' || g || '@cleanpatch.example', true from generate_series(1, ${workerCount}) g`);
}

/** What a run may change: a repeat that changes none of it did nothing twice. */
async function snapshot(db: Database) {
  const result = (await db.execute(sql`
    select
      (select count(*) from email_outbox)::int as outbox,
      (select count(*) from email_outbox where status in ('sent', 'logged'))::int as delivered,
      (select count(*) from email_outbox where status = 'queued')::int as queued,
      (select count(*) from crew_links)::int as crew_links,
      (select count(*) from bookings where reminder_sent_for is not null)::int as reminded,
      (select count(*) from job_runs)::int as job_runs`)) as unknown as { rows: Record<string, number>[] };
  return result.rows[0]!;
}

/** Messages SendGrid got twice (same recipient and subject): must stay 0. */
let duplicates = 0;

interface Timing {
  db: BenchDb;
  job: string;
  run: number;
  seconds: number;
  result: string;
  changed: string;
}

async function measure(kind: BenchDb): Promise<Timing[]> {
  const scratch = await createScratchDatabase(kind, 'jobs');
  const handle = await openDatabase({ url: scratch.url, dataDir: scratch.url ? undefined : path.join(scratch.dataDir, 'pglite') });
  const timings: Timing[] = [];
  try {
    await migrateDatabase(handle);
    const now = eveningRun();
    const tomorrow = londonTomorrow(now);
    const seedStarted = performance.now();
    await seed(handle.db, tomorrow);
    console.log(`\n${kind}: ${bookingCount} bookings for ${tomorrow}, ${workerCount} workers (seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s); run at ${now.toISOString()}`);

    const env = parseEnv({ NODE_ENV: 'production', SITE_URL, DATABASE_URL: scratch.url, DATA_DIR: scratch.dataDir, SENDGRID_API_KEY: 'SG.bench' });
    let mails = 0;
    const delivered = new Set<string>();
    const fakeSendGrid: typeof fetch = async (_url, init) => {
      mails += 1;
      const body = JSON.parse(String(init?.body)) as { subject: string; personalizations: { to: { email: string }[] }[] };
      const message = `${body.personalizations[0]!.to[0]!.email} ${body.subject}`;
      if (delivered.has(message)) duplicates += 1;
      delivered.add(message);
      await new Promise((resolve) => setTimeout(resolve, mailMs));
      return new Response(null, { status: 202 });
    };
    const deps = {
      db: handle.db,
      env,
      mailer: createMailer(env, silentLogger, fakeSendGrid),
      files: createDiskFileStore(path.join(scratch.dataDir, 'uploads')),
      log: silentLogger,
    };
    const jobs: [string, () => Promise<unknown>][] = [
      ['worker-notifications', () => runWorkerNotificationJob(deps, now)],
      ['maintenance', () => runMaintenance(deps, now)],
    ];
    for (const [job, run] of jobs) {
      for (const attempt of [1, 2]) {
        const before = await snapshot(handle.db);
        const mailsBefore = mails;
        const started = performance.now();
        const result = await run();
        const seconds = (performance.now() - started) / 1000;
        const after = await snapshot(handle.db);
        const changes = Object.entries(after)
          .filter(([name, value]) => before[name] !== value)
          .map(([name, value]) => `${name} ${before[name]}→${value}`);
        if (mails > mailsBefore) changes.unshift(`${mails - mailsBefore} mails sent`);
        timings.push({ db: kind, job, run: attempt, seconds, result: summary(result), changed: changes.join(', ') || 'nothing' });
        const last = timings.at(-1)!;
        console.log(`  ${job} run ${attempt}: ${seconds.toFixed(2)} s${seconds > LIMIT_SECONDS ? ' OVER THE LIMIT' : ''}  ${last.result}  changed: ${last.changed}`);
      }
    }
  } finally {
    await handle.close();
    await scratch.drop();
  }
  return timings;
}

function summary(result: unknown): string {
  const value = result as { outcome?: string; sent?: number; counts?: Record<string, number>; failedSteps?: string[] };
  if (value.outcome) return `outcome ${value.outcome}${value.sent !== undefined ? `, ${value.sent} queued` : ''}`;
  const counts = Object.entries(value.counts ?? {})
    .filter(([, count]) => count > 0)
    .map(([name, count]) => `${name} ${count}`);
  return `${counts.join(', ') || 'nothing to do'}${value.failedSteps?.length ? `; FAILED ${value.failedSteps.join(', ')}` : ''}`;
}

console.log(`Scheduled jobs against Netlify's ${LIMIT_SECONDS} s limit (e-mail: ${mailMs} ms a message)`);
const all: Timing[] = [];
for (const kind of databases) all.push(...(await measure(kind)));

console.log(`\n| Database | Job | Run | Seconds | Limit | Changed |`);
console.log(`|---|---|---|---|---|---|`);
for (const timing of all) {
  console.log(`| ${timing.db} | ${timing.job} | ${timing.run} | ${timing.seconds.toFixed(2)} | ${timing.seconds <= LIMIT_SECONDS ? 'within' : 'OVER'} | ${timing.changed} |`);
}
const over = all.filter((timing) => timing.seconds > LIMIT_SECONDS);
// A second run may deliver what the first run's time budget left queued (slow mail); it must
// queue nothing new and claim nothing again.
const repeated = all.filter((timing) => timing.run === 2 && /outbox|reminded|crew_links|job_runs/.test(timing.changed));
const caughtUp = all.filter((timing) => timing.run === 2 && /mails sent/.test(timing.changed) && !repeated.includes(timing));
if (over.length) console.log(`\n${over.length} run(s) over ${LIMIT_SECONDS} s.`);
if (repeated.length) console.log(`\n${repeated.length} second run(s) did work again.`);
if (caughtUp.length) console.log(`\n${caughtUp.length} second run(s) sent mail the first run's time budget had left queued.`);
console.log(`${duplicates} message(s) delivered twice.`);
process.exitCode = over.length || repeated.length || duplicates ? 1 : 0;
