import { eq, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Database } from '../../../../db/client.ts';
import { rollupWatermarks } from '../../../../db/schema.ts';
import { addDays } from '../../../domain/format.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { firstWholeDayFrom, londonMidnight } from '../lib/london-days.ts';

/**
 * The daily roll-up of page views (page_view_daily), kept by the hourly maintenance job.
 *
 * A day is rolled up once it has been over for an hour: page views are stamped with the
 * database's clock as they are written, so no row can join a day that ended that long ago.
 * Each run rolls every day after the watermark up to that last closed day in one transaction
 * and moves the watermark with it; a run that overlaps another waits on the watermark's row.
 * Readers add the raw rows after the watermark, so the answers are the same whether or not
 * the job has run (and before its first run everything is simply counted from page_views).
 */
const WATERMARK = 'page_views';
const SETTLE_MS = 60 * 60 * 1000;

/** The last day rolled up, or null before the first run. */
export async function readRollupWatermark(db: Database): Promise<string | null> {
  const [row] = await db.select({ day: rollupWatermarks.throughDay }).from(rollupWatermarks).where(eq(rollupWatermarks.name, WATERMARK));
  return row?.day ?? null;
}

const londonDayOf = sql`(created_at at time zone 'Europe/London')::date`;

/** What the roll-up counts per day: all views, and views per path, country and city. */
export type PageViewDimension = 'total' | 'path' | 'country' | 'city';

/** Rolls up the raw rows from `fromInstant` (or the first) to the end of `throughDay`. */
function rollUpRange(db: Pick<Database, 'execute'>, fromInstant: Date | null, throughDay: string) {
  const until = londonMidnight(addDays(throughDay, 1)).toISOString();
  return db.execute(sql`
    with viewed as (
      select ${londonDayOf} as day, path, country, city from page_views
      where created_at < ${until}::timestamptz
        ${fromInstant ? sql`and created_at >= ${fromInstant.toISOString()}::timestamptz` : sql``}
    )
    insert into page_view_daily (day, dimension, value, views)
    select day, 'total', '', count(*)::int from viewed group by day
    union all select day, 'path', path, count(*)::int from viewed group by day, path
    union all select day, 'country', country, count(*)::int from viewed where country is not null group by day, country
    union all select day, 'city', city, count(*)::int from viewed where city is not null group by day, city`);
}

/** Rolls up every closed day not yet rolled up; returns the new watermark (null when nothing is closed yet). */
export async function rollUpPageViews(db: Database, now: Date): Promise<string | null> {
  const lastClosedDay = addDays(londonDate(new Date(now.getTime() - SETTLE_MS)), -1);
  return db.transaction(async (tx) => {
    await tx.insert(rollupWatermarks).values({ name: WATERMARK, throughDay: '0001-01-01' }).onConflictDoNothing();
    const [mark] = rowsOf<{ through_day: string }>(
      await tx.execute(sql`select through_day::text from rollup_watermarks where name = ${WATERMARK} for update`),
    );
    const previous = mark!.through_day === '0001-01-01' ? null : mark!.through_day;
    if (previous !== null && previous >= lastClosedDay) return previous;
    const firstDay = previous === null ? null : addDays(previous, 1);
    // Rows a failed earlier attempt could not have left are cleared anyway: the range is rebuilt whole.
    await tx.execute(sql`delete from page_view_daily where day <= ${lastClosedDay}::date ${firstDay ? sql`and day >= ${firstDay}::date` : sql``}`);
    await rollUpRange(tx, firstDay ? londonMidnight(firstDay) : null, lastClosedDay);
    await tx
      .update(rollupWatermarks)
      .set({ throughDay: lastClosedDay, updatedAt: now })
      .where(eq(rollupWatermarks.name, WATERMARK));
    return lastClosedDay;
  });
}

/**
 * After retention deleted raw rows older than `cutoff`: the roll-up forgets the days wholly
 * before it and recounts the day the cutoff falls in from what is left of it, so totals from
 * the roll-up stay equal to counting the raw rows. Returns the roll-up rows deleted.
 */
export async function applyRollupRetention(db: Database, cutoff: Date): Promise<number> {
  const cutoffDay = londonDate(cutoff);
  return db.transaction(async (tx) => {
    const [mark] = rowsOf<{ through_day: string }>(
      await tx.execute(sql`select through_day::text from rollup_watermarks where name = ${WATERMARK} for update`),
    );
    const deleted = rowsOf(await tx.execute(sql`delete from page_view_daily where day < ${cutoffDay}::date returning day`)).length;
    if (mark && mark.through_day >= cutoffDay) {
      await tx.execute(sql`delete from page_view_daily where day = ${cutoffDay}::date`);
      await rollUpRange(tx, londonMidnight(cutoffDay), cutoffDay);
    }
    return deleted;
  });
}

/**
 * Page views from `from` on (all of them when null) as rows of (day, value, views) for one
 * dimension: the roll-up's whole days inside the window up to the watermark, plus the raw rows
 * of the window's first, partial day and of everything after the watermark. Sum `views` over it.
 */
export function countedPageViews(watermark: string | null, from: Date | null, dimension: PageViewDimension): SQL {
  const column = dimension === 'total' ? sql`''` : sql.identifier(dimension);
  const raw = (condition: SQL) =>
    sql`select ${londonDayOf} as day, ${column} as value, 1 as views from page_views where ${column} is not null and ${condition}`;
  const since = (instant: Date) => sql`created_at >= ${instant.toISOString()}::timestamptz`;
  const firstDay = from ? firstWholeDayFrom(from) : null;
  if (watermark === null || (firstDay !== null && firstDay > watermark)) return from ? raw(since(from)) : raw(sql`true`);
  const parts = [
    sql`select day, value, views from page_view_daily
        where dimension = ${dimension} and day <= ${watermark}::date ${firstDay ? sql`and day >= ${firstDay}::date` : sql``}`,
    raw(since(londonMidnight(addDays(watermark, 1)))),
  ];
  if (from && firstDay) parts.push(raw(sql`${since(from)} and created_at < ${londonMidnight(firstDay).toISOString()}::timestamptz`));
  return sql.join(parts, sql` union all `);
}
