/** One London day's count, for the Analytics tab's daily chart. */
export interface DayCount {
  date: string;
  count: number;
}

/**
 * The Analytics tab's numbers (`GET /api/analytics/summary`, admin-dashboard.md §2-3): the
 * server's answer and the tab's props are this one shape.
 */
export interface AnalyticsSummary {
  totalPageViews: number;
  pageViewsLast24Hours: number;
  topPages: { path: string; count: number }[];
  topCountries: { country: string; count: number }[];
  topCities: { city: string; count: number }[];
  recentEvents: { eventName: string; count: number }[];
  /** The last 30 days in London, oldest first, every day present (0 when none). */
  dailyPageViews: DayCount[];
}
