// The channels and severities every service logs under, and the Logs tab's page sizes
// (admin-dashboard.md §2 "Logs tab" and §9; api.md caps a page at 500). Shared by the server,
// which validates filters with them, and the admin island, which offers them in its selects.

export const CHANNELS = ['booking', 'email', 'notification', 'admin', 'database'] as const;
export const SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;

export type Channel = (typeof CHANNELS)[number];
export type Severity = (typeof SEVERITIES)[number];

/** admin-dashboard.md §9: "Channel log default limit 50". */
export const DEFAULT_LOG_LIMIT = 50;
/** api.md: at most 500 rows per page. */
export const MAX_LOG_LIMIT = 500;
