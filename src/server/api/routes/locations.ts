import { Hono } from 'hono';
import { DEFAULT_ROUTE_GROUP_SIZE, isRouteGroupSize, ROUTE_GROUP_SIZES } from '../../../domain/routing.ts';
import * as z from 'zod';
import { activeRouteGroups, regionCounts } from '../../services/crew/locations.ts';
import { dayRouteGroups } from '../../services/crew/day-routes.ts';
import type { AppEnv } from '../../app/request.ts';
import { badRequest } from '../../app/errors.ts';
import { requireAdmin } from '../middleware/admin-auth.ts';

const DATE_MESSAGE = 'Date must be YYYY-MM-DD';

/** The admin's Locations tab (api.md "Admin calls"): region counts and route groups. */
export const locationRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/regions', async (c) => c.json(await regionCounts(c.get('deps').db)))
  .get('/grouping', async (c) => {
    const { db } = c.get('deps');
    // ?date=YYYY-MM-DD: that crew day's routes, numbered and held as on the Workers tab.
    const date = c.req.query('date');
    if (date !== undefined && date !== '') {
      if (!z.iso.date().safeParse(date).success) throw badRequest(DATE_MESSAGE, { date: DATE_MESSAGE });
      c.header('Cache-Control', 'no-store');
      return c.json(await dayRouteGroups(db, date));
    }
    const raw = c.req.query('size');
    const size = raw === undefined ? DEFAULT_ROUTE_GROUP_SIZE : Number(raw);
    if (!isRouteGroupSize(size) || (raw !== undefined && !/^\d+$/.test(raw))) {
      throw badRequest(`Group size must be one of ${ROUTE_GROUP_SIZES.join(', ')}`);
    }
    return c.json(await activeRouteGroups(db, size));
  });
