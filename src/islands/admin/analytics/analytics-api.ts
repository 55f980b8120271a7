import { adminApi as api } from '../admin-api.ts';
import type { DayCount } from './DailyChart.tsx';

export interface AnalyticsSummary {
  totalPageViews: number;
  pageViewsLast24Hours: number;
  topPages: { path: string; count: number }[];
  topCountries: { country: string; count: number }[];
  topCities: { city: string; count: number }[];
  recentEvents: { eventName: string; count: number }[];
  dailyPageViews: DayCount[];
}

export const fetchAnalyticsSummary = (signal?: AbortSignal) => api<AnalyticsSummary>('/api/analytics/summary', { signal });

/** The spec's one label: the site's root is shown as "Home Page" (admin-dashboard.md §2). */
export const pageLabel = (path: string) => (path === '/' ? 'Home Page' : path);
