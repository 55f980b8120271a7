import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { validate } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import { completionItems, completionStats, sendCompletionEmail, sendReviewRequest } from '../../services/reviews/completion.ts';

const bookingIdParam = z.coerce.number({ message: 'Booking not found' }).int('Booking not found').min(1, 'Booking not found').max(2_147_483_647, 'Booking not found');

/** The admin's completion flow (admin-dashboard.md §7: /api/completion/*). */
export const completionRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/stats', async (c) => c.json(await completionStats(c.get('deps').db)))
  .get('/bookings', async (c) => c.json(await completionItems(c.get('deps').db)))
  .post('/:id/send-email', async (c) => {
    const id = validate(bookingIdParam, c.req.param('id'));
    return c.json(await sendCompletionEmail(c.get('deps'), id, adminActor(c)));
  })
  .post('/:id/send-review-request', async (c) => {
    const id = validate(bookingIdParam, c.req.param('id'));
    return c.json(await sendReviewRequest(c.get('deps'), id, adminActor(c)));
  });
