import { Hono } from 'hono';
import { sendNotificationsSchema } from '../../../domain/workers.ts';
import { sendWorkerNotifications, workerPreview } from '../../services/crew/worker-notifications.ts';
import type { AppEnv } from '../../app/request.ts';
import { readJson } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';

/** Tomorrow's routes for the installers: the preview and the manual send (api.md "Admin calls"). */
export const workerNotificationRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/preview', async (c) => {
    const { db, now } = c.get('deps');
    return c.json(await workerPreview(db, now()));
  })
  .post('/send', async (c) => {
    const body = await readJson(c, sendNotificationsSchema);
    const deps = c.get('deps');
    const target = body.workerEmail ? { email: body.workerEmail, name: body.workerName ?? null } : null;
    return c.json(await sendWorkerNotifications(deps, deps.now(), target, adminActor(c)));
  });
