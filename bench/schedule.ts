/**
 * `npm run bench:schedule`: the Schedule tab's read over 62 days with 20 000 bookings seeded (the
 * same set-based seed as bench:scale, bookings only), and a rain day that moves 40 bookings (each
 * e-mailed with its updated invite, in one transaction). Calls go through the app in this process.
 * Targets: the Schedule's p95 ≤ 50 ms on PostgreSQL; the rain day ≤ 2 s.
 *
 *   npm run bench:schedule                     PostgreSQL (127.0.0.1:5432, or BENCH_DATABASE_URL)
 *   npm run bench:schedule -- --db=pglite,pg   both
 *   npm run bench:schedule -- --calls=30
 */
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { addDays } from '../src/domain/format.ts';
import { londonDate } from '../src/domain/schedule.ts';
import { benchApp } from './lib/bench-app.ts';
import { createScratchDatabase, databasesOption, option, type BenchDb } from './lib/scratch-db.ts';
import { seedScale } from './lib/scale-data.ts';
import { summarise, table } from './lib/stats.ts';

const argv = process.argv.slice(2);
const calls = Number(option(argv, 'calls', '30'));
const databases = databasesOption(argv, 'pg');
const SITE_URL = 'http://localhost:8888';
const TARGET_SCHEDULE_P95_MS = 50;
const TARGET_WEATHER_MS = 2_000;
const RAIN_BOOKINGS = 40;

async function measure(kind: BenchDb) {
  const scratch = await createScratchDatabase(kind, 'schedule');
  const handle = await openDatabase({ url: scratch.url, dataDir: scratch.url ? undefined : path.join(scratch.dataDir, 'pglite') });
  try {
    await migrateDatabase(handle);
    const db = handle.db;
    console.log(`\n${kind}: seeding 20 000 bookings…`);
    await seedScale(db, { bookings: 20_000, pageViews: 1, channelLogs: 1, photos: 1, analyticsEvents: 1 }, (line) => console.log(line));
    // The rain day: 40 paid bookings of 5 patches, 8 in each of 5 regions, after the seeded ones.
    const today = londonDate(new Date());
    const rainDay = addDays(today, 50);
    await db.execute(sql`
      insert into bookings (first_name, last_name, business_name, email, phone, quantity, location_address, postcode, region,
        work_type, preferred_date, total_price_pence, status, current_step, payment_status, created_at)
      select 'Rain', 'Customer ' || g, 'Rain Business ' || g, 'rain' || g || '@business.co.uk', '0161 496 0000', 5,
        'Market Street ' || g || ', Manchester M1 1PT', (array['M1','LS1','L1','NE1','S3'])[1 + g % 5],
        (array['Greater Manchester','West Yorkshire','Merseyside','Tyne and Wear','South Yorkshire'])[1 + g % 5],
        'day', ${rainDay}::date, 39950, 'confirmed', 2, 'paid', now() - g * interval '1 minute'
      from generate_series(1, ${sql.raw(String(RAIN_BOOKINGS))}) as g`);
    await db.execute(sql`vacuum analyze`);

    const { app, headers, deps } = await benchApp(db, scratch, SITE_URL);
    const { background } = deps;

    // The Schedule: 62 days around today, where the seeded bookings are densest.
    const from = addDays(today, -16);
    const to = addDays(today, 45);
    let status = 0;
    let listed = 0;
    const read = async () => {
      const response = await app.request(`/api/admin/schedule?from=${from}&to=${to}`, { headers });
      status = response.status;
      const body = (await response.json()) as { days: { bookings: unknown[] }[] };
      listed = body.days.reduce((sum, day) => sum + day.bookings.length, 0);
    };
    for (let warm = 0; warm < 3; warm += 1) await read();
    const durations: number[] = [];
    for (let index = 0; index < calls; index += 1) {
      const started = performance.now();
      await read();
      durations.push(performance.now() - started);
    }
    const schedule = summarise(durations);

    const started = performance.now();
    const response = await app.request('/api/admin/weather-days', {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/json', 'Idempotency-Key': 'bench-rain-day' },
      body: JSON.stringify({ date: rainDay }),
    });
    const weatherMs = Math.round(performance.now() - started);
    const weather = (await response.json()) as { moves: unknown[]; unplaced: unknown[] };
    await background.idle();
    return { kind, status, listed, schedule, weatherStatus: response.status, weatherMs, moved: weather.moves.length, unplaced: weather.unplaced.length };
  } finally {
    await handle.close();
    await scratch.drop();
  }
}

const runs = [];
for (const kind of databases) runs.push(await measure(kind));
console.log(
  `\n${table([
    ['Database', 'Schedule (62 days) p50 ms', 'p95 ms', `p95 ≤ ${TARGET_SCHEDULE_P95_MS} ms`, 'bookings listed', 'Rain day ms', `≤ ${TARGET_WEATHER_MS} ms`, 'moved / unplaced'],
    ...runs.map((run) => [
      run.kind,
      run.schedule.p50,
      run.schedule.p95,
      run.schedule.p95 <= TARGET_SCHEDULE_P95_MS ? 'yes' : 'NO',
      `${run.listed} (status ${run.status})`,
      run.weatherMs,
      run.weatherMs <= TARGET_WEATHER_MS && run.weatherStatus === 201 ? 'yes' : 'NO',
      `${run.moved} / ${run.unplaced}`,
    ]),
  ])}`,
);
if (runs.some((run) => run.schedule.p95 > TARGET_SCHEDULE_P95_MS || run.weatherMs > TARGET_WEATHER_MS || run.moved !== RAIN_BOOKINGS)) process.exitCode = 1;
