import { Hono } from 'hono';
import * as z from 'zod';
import { cleanOneLine } from '../../../domain/text.ts';
import { analyticsEvents, pageViews } from '../../../../db/schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { readJson } from '../middleware/body.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { clientInfo } from '../../services/limits/client-info.ts';
import { ANALYTICS_EVENTS, isStaffPage } from '../../../domain/analytics-events.ts';
import { isSignedInStaff, requireAdmin } from '../middleware/admin-auth.ts';
import { analyticsSummary } from '../../services/analytics/analytics-summary.ts';

// Cleaned like every typed field (domain/text.ts): these end up in the admin dashboard and exports.
const pathField = z.string().overwrite(cleanOneLine).min(1, 'Path is required').max(2048).startsWith('/', 'Path must start with /');

export const pageViewSchema = z.object({
  path: pathField,
  // Bounded so a nonsense year never reaches the database as an out-of-range timestamp.
  timestamp: z
    .string()
    .datetime({ offset: true })
    .refine((value) => {
      const year = new Date(value).getUTCFullYear();
      return year >= 2000 && year <= 2100;
    }, 'Timestamp is out of range')
    .optional(),
  referrer: z.string().overwrite(cleanOneLine).max(2048).nullish(),
  // The browser truncates to 200 characters (public-site.md §7); the server enforces it too.
  userAgent: z.string().overwrite(cleanOneLine).max(1000).nullish().transform((value) => value?.slice(0, 200)),
});

export const eventSchema = z.object({
  // Only the names the public pages send (src/domain/analytics-events.ts): anything else is noise.
  eventName: z.enum(ANALYTICS_EVENTS, { message: 'Unknown event name' }),
  path: pathField.optional(),
});

// Generous: a person clicking around sends one per page; a script hammering it gets 429.
const ANALYTICS_LIMIT = { limit: 120, windowSeconds: 60 };

export const analyticsRoutes = new Hono<AppEnv>()
  .post('/pageview', rateLimit({ name: 'pageview', ...ANALYTICS_LIMIT }), async (c) => {
    const body = await readJson(c, pageViewSchema);
    // Staff are not visitors: their own pages, and anything viewed while signed in to the
    // dashboard, would otherwise top the Analytics tab. The answer is the same 204 either way.
    if (isStaffPage(body.path) || (await isSignedInStaff(c))) return c.body(null, 204);
    const { country, city } = clientInfo(c);
    await c.get('deps').db.insert(pageViews).values({
      path: body.path,
      referrer: body.referrer || null,
      userAgent: body.userAgent ?? null,
      clientTimestamp: body.timestamp ? new Date(body.timestamp) : null,
      country: country ?? null,
      city: city ?? null,
    });
    return c.body(null, 204);
  })
  .post('/event', rateLimit({ name: 'event', ...ANALYTICS_LIMIT }), async (c) => {
    const body = await readJson(c, eventSchema);
    await c.get('deps').db.insert(analyticsEvents).values({ eventName: body.eventName, path: body.path ?? null });
    return c.body(null, 204);
  })
  // The admin's Analytics tab. Guarded per route: the two beacons above are public.
  .get('/summary', requireAdmin, async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await analyticsSummary(db, now()));
  });
