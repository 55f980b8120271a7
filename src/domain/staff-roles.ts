/**
 * Dashboard roles (api.md "Staff accounts"), shared by the server's guard and the dashboard:
 * owner (everything, including accounts and privacy requests), staff (the daily work), viewer
 * (reads every tab and downloads CSV; changes nothing).
 */
export const STAFF_ROLES = ['owner', 'staff', 'viewer'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];

export const STAFF_STATUSES = ['invited', 'active', 'deactivated'] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];

export const ROLE_LABELS: Record<StaffRole, string> = { owner: 'Owner', staff: 'Staff', viewer: 'Viewer' };

const RANK: Record<StaffRole, number> = { viewer: 0, staff: 1, owner: 2 };

/** Whether a person with `role` may do what needs `needed`. */
export function roleAllows(role: StaffRole, needed: StaffRole): boolean {
  return RANK[role] >= RANK[needed];
}

/** api.md: the answer to a call outside one's role. */
export const ROLE_FORBIDDEN = 'Your role cannot do this';

/** At least this many characters for a staff password (api.md "Staff accounts"). */
export const MIN_STAFF_PASSWORD_LENGTH = 12;
