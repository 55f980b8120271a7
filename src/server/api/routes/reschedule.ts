import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { afterResponse } from '../background.ts';
import { readJson } from '../middleware/body.ts';
import { deliverInviteMail } from '../../services/bookings/installation-invites.ts';
import { chooseRescheduleDay, readRescheduleChoice } from '../../services/schedule/reschedule-links.ts';

// The customer's "choose another day" link from a rain day's e-mail (api.md "Schedule and weather
// days"): the token is the only credential, so answers say nothing beyond its own booking.

const chooseSchema = z.object({ date: z.string().max(10) });

export const rescheduleRoutes = new Hono<AppEnv>()
  .get('/:token', async (c) => {
    const { db, env, now } = c.get('deps');
    c.header('Cache-Control', 'no-store');
    return c.json(await readRescheduleChoice(db, c.req.param('token'), { now: now(), capacity: env.DAILY_PATCH_CAPACITY, windowDays: env.WEATHER_RESCHEDULE_DAYS }));
  })
  .post('/:token', async (c) => {
    const { date } = await readJson(c, chooseSchema);
    const deps = c.get('deps');
    const { env } = deps;
    const chosen = await chooseRescheduleDay(deps.db, c.req.param('token'), date, {
      now: deps.now(),
      capacity: env.DAILY_PATCH_CAPACITY,
      windowDays: env.WEATHER_RESCHEDULE_DAYS,
      siteUrl: env.SITE_URL,
    });
    if (chosen.mailKey) afterResponse(c, () => deliverInviteMail(deps, [chosen.mailKey]));
    return c.json({ date: chosen.date });
  });
