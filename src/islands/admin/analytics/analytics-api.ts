import { adminApi as api } from '../admin-api.ts';
import type { AnalyticsSummary } from '../../../domain/analytics-summary.ts';

export type { AnalyticsSummary };

export const fetchAnalyticsSummary = (signal?: AbortSignal) => api<AnalyticsSummary>('/api/analytics/summary', { signal });

/** The spec's one label: the site's root is shown as "Home Page" (admin-dashboard.md §2). */
export const pageLabel = (path: string) => (path === '/' ? 'Home Page' : path);
