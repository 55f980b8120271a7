import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { readJson, validate } from '../middleware/body.ts';
import { adminActor, requireOwner } from '../middleware/admin-auth.ts';
import { erasePersonalData, exportPersonalData } from '../../services/privacy/privacy-requests.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';

const emailSchema = z.string().trim().toLowerCase().email('Valid email is required').max(320);

/** Privacy requests (admin only): what is held about an e-mail address, and its erasure. */
export const adminPrivacyRoutes = new Hono<AppEnv>()
  .use('*', requireOwner)
  .get('/export', async (c) => {
    const { db, now } = c.get('deps');
    const email = validate(emailSchema, c.req.query('email') ?? '');
    const data = await exportPersonalData(db, email, now());
    await writeChannelLog(db, {
      channel: 'admin',
      action: 'personal_data_exported',
      userId: adminActor(c),
      details: `Subject access export: ${data.bookings.length} bookings, ${data.enquiries.length} enquiries`,
    });
    c.header('Content-Disposition', `attachment; filename="personal-data-${now().toISOString().slice(0, 10)}.json"`);
    return c.json(data);
  })
  .post('/erase', async (c) => {
    const deps = c.get('deps');
    const { email } = await readJson(c, z.object({ email: emailSchema }));
    return c.json(await erasePersonalData(deps, email, deps.now(), adminActor(c)));
  });
