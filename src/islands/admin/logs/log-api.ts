import { DEFAULT_LOG_LIMIT, type Channel, type Severity } from '../../../domain/channel-logs.ts';
import type { ChannelLogStats, ChannelLogView as ChannelLog } from '../../../server/services/messages/channel-logs-query.ts';
import { adminApi as api, adminApiPage as apiPage } from '../admin-api.ts';

export { CHANNELS, SEVERITIES } from '../../../domain/channel-logs.ts';
export type { Channel, ChannelLog, ChannelLogStats, Severity };

/** The page sizes the Logs tab offers, up to the server's MAX_LOG_LIMIT. */
export const LIMITS = [50, 100, 200, 500] as const;

export interface LogFilters {
  channel: Channel | '';
  severity: Severity | '';
  action: string;
  entityType: string;
  search: string;
  limit: (typeof LIMITS)[number];
}

export const NO_FILTERS: LogFilters = { channel: '', severity: '', action: '', entityType: '', search: '', limit: DEFAULT_LOG_LIMIT };

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
