import type { Database } from '../../../../db/client.ts';
import { channelLogs } from '../../../../db/schema.ts';
import { redactMetadata, redactText } from './log-redaction.ts';
import { cleanOneLine } from '../../../domain/text.ts';

import type { Channel, Severity } from '../../../domain/channel-logs.ts';

export type { Channel, Severity };

export interface ChannelLogEntry {
  channel: Channel;
  action: string;
  severity?: Severity;
  entityType?: string;
  entityId?: string | number;
  userId?: string;
  ipAddress?: string;
  details?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The activity log the admin's Logs tab reads (admin-dashboard.md §2). Every service writes
 * through this one function, inside its own transaction where it has one. Secrets are redacted
 * here (log-redaction.ts), and `ipAddress` must be the hashed `clientKey`, never a raw address.
 * Details are one line, whatever text they quote (a customer's name): no line break, control or
 * bidi override can forge a second entry or hide part of one.
 */
export async function writeChannelLog(db: Database, entry: ChannelLogEntry) {
  await channelLogInsert(db, entry);
}

/** writeChannelLog's INSERT, not yet run, for a caller that combines it with other writes. */
export function channelLogInsert(db: Database, entry: ChannelLogEntry) {
  return db.insert(channelLogs).values({
    channel: entry.channel,
    action: entry.action,
    severity: entry.severity ?? 'info',
    entityType: entry.entityType,
    entityId: entry.entityId === undefined ? undefined : String(entry.entityId),
    userId: entry.userId,
    ipAddress: entry.ipAddress,
    details: entry.details === undefined ? undefined : redactText(cleanOneLine(entry.details)),
    metadata: entry.metadata === undefined ? undefined : (redactMetadata(entry.metadata) as Record<string, unknown>),
  });
}
