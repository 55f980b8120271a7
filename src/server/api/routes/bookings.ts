import { Hono } from 'hono';
import * as z from 'zod';
import { bookingPayloadSchema, fieldErrors } from '../../../domain/booking-schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { badRequest } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { withinSiteCeiling } from '../../services/limits/site-ceilings.ts';
import { cachedUnavailableDates } from '../../services/bookings/unavailable-dates-cache.ts';
import { createBooking } from '../../services/bookings/bookings.ts';
import { readIdempotencyKey } from '../../services/bookings/idempotency.ts';
import { clientKey, previousClientKey } from '../../services/limits/client-info.ts';
import { afterResponse } from '../background.ts';
import { getCookie } from 'hono/cookie';
import { PHOTO_GRANT_COOKIE, readGrantTokens } from '../../services/projects/tracking.ts';

// A business books a few times at most; a script filling the calendar with unpaid holds gets 429.
const BOOKING_LIMIT = { name: 'create-booking', limit: 20, windowSeconds: 60 * 60 };

/**
 * The unavailable dates are public and the same for everyone, so browsers and the CDN may reuse
 * them briefly: 15 s fresh, then up to 30 s more while a fresh copy is fetched, on top of the
 * instance's own few seconds (services/bookings/unavailable-dates-cache.ts). A date that just filled up
 * shows within about a minute; until then a booking for it gets the 409 from the server's own
 * check. Netlify caches a function's answer only when told by its own header.
 */
export const UNAVAILABLE_DATES_CACHING = {
  'Cache-Control': 'public, max-age=15, s-maxage=15, stale-while-revalidate=30',
  'Netlify-CDN-Cache-Control': 'public, durable, s-maxage=15, stale-while-revalidate=30',
} as const;

/** Public booking calls (api.md). The admin's booking calls live with the admin dashboard. */
export const bookingRoutes = new Hono<AppEnv>()
  .get('/unavailable-dates', async (c) => {
    const { db, env, now } = c.get('deps');
    const unavailableDates = await cachedUnavailableDates(db, {
      now: now(),
      capacity: env.DAILY_PATCH_CAPACITY,
      maxAgeSeconds: env.UNAVAILABLE_DATES_CACHE_SECONDS,
    });
    return c.json({ unavailableDates }, 200, UNAVAILABLE_DATES_CACHING);
  })
  .post('/', rateLimit(BOOKING_LIMIT), async (c) => {
    const idempotencyKey = readIdempotencyKey(c.req.header('idempotency-key'));
    const body = await readJson(c, z.unknown());
    // Field messages keyed by the form's own fields, as the form shows them (booking-schema.ts).
    const parsed = bookingPayloadSchema.safeParse(body);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      throw badRequest(Object.values(fields)[0] ?? 'Invalid booking', fields);
    }
    const client = await clientKey(c);
    // A booking refused for its date (409) or for its client's holds (429) is given back.
    const result = await withinSiteCeiling(c, 'bookings', () =>
      createBooking(c.get('deps'), {
        payload: parsed.data,
        idempotencyKey,
        client,
        previousClient: (tx) => previousClientKey(c, tx),
        // Book again: the browser's tracking grants let the new booking use that booking's files.
        grantTokens: readGrantTokens(getCookie(c, PHOTO_GRANT_COOKIE)),
      }),
    );
    if (result.deliverMail) afterResponse(c, result.deliverMail);
    return c.json(result.body, result.status);
  });
