import { Hono } from 'hono';
import { DEFAULT_ROUTE_GROUP_SIZE, isRouteGroupSize, ROUTE_GROUP_SIZES } from '../../../domain/routing.ts';
import { activeRouteGroups, regionCounts } from '../../services/crew/locations.ts';
import type { AppEnv } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { requireAdmin } from '../middleware/admin-auth.ts';

/** The admin's Locations tab (api.md "Admin calls"): region counts and route groups. */
export const locationRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/regions', async (c) => c.json(await regionCounts(c.get('deps').db)))
  .get('/grouping', async (c) => {
    const raw = c.req.query('size');
    const size = raw === undefined ? DEFAULT_ROUTE_GROUP_SIZE : Number(raw);
    if (!isRouteGroupSize(size) || (raw !== undefined && !/^\d+$/.test(raw))) {
      throw badRequest(`Group size must be one of ${ROUTE_GROUP_SIZES.join(', ')}`);
    }
    return c.json(await activeRouteGroups(c.get('deps').db, size));
  });
