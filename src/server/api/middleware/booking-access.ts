import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { eq } from 'drizzle-orm';
import { bookings } from '../../../../db/schema.ts';
import type { AppEnv } from '../../app/request.ts';
import { notFound } from '../../app/errors.ts';
import { readAdminSession } from './admin-auth.ts';
import { PHOTO_GRANT_COOKIE, hasPhotoGrant, readGrantTokens } from '../../services/projects/tracking.ts';

// Who may read a booking's customer-facing things (proofs, invoices, the campaign report):
// staff, or the browser that tracked it (a live grant from POST /api/track-project). Anyone else
// gets the same 404 as for a booking that does not exist (api.md).

/** The route's `:id` as a booking id, or a 404. */
export function bookingIdParam(c: Context<AppEnv>): number {
  const raw = c.req.param('id') ?? '';
  const id = Number(raw);
  if (!/^\d{1,9}$/.test(raw) || !Number.isSafeInteger(id) || id < 1) throw notFound();
  return id;
}

/** True when this browser holds a live tracking grant for the booking. */
export function isGrantedClient(c: Context<AppEnv>, bookingId: number): Promise<boolean> {
  const { db, now } = c.get('deps');
  return hasPhotoGrant(db, readGrantTokens(getCookie(c, PHOTO_GRANT_COOKIE)), bookingId, now());
}

/** Staff, or the granted client: the booking's id when this request may read it, else a 404. */
export async function readableBooking(c: Context<AppEnv>, bookingId: number): Promise<number> {
  if (await readAdminSession(c)) {
    const [exists] = await c.get('deps').db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId)).limit(1);
    if (exists) return bookingId;
  } else if (await isGrantedClient(c, bookingId)) {
    return bookingId;
  }
  throw notFound();
}
