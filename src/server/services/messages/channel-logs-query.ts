import { staffNameOf } from '../staff/staff-users.ts';
import { and, count, desc, eq, ilike, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { channelLogSearchText, channelLogs } from '../../../../db/schema.ts';
import { CHANNELS, DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT, SEVERITIES, type Channel, type Severity } from '../../../domain/channel-logs.ts';
import { likePattern } from '../lib/keyset-page.ts';

export { CHANNELS, DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT, SEVERITIES };

export interface ChannelLogFilters {
  channel?: Channel;
  severity?: Severity;
  /** Exact action name, as the services write it (e.g. `booking_created`). */
  action?: string;
  /** Exact entity type (e.g. `booking`). */
  entityType?: string;
  /** Case-insensitive substring of details, action or entityId. */
  search?: string;
  limit: number;
  cursor?: LogCursor;
}

/** Where the previous page ended: the last row's timestamp (PostgreSQL's own text, to the microsecond) and id. */
export interface LogCursor {
  timestamp: string;
  id: number;
}

export interface ChannelLogView {
  id: number;
  timestamp: string;
  channel: Channel;
  action: string;
  entityType: string | null;
  entityId: string | null;
  severity: Severity;
  userId: string | null;
  /** The account's name when `userId` is a staff account's id (api.md "Staff accounts"). */
  userName: string | null;
  ipAddress: string | null;
  details: string | null;
  metadata: unknown;
}

// The cursor is opaque to the browser; base64url keeps it safe in a header and a query string.
export function encodeCursor(cursor: LogCursor): string {
  return Buffer.from(JSON.stringify([cursor.timestamp, cursor.id])).toString('base64url');
}

export function decodeCursor(text: string): LogCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [timestamp, id] = value as [unknown, unknown];
    // PostgreSQL's timestamptz text, e.g. "2026-11-22 09:30:00.123456+00": checked by shape, parsed by PostgreSQL.
    if (typeof timestamp !== 'string' || !/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(\.\d{1,6})?([+-]\d{2}(:?\d{2})?|Z)?$/.test(timestamp)) return null;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id < 0) return null;
    return { timestamp, id };
  } catch {
    return null;
  }
}

/**
 * One page of logs, newest first, and the cursor of the next page (null on the last one).
 * Keyset paging by (timestamp, id) stays fast however deep the admin pages, and rows written
 * meanwhile never shift a page the way OFFSET would.
 */
export async function listChannelLogs(db: Database, filters: ChannelLogFilters): Promise<{ logs: ChannelLogView[]; nextCursor: string | null }> {
  const conditions: SQL[] = [];
  if (filters.channel) conditions.push(eq(channelLogs.channel, filters.channel));
  if (filters.severity) conditions.push(eq(channelLogs.severity, filters.severity));
  if (filters.action) conditions.push(eq(channelLogs.action, filters.action));
  if (filters.entityType) conditions.push(eq(channelLogs.entityType, filters.entityType));
  if (filters.search) {
    // Action, entity id and details: one trigram-indexed expression (db/schema.ts).
    conditions.push(ilike(channelLogSearchText(channelLogs), likePattern(filters.search)));
  }
  if (filters.cursor) {
    conditions.push(sql`(${channelLogs.timestamp}, ${channelLogs.id}) < (${filters.cursor.timestamp}::timestamptz, ${filters.cursor.id})`);
  }

  const rows = await db
    .select({
      id: channelLogs.id,
      timestamp: channelLogs.timestamp,
      // The exact stored instant for the cursor: a JS Date keeps only milliseconds.
      cursorTimestamp: sql<string>`${channelLogs.timestamp}::text`,
      channel: channelLogs.channel,
      action: channelLogs.action,
      entityType: channelLogs.entityType,
      entityId: channelLogs.entityId,
      severity: channelLogs.severity,
      userId: channelLogs.userId,
      userName: staffNameOf(channelLogs.userId),
      ipAddress: channelLogs.ipAddress,
      details: channelLogs.details,
      metadata: channelLogs.metadata,
    })
    .from(channelLogs)
    .where(conditions.length ? and(...conditions) : undefined)
    .orderBy(desc(channelLogs.timestamp), desc(channelLogs.id))
    // One more than asked tells whether another page exists.
    .limit(filters.limit + 1);

  const page = rows.slice(0, filters.limit);
  const last = page.at(-1);
  const nextCursor = rows.length > filters.limit && last ? encodeCursor({ timestamp: last.cursorTimestamp, id: last.id }) : null;
  return {
    logs: page.map(({ cursorTimestamp: _cursor, timestamp, ...row }) => ({ ...row, timestamp: timestamp.toISOString() })),
    nextCursor,
  };
}

export interface ChannelLogStats {
  totalLogs: number;
  logsLast24Hours: number;
  logsLast7Days: number;
  topChannels: { channel: Channel; count: number }[];
  severityDistribution: { severity: Severity; count: number }[];
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * The Logs tab's stat cards (admin-dashboard.md §2): windows of 24 hours and 7 days before `now`.
 * One pass over the table, counted by (channel, severity) and summed here: three separate
 * counts each read all 200 000 rows of a few years' logs and together took over 100 ms.
 */
export async function channelLogStats(db: Database, now: Date): Promise<ChannelLogStats> {
  const dayAgo = new Date(now.getTime() - 24 * HOUR_MS);
  const weekAgo = new Date(now.getTime() - 7 * 24 * HOUR_MS);
  const groups = await db
    .select({
      channel: channelLogs.channel,
      severity: channelLogs.severity,
      total: count(),
      lastDay: sql<number>`count(*) filter (where ${channelLogs.timestamp} >= ${dayAgo.toISOString()}::timestamptz)`.mapWith(Number),
      lastWeek: sql<number>`count(*) filter (where ${channelLogs.timestamp} >= ${weekAgo.toISOString()}::timestamptz)`.mapWith(Number),
    })
    .from(channelLogs)
    .groupBy(channelLogs.channel, channelLogs.severity);
  const ranked = <K extends string>(key: (group: (typeof groups)[number]) => K) => {
    const totals = new Map<K, number>();
    for (const group of groups) totals.set(key(group), (totals.get(key(group)) ?? 0) + group.total);
    // Most first, ties by name, as the tab lists them.
    return [...totals].sort(([a, countA], [b, countB]) => countB - countA || (a < b ? -1 : a > b ? 1 : 0));
  };
  const sum = (field: 'total' | 'lastDay' | 'lastWeek') => groups.reduce((total, group) => total + group[field], 0);
  return {
    totalLogs: sum('total'),
    logsLast24Hours: sum('lastDay'),
    logsLast7Days: sum('lastWeek'),
    topChannels: ranked((group) => group.channel).map(([channel, count]) => ({ channel, count })),
    severityDistribution: ranked((group) => group.severity).map(([severity, count]) => ({ severity, count })),
  };
}
