/**
 * The Projects tab's orders: by installation day (today, then the next days, then projects not
 * yet scheduled, then past ones), which is what staff need first, or newest booking first.
 */
export const PROJECT_SORTS = ['day', 'newest'] as const;
export type ProjectSort = (typeof PROJECT_SORTS)[number];

export const PROJECT_SORT_LABELS: Record<ProjectSort, string> = {
  day: 'Installation day',
  newest: 'Newest booking',
};
