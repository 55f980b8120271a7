import type { ComponentType } from 'react';

/**
 * The dashboard's tabs in the spec's order (admin-dashboard.md §2), with Messages (every e-mail
 * the site wrote) before Logs, each its own module loaded only when first opened, so the first
 * paint of /admin carries none of them.
 */
export interface AdminTab {
  id: string;
  label: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const ADMIN_TABS: readonly AdminTab[] = [
  { id: 'projects', label: 'Projects', load: () => import('./ProjectsTab.tsx') },
  { id: 'bookings', label: 'Bookings', load: () => import('./BookingsTab.tsx') },
  { id: 'contacts', label: 'Contacts', load: () => import('./ContactsTab.tsx') },
  { id: 'locations', label: 'Locations', load: () => import('./LocationsTab.tsx') },
  { id: 'workers', label: 'Workers', load: () => import('./WorkersTab.tsx') },
  { id: 'reviews', label: 'Reviews', load: () => import('./ReviewsTab.tsx') },
  { id: 'messages', label: 'Messages', load: () => import('./MessagesTab.tsx') },
  { id: 'logs', label: 'Logs', load: () => import('./LogsTab.tsx') },
  { id: 'analytics', label: 'Analytics', load: () => import('./AnalyticsTab.tsx') },
];
