import { count, desc, gte, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../../../db/client.ts';
import { analyticsEvents, pageViews } from '../../../../db/schema.ts';
import { londonDays, londonMidnight } from '../lib/london-days.ts';
import { countedPageViews, readRollupWatermark } from './page-view-rollup.ts';
import type { AnalyticsSummary } from '../../../domain/analytics-summary.ts';

export type { AnalyticsSummary };

/** admin-dashboard.md §9: "7 days for top lists, 24 hours for events". */
export const TOP_LIST_DAYS = 7;
export const TOP_LIST_SIZE = 10;
export const DAILY_CHART_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The Analytics tab's numbers (admin-dashboard.md §2-3). Counts over whole days come from the
 * daily roll-up plus the raw rows the roll-up does not cover yet (page-view-rollup.ts
 * `countedPageViews`), so the all-time total and the 30-day chart sum a few thousand rows
 * instead of counting every page view ever kept. The last 24 hours and the events are read
 * raw by their created_at index: a day's rows at most.
 */
export async function analyticsSummary(db: Database, now: Date): Promise<AnalyticsSummary> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const weekAgo = new Date(now.getTime() - TOP_LIST_DAYS * DAY_MS);
  const days = londonDays(now, DAILY_CHART_DAYS);
  const watermark = await readRollupWatermark(db);
  const topBy = (dimension: 'path' | 'country' | 'city') =>
    db.execute(sql`
      select value as key, sum(views)::int as count from (${countedPageViews(watermark, weekAgo, dimension)}) as counted
      group by 1 order by 2 desc, 1 limit ${TOP_LIST_SIZE}`);

  const [total, lastDay, topPages, topCountries, topCities, recentEvents, daily] = await Promise.all([
    db.execute(sql`select coalesce(sum(views), 0)::int as count from (${countedPageViews(watermark, null, 'total')}) as counted`),
    db.select({ count: count() }).from(pageViews).where(gte(pageViews.createdAt, dayAgo)),
    topBy('path'),
    topBy('country'),
    topBy('city'),
    db
      .select({ eventName: analyticsEvents.eventName, count: count() })
      .from(analyticsEvents)
      .where(gte(analyticsEvents.createdAt, dayAgo))
      .groupBy(analyticsEvents.eventName)
      .orderBy(desc(count()), analyticsEvents.eventName),
    db.execute(sql`
      select to_char(day, 'YYYY-MM-DD') as date, sum(views)::int as count
      from (${countedPageViews(watermark, londonMidnight(days[0]!), 'total')}) as counted group by day`),
  ]);

  const ranked = (result: unknown) => rowsOf<{ key: string; count: number }>(result).map((row) => ({ key: row.key, count: Number(row.count) }));
  const byDate = new Map(rowsOf<{ date: string; count: number }>(daily).map((row) => [row.date, Number(row.count)]));
  return {
    totalPageViews: Number(rowsOf<{ count: number }>(total)[0]?.count ?? 0),
    pageViewsLast24Hours: lastDay[0]?.count ?? 0,
    topPages: ranked(topPages).map(({ key, count }) => ({ path: key, count })),
    topCountries: ranked(topCountries).map(({ key, count }) => ({ country: key, count })),
    topCities: ranked(topCities).map(({ key, count }) => ({ city: key, count })),
    recentEvents,
    dailyPageViews: days.map((date) => ({ date, count: byDate.get(date) ?? 0 })),
  };
}
