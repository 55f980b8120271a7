import { Hono } from 'hono';
import type { AppEnv } from '../../app/request.ts';
import { requireAdmin } from '../middleware/admin-auth.ts';
import { listContactEnquiries } from '../../services/enquiries/admin-contacts.ts';
import { readPageRequest } from '../../services/lib/keyset-page.ts';
import { setPageHeaders } from './admin-bookings.ts';

/**
 * GET /api/contacts for the Contacts tab. The public enquiry form posts to the same path, so
 * the guard sits on this route rather than on the whole prefix.
 */
export const adminContactRoutes = new Hono<AppEnv>().get('/', requireAdmin, async (c) => {
  const page = await listContactEnquiries(c.get('deps').db, readPageRequest(c.req.query()));
  setPageHeaders(c, page);
  return c.json(page.items);
});
