import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { requireAdmin } from '../middleware/admin-auth.ts';
import { validate } from '../middleware/body.ts';
import {
  CHANNELS,
  channelLogStats,
  decodeCursor,
  DEFAULT_LOG_LIMIT,
  listChannelLogs,
  MAX_LOG_LIMIT,
  SEVERITIES,
} from '../../services/messages/channel-logs-query.ts';

// An empty parameter means "no filter": the tab sends its selects' "All" as ''.
const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .optional()
    .transform((value) => value || undefined);

const emptyAsMissing = (value: unknown) => (value === '' ? undefined : value);

const logQuerySchema = z.object({
  channel: z.preprocess(emptyAsMissing, z.enum(CHANNELS, { message: `Channel must be one of ${CHANNELS.join(', ')}` }).optional()),
  severity: z.preprocess(emptyAsMissing, z.enum(SEVERITIES, { message: `Severity must be one of ${SEVERITIES.join(', ')}` }).optional()),
  action: optionalText(100),
  entityType: optionalText(100),
  search: optionalText(200),
  // Past the maximum is refused rather than clamped, so the caller learns the rule (api.md: at most 500).
  limit: z.coerce
    .number({ message: `Limit must be a whole number from 1 to ${MAX_LOG_LIMIT}` })
    .int(`Limit must be a whole number from 1 to ${MAX_LOG_LIMIT}`)
    .min(1, `Limit must be a whole number from 1 to ${MAX_LOG_LIMIT}`)
    .max(MAX_LOG_LIMIT, `Limit must be a whole number from 1 to ${MAX_LOG_LIMIT}`)
    .default(DEFAULT_LOG_LIMIT),
  cursor: z
    .string()
    .max(200)
    .optional()
    .transform((value, context) => {
      if (!value) return undefined;
      const cursor = decodeCursor(value);
      if (!cursor) {
        context.addIssue({ code: 'custom', message: 'Cursor is not valid' });
        return z.NEVER;
      }
      return cursor;
    }),
});

/** The Logs tab's reads (admin-dashboard.md §2, api.md). Admin only; nothing here writes. */
export const adminChannelLogRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/stats', async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await channelLogStats(db, now()));
  })
  .get('/', async (c) => {
    const query = validate(logQuerySchema, c.req.query());
    const { logs, nextCursor } = await listChannelLogs(c.get('deps').db, {
      channel: query.channel,
      severity: query.severity,
      action: query.action,
      entityType: query.entityType,
      search: query.search,
      limit: query.limit,
      cursor: query.cursor,
    });
    if (nextCursor) c.header('X-Next-Cursor', nextCursor);
    return c.json(logs);
  });
