import { Hono, type Context } from 'hono';
import * as z from 'zod';
import { MAX_BOOKING_ID } from '../../../domain/booking-schema.ts';
import { londonDate } from '../../../domain/schedule.ts';
import type { AppEnv } from '../../app/request.ts';
import { badRequest, notFound } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import { assignStops, crewBoard, resendWorkerLink, revokeWorkerLinks } from '../../services/crew/crew-board.ts';

// Staff's side of the crew day: the board (routes, workers, links, live stop status), route
// assignment, and a worker's link revoked or sent again.

const DATE_MESSAGE = 'Date must be YYYY-MM-DD';
const dateSchema = z.iso.date({ error: DATE_MESSAGE });
const dayBody = z.object({ date: dateSchema });
const assignBody = z.object({
  date: dateSchema,
  bookingIds: z.array(z.number().int().min(1).max(MAX_BOOKING_ID)).min(1).max(100),
  workerId: z.number().int().min(1).max(MAX_BOOKING_ID).nullable(),
});

function workerId(c: Context<AppEnv>): number {
  const raw = c.req.param('id') ?? '';
  const id = Number(raw);
  if (!/^\d{1,9}$/.test(raw) || id < 1) throw notFound('Worker not found');
  return id;
}

export const adminCrewRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/day', async (c) => {
    const { db, now } = c.get('deps');
    const raw = c.req.query('date');
    const parsed = dateSchema.safeParse(raw ?? londonDate(now()));
    if (!parsed.success) throw badRequest(DATE_MESSAGE, { date: DATE_MESSAGE });
    c.header('Cache-Control', 'no-store');
    return c.json(await crewBoard(db, parsed.data, now()));
  })
  .put('/assignments', async (c) => {
    const body = await readJson(c, assignBody);
    await assignStops(c.get('deps').db, body.date, body.bookingIds, body.workerId, adminActor(c));
    return c.body(null, 204);
  })
  .post('/workers/:id/revoke', async (c) => {
    const id = workerId(c);
    const { date } = await readJson(c, dayBody);
    const { db, now } = c.get('deps');
    return c.json({ revoked: await revokeWorkerLinks(db, id, date, now(), adminActor(c)) });
  })
  .post('/workers/:id/resend', async (c) => {
    const id = workerId(c);
    const { date } = await readJson(c, dayBody);
    const deps = c.get('deps');
    return c.json(await resendWorkerLink(deps, id, date, deps.now(), adminActor(c)));
  });
