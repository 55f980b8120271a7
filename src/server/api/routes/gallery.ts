import { Hono } from 'hono';
import type { AppEnv } from '../../app/request.ts';
import { notFound } from '../../app/errors.ts';
import { MAX_BOOKING_ID } from '../../../domain/booking-schema.ts';
import { findPublicProject, PUBLIC_PROJECT_NOT_FOUND } from '../../services/projects/public-project.ts';

/** Public and the same for everyone: a minute of shared caching spares the function. */
const PUBLIC_CACHE = 'public, max-age=60';

export const galleryRoutes = new Hono<AppEnv>().get('/:id', async (c) => {
  const raw = c.req.param('id');
  const id = Number(raw);
  // Anything that is not a booking id is simply not a project: the same 404 as an unknown one.
  if (!/^\d{1,10}$/.test(raw) || !Number.isSafeInteger(id) || id < 1 || id > MAX_BOOKING_ID) {
    throw notFound(PUBLIC_PROJECT_NOT_FOUND);
  }
  const project = await findPublicProject(c.get('deps').db, id);
  c.header('Cache-Control', PUBLIC_CACHE);
  return c.json(project);
});
