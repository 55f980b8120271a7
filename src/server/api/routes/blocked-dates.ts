import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { readJson } from '../middleware/body.ts';
import { requireAdmin } from '../middleware/admin-auth.ts';
import { BLOCK_DATE_MESSAGES, MAX_BLOCK_REASON_LENGTH, blockDate, listBlockedDates, unblockDate } from '../../services/bookings/blocked-dates.ts';
import { adminAction } from './admin-bookings.ts';

const REASON_TOO_LONG = `Please keep the reason under ${MAX_BLOCK_REASON_LENGTH} characters.`;

const blockSchema = z.object({
  date: z.string(BLOCK_DATE_MESSAGES.invalidDate).max(10, BLOCK_DATE_MESSAGES.invalidDate),
  reason: z
    .string()
    .max(MAX_BLOCK_REASON_LENGTH, REASON_TOO_LONG)
    .nullish()
    .transform((reason) => reason?.trim() || null),
});

/** Availability blocking for the Bookings tab, under /api/admin/blocked-dates. */
export const blockedDateRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await listBlockedDates(db, now()));
  })
  .post('/', async (c) => {
    const body = await readJson(c, blockSchema);
    return c.json(await blockDate(c.get('deps').db, body, adminAction(c)));
  })
  .delete('/:date', async (c) => {
    await unblockDate(c.get('deps').db, c.req.param('date'), adminAction(c));
    return c.body(null, 204);
  });
