import { and, count, desc, gte, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { analyticsEvents, pageViews } from '../../../db/schema.ts';

/** admin-dashboard.md §9: "7 days for top lists, 24 hours for events". */
export const TOP_LIST_DAYS = 7;
export const TOP_LIST_SIZE = 10;
export const DAILY_CHART_DAYS = 30;

export interface AnalyticsSummary {
  totalPageViews: number;
  pageViewsLast24Hours: number;
  topPages: { path: string; count: number }[];
  topCountries: { country: string; count: number }[];
  topCities: { city: string; count: number }[];
  recentEvents: { eventName: string; count: number }[];
  /** The last 30 days in London, oldest first, every day present (0 when none). */
  dailyPageViews: { date: string; count: number }[];
}

const DAY_MS = 24 * 60 * 60 * 1000;

// en-CA formats as YYYY-MM-DD: the date an admin in the UK would call "today".
const LONDON_DAY = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London', year: 'numeric', month: '2-digit', day: '2-digit' });

/** The `days` London calendar dates ending with the one holding `now`, oldest first. */
export function londonDays(now: Date, days: number): string[] {
  const today = LONDON_DAY.format(now);
  // Calendar arithmetic on the date alone (noon UTC), so clock changes never skip or repeat a day.
  const todayNoon = Date.parse(`${today}T12:00:00Z`);
  return Array.from({ length: days }, (_, index) => new Date(todayNoon - (days - 1 - index) * DAY_MS).toISOString().slice(0, 10));
}

/**
 * The Analytics tab's numbers (admin-dashboard.md §2-3). Every query reads page_views by its
 * created_at index except the all-time total, a plain count. At a million rows that count is
 * one sequential pass (tens of milliseconds on PostgreSQL), so no roll-up table is kept yet:
 * one would add a second write per page view and a second source of truth to keep in step.
 */
export async function analyticsSummary(db: Database, now: Date): Promise<AnalyticsSummary> {
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const weekAgo = new Date(now.getTime() - TOP_LIST_DAYS * DAY_MS);
  const days = londonDays(now, DAILY_CHART_DAYS);
  // A day more than the chart needs covers the first London day whatever the clock offset;
  // the grouping below keeps only the 30 dates asked for.
  const chartFrom = new Date(now.getTime() - (DAILY_CHART_DAYS + 1) * DAY_MS);
  const inLastWeek = gte(pageViews.createdAt, weekAgo);
  const londonDate = sql<string>`to_char(${pageViews.createdAt} at time zone 'Europe/London', 'YYYY-MM-DD')`;

  const [totals, topPages, topCountries, topCities, recentEvents, daily] = await Promise.all([
    db
      .select({
        total: count(),
        lastDay: sql<number>`count(*) filter (where ${pageViews.createdAt} >= ${dayAgo.toISOString()}::timestamptz)`.mapWith(Number),
      })
      .from(pageViews),
    db
      .select({ path: pageViews.path, count: count() })
      .from(pageViews)
      .where(inLastWeek)
      .groupBy(pageViews.path)
      .orderBy(desc(count()), pageViews.path)
      .limit(TOP_LIST_SIZE),
    db
      .select({ country: sql<string>`${pageViews.country}`, count: count() })
      .from(pageViews)
      .where(and(inLastWeek, isNotNull(pageViews.country)))
      .groupBy(pageViews.country)
      .orderBy(desc(count()), pageViews.country)
      .limit(TOP_LIST_SIZE),
    db
      .select({ city: sql<string>`${pageViews.city}`, count: count() })
      .from(pageViews)
      .where(and(inLastWeek, isNotNull(pageViews.city)))
      .groupBy(pageViews.city)
      .orderBy(desc(count()), pageViews.city)
      .limit(TOP_LIST_SIZE),
    db
      .select({ eventName: analyticsEvents.eventName, count: count() })
      .from(analyticsEvents)
      .where(gte(analyticsEvents.createdAt, dayAgo))
      .groupBy(analyticsEvents.eventName)
      .orderBy(desc(count()), analyticsEvents.eventName),
    db
      .select({ date: londonDate, count: count() })
      .from(pageViews)
      .where(gte(pageViews.createdAt, chartFrom))
      .groupBy(londonDate),
  ]);

  const byDate = new Map(daily.map((row) => [row.date, row.count]));
  return {
    totalPageViews: totals[0]?.total ?? 0,
    pageViewsLast24Hours: totals[0]?.lastDay ?? 0,
    topPages,
    topCountries,
    topCities,
    recentEvents,
    dailyPageViews: days.map((date) => ({ date, count: byDate.get(date) ?? 0 })),
  };
}
