import { Hono } from 'hono';
import { z } from 'zod';
import { bookingPayloadSchema, fieldErrors } from '../../../domain/booking-schema.ts';
import type { AppEnv } from '../deps.ts';
import { badRequest } from '../errors.ts';
import { readJson } from '../middleware/body.ts';
import { rateLimit } from '../../services/rate-limit.ts';
import { listUnavailableDates } from '../../services/availability.ts';
import { createBooking } from '../../services/bookings.ts';
import { readIdempotencyKey } from '../../services/idempotency.ts';
import { clientKey } from '../../services/client-info.ts';

// A business books a few times at most; a script filling the calendar with unpaid holds gets 429.
const BOOKING_LIMIT = { name: 'create-booking', limit: 20, windowSeconds: 60 * 60 };

/** Public booking calls (api.md). The admin's booking calls live with the admin dashboard. */
export const bookingRoutes = new Hono<AppEnv>()
  .get('/unavailable-dates', async (c) => {
    const { db, env, now } = c.get('deps');
    const unavailableDates = await listUnavailableDates(db, { now: now(), capacity: env.DAILY_PATCH_CAPACITY });
    return c.json({ unavailableDates });
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
    const result = await createBooking(c.get('deps'), { payload: parsed.data, idempotencyKey, client: clientKey(c) });
    return c.json(result.body, result.status);
  });
