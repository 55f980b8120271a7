import { adminApi as api, adminApiPage as apiPage } from '../admin-api.ts';

// The spec's lists (admin-dashboard.md §2 "Logs tab"), in the order the selects show them.
export const CHANNELS = ['booking', 'email', 'notification', 'admin', 'database'] as const;
export const SEVERITIES = ['info', 'warning', 'error', 'critical'] as const;
export const LIMITS = [50, 100, 200, 500] as const;

export type Channel = (typeof CHANNELS)[number];
export type Severity = (typeof SEVERITIES)[number];

export interface ChannelLog {
  id: number;
  timestamp: string;
  channel: Channel;
  action: string;
  entityType: string | null;
  entityId: string | null;
  severity: Severity;
  userId: string | null;
  ipAddress: string | null;
  details: string | null;
  metadata: unknown;
}

export interface ChannelLogStats {
  totalLogs: number;
  logsLast24Hours: number;
  logsLast7Days: number;
  topChannels: { channel: Channel; count: number }[];
  severityDistribution: { severity: Severity; count: number }[];
}

export interface LogFilters {
  channel: Channel | '';
  severity: Severity | '';
  action: string;
  entityType: string;
  search: string;
  limit: (typeof LIMITS)[number];
}

export const NO_FILTERS: LogFilters = { channel: '', severity: '', action: '', entityType: '', search: '', limit: 50 };

export function logsUrl(filters: LogFilters, cursor?: string | null): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    const text = String(value).trim();
    if (text) query.set(key, text);
  }
  if (cursor) query.set('cursor', cursor);
  return `/api/admin/channel-logs?${query}`;
}

export const fetchLogs = (filters: LogFilters, cursor?: string | null, signal?: AbortSignal) =>
  apiPage<ChannelLog>(logsUrl(filters, cursor), { signal });

export const fetchLogStats = (signal?: AbortSignal) => api<ChannelLogStats>('/api/admin/channel-logs/stats', { signal });
