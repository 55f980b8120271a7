import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { readJson, validate } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import { REVIEW_HIDE_REASONS, type ReviewHideReason } from '../../../content/review-policy.ts';
import { listReviewsForAdmin, setReviewVisibility } from '../../services/reviews/review-moderation.ts';

const idParam = z.coerce.number({ message: 'Review not found' }).int('Review not found').min(1, 'Review not found').max(2_147_483_647, 'Review not found');
const hideSchema = z.object({
  reason: z.enum(Object.keys(REVIEW_HIDE_REASONS) as [ReviewHideReason, ...ReviewHideReason[]], {
    message: 'A review can only be hidden for abuse or personal data',
  }),
});

/** The admin's review moderation (the Reviews tab): list, hide for a policy reason, restore. */
export const adminReviewRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .get('/', async (c) => c.json(await listReviewsForAdmin(c.get('deps').db)))
  .post('/:id/hide', async (c) => {
    const id = validate(idParam, c.req.param('id'));
    const { reason } = await readJson(c, hideSchema);
    await setReviewVisibility(c.get('deps'), id, { hide: true, reason }, adminActor(c));
    return c.body(null, 204);
  })
  .post('/:id/restore', async (c) => {
    const id = validate(idParam, c.req.param('id'));
    await setReviewVisibility(c.get('deps'), id, { hide: false }, adminActor(c));
    return c.body(null, 204);
  });
