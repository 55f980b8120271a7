import { Hono, type Context } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import { eq } from 'drizzle-orm';
import * as z from 'zod';
import { bookings } from '../../../../db/schema.ts';
import { MAX_BOOKING_ID } from '../../../domain/booking-schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError, notFound } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { readAdminSession } from '../middleware/admin-auth.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { withinSiteCeiling } from '../../services/limits/site-ceilings.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';
import { customerCrewStatus } from '../../services/crew/crew-stops.ts';
import { proofSummaries } from '../../services/proofs/proof-summaries.ts';
import {
  PHOTO_GRANT_COOKIE,
  PHOTO_GRANT_TTL_MS,
  TRACKING_NOT_FOUND,
  addGrantToken,
  findBookingByEmail,
  findBookingByLink,
  grantPhotoAccess,
  hasPhotoGrant,
  listBookingPhotos,
  readGrantTokens,
  toTrackedBookingJson,
} from '../../services/projects/tracking.ts';

// Guessing e-mail + id pairs must be slow: 10 tries per 10 minutes per client, counted in the
// database so every function instance shares the count.
const TRACKING_LIMIT = { name: 'track-project', limit: 10, windowSeconds: 10 * 60 };

const FILL_IN = 'Please enter your email and booking ID.';

/** The spec's {email, bookingId}, or the magic link's {token}. */
export const trackProjectSchema = z.union([
  z.object({ token: z.string().min(1).max(200) }),
  z.object({
    email: z.string({ error: FILL_IN }).trim().min(1, FILL_IN).max(320),
    bookingId: z.number({ error: FILL_IN }).int(FILL_IN),
  }),
]);

export const trackingRoutes = new Hono<AppEnv>()
  .post('/track-project', rateLimit(TRACKING_LIMIT), async (c) => {
    const body = await readJson(c, z.unknown());
    const parsed = trackProjectSchema.safeParse(body);
    if (!parsed.success) throw new AppError(400, FILL_IN);
    const { db, now } = c.get('deps');
    const input = parsed.data;
    // A wrong guess (404) is given back: guesses from many addresses cannot close tracking.
    const booking = await withinSiteCeiling(c, 'tracking', async () => {
      const found = 'token' in input ? await findBookingByLink(db, input.token) : await findBookingByEmail(db, input.email, input.bookingId);
      if (!found) throw notFound(TRACKING_NOT_FOUND);
      return found;
    });

    const grant = await db.transaction(async (tx) => {
      const created = await grantPhotoAccess(tx, booking.id, now());
      await writeChannelLog(tx, {
        channel: 'booking',
        action: 'project_tracked',
        entityType: 'booking',
        entityId: booking.id,
        details: `Booking #${booking.id} tracked by the customer (${'token' in input ? 'e-mail link' : 'e-mail and booking ID'})`,
        metadata: { method: 'token' in input ? 'link' : 'email', currentStep: booking.currentStep },
      });
      return created;
    });
    setPhotoCookie(c, addGrantToken(getCookie(c, PHOTO_GRANT_COOKIE), grant.token));
    const proof = (await proofSummaries(db, [booking.id])).get(booking.id) ?? null;
    return c.json({ ...toTrackedBookingJson(booking, proof), crew: await customerCrewStatus(db, booking.id) });
  })

  // The same 404 for an unknown booking and for one this browser may not see (api.md).
  .get('/bookings/:id/photos', async (c) => {
    const id = Number(c.req.param('id'));
    if (!Number.isSafeInteger(id) || id <= 0 || id > MAX_BOOKING_ID) throw notFound();
    const { db, now } = c.get('deps');
    const isAdmin = Boolean(await readAdminSession(c));
    if (isAdmin) {
      const [exists] = await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, id)).limit(1);
      if (!exists) throw notFound();
    } else if (!(await hasPhotoGrant(db, readGrantTokens(getCookie(c, PHOTO_GRANT_COOKIE)), id, now()))) {
      throw notFound();
    }
    return c.json(await listBookingPhotos(db, id, isAdmin ? 'staff' : 'customer'));
  });

function setPhotoCookie(c: Context<AppEnv>, value: string): void {
  setCookie(c, PHOTO_GRANT_COOKIE, value, {
    httpOnly: true,
    // Lax: the photo links open in a new tab or a download from this site's own pages.
    sameSite: 'Lax',
    secure: new URL(c.get('deps').env.SITE_URL).protocol === 'https:',
    path: '/',
    maxAge: Math.floor(PHOTO_GRANT_TTL_MS / 1000),
  });
}
