import type { ComponentType } from 'react';
import type { StaffRole } from '../../../domain/staff-roles.ts';

/**
 * The dashboard's tabs in the spec's order (admin-dashboard.md §2), with Messages (every e-mail
 * the site wrote) before Logs, then Team and My account, each its own module loaded only when
 * first opened, so the first paint of /admin carries none of them.
 */
export interface AdminTab {
  id: string;
  label: string;
  load: () => Promise<{ default: ComponentType }>;
  /** Who sees the tab; everyone when unset (viewers see every tab read-only). */
  roles?: readonly StaffRole[];
}

export const ADMIN_TABS: readonly AdminTab[] = [
  { id: 'projects', label: 'Projects', load: () => import('./ProjectsTab.tsx') },
  { id: 'bookings', label: 'Bookings', load: () => import('./BookingsTab.tsx') },
  { id: 'schedule', label: 'Schedule', load: () => import('./ScheduleTab.tsx') },
  { id: 'contacts', label: 'Contacts', load: () => import('./ContactsTab.tsx') },
  { id: 'locations', label: 'Locations', load: () => import('./LocationsTab.tsx') },
  { id: 'workers', label: 'Workers', load: () => import('./WorkersTab.tsx') },
  { id: 'reviews', label: 'Reviews', load: () => import('./ReviewsTab.tsx') },
  { id: 'messages', label: 'Messages', load: () => import('./MessagesTab.tsx') },
  { id: 'logs', label: 'Logs', load: () => import('./LogsTab.tsx') },
  { id: 'analytics', label: 'Analytics', load: () => import('./AnalyticsTab.tsx') },
  // api.md "Staff accounts": accounts are the owner's; each person's own account is theirs.
  { id: 'team', label: 'Team', load: () => import('./TeamTab.tsx'), roles: ['owner'] },
  { id: 'account', label: 'My account', load: () => import('./AccountTab.tsx') },
];

export function tabsFor(role: StaffRole): readonly AdminTab[] {
  return ADMIN_TABS.filter((tab) => !tab.roles || tab.roles.includes(role));
}
