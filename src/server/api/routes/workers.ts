import { Hono, type Context } from 'hono';
import { MAX_BOOKING_ID } from '../../../domain/booking-schema.ts';
import { newWorkerSchema, workerUpdateSchema } from '../../../domain/workers.ts';
import { addWorker, listWorkers, removeWorker, updateWorker } from '../../services/crew/workers.ts';
import type { AppEnv } from '../../app/request.ts';
import { notFound } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';

/** A path id that fits a serial column; anything else names no worker. */
function workerId(c: Context<AppEnv>): number {
  const raw = c.req.param('id') ?? '';
  const id = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(id) || id < 1 || id > MAX_BOOKING_ID) throw notFound('Worker not found');
  return id;
}

/** The installers who get the 6 PM e-mail (admin-dashboard.md §2 Workers tab). */
export const workerRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(await listWorkers(c.get('deps').db)))
  .post('/', async (c) => {
    const input = await readJson(c, newWorkerSchema);
    return c.json(await addWorker(c.get('deps').db, input, adminActor(c)), 201);
  })
  .patch('/:id', async (c) => {
    const id = workerId(c);
    const changes = await readJson(c, workerUpdateSchema);
    return c.json(await updateWorker(c.get('deps').db, id, changes, adminActor(c), c.get('deps').now()));
  })
  .delete('/:id', async (c) => {
    await removeWorker(c.get('deps').db, workerId(c), adminActor(c));
    return c.body(null, 204);
  });
