import { Hono, type Context } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { afterResponse } from '../background.ts';
import { badRequest } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { adminActor, requireAdmin } from '../middleware/admin-auth.ts';
import {
  ADMIN_BOOKING_STATUSES,
  archiveTestBookings,
  listAdminBookings,
  parseBookingId,
  setBookingArchived,
  setBookingStatus,
  type AdminAction,
} from '../../services/bookings/admin-bookings.ts';
import { readPageRequest } from '../../services/lib/keyset-page.ts';
import { deliverInviteMail } from '../../services/bookings/installation-invites.ts';

export const INVALID_STATUS = `Status must be one of: ${ADMIN_BOOKING_STATUSES.join(', ')}.`;
export const INVALID_ARCHIVED = 'archived must be true or false.';
const MAX_SEARCH_LENGTH = 100;

const statusSchema = z.object({ status: z.enum(ADMIN_BOOKING_STATUSES, INVALID_STATUS) });

function action(c: Context<AppEnv>): AdminAction {
  const deps = c.get('deps');
  return { actor: adminActor(c), now: deps.now(), siteUrl: deps.env.SITE_URL, queuedMail: [] };
}

/** Sends after the answer what the action queued in its transaction (a calendar cancellation). */
function deliverQueued(c: Context<AppEnv>, done: AdminAction): void {
  if (done.queuedMail?.length) afterResponse(c, () => deliverInviteMail(c.get('deps'), done.queuedMail!));
}

/** The `X-Total-Count` / `X-Next-Cursor` pair every paged admin list answers with. */
export function setPageHeaders(c: Context<AppEnv>, page: { total: number; nextCursor: string | null }): void {
  c.header('X-Total-Count', String(page.total));
  if (page.nextCursor) c.header('X-Next-Cursor', page.nextCursor);
  c.header('Cache-Control', 'no-store');
}

function readArchived(value: string | undefined): boolean | null {
  if (value === undefined || value === '') return null;
  if (value === 'true' || value === 'false') return value === 'true';
  throw badRequest(INVALID_ARCHIVED, { archived: INVALID_ARCHIVED });
}

/**
 * The admin's booking calls under /api/bookings (api.md "Admin calls"). They share the path with
 * the public calls in bookings.ts, so each route here carries `requireAdmin` itself: a `use('*')`
 * on this prefix would also guard the public form's calls.
 */
export const adminBookingRoutes = new Hono<AppEnv>()
  .get('/', requireAdmin, async (c) => {
    const archived = readArchived(c.req.query('archived'));
    const q = (c.req.query('q') ?? '').slice(0, MAX_SEARCH_LENGTH);
    const page = await listAdminBookings(c.get('deps').db, { archived, q, ...readPageRequest(c.req.query()) });
    setPageHeaders(c, page);
    return c.json(page.items);
  })
  .patch('/:id/status', requireAdmin, async (c) => {
    const id = parseBookingId(c.req.param('id'));
    const { status } = await readJson(c, statusSchema);
    const done = action(c);
    const json = await setBookingStatus(c.get('deps').db, id, status, done);
    deliverQueued(c, done);
    return c.json(json);
  })
  .patch('/:id/archive', requireAdmin, async (c) => {
    const id = parseBookingId(c.req.param('id'));
    const done = action(c);
    const json = await setBookingArchived(c.get('deps').db, id, true, done);
    deliverQueued(c, done);
    return c.json(json);
  })
  .patch('/:id/unarchive', requireAdmin, async (c) => {
    const id = parseBookingId(c.req.param('id'));
    return c.json(await setBookingArchived(c.get('deps').db, id, false, action(c)));
  });

/** Bulk archive of test bookings, under /api/admin (api.md). */
export const adminBookingBulkRoutes = new Hono<AppEnv>()
  .use('*', requireAdmin)
  .post('/archive-tests', async (c) => {
    const done = action(c);
    const json = await archiveTestBookings(c.get('deps').db, done);
    deliverQueued(c, done);
    return c.json(json);
  });

export { action as adminAction };
