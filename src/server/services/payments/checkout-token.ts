import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The checkout token (api.md: security wins over the spec). Booking ids are sequential, so the
 * id alone must not let anyone start a payment for someone else's booking. POST /api/bookings
 * hands the creator a random token once; only its SHA-256 is stored on the booking, and
 * POST /api/create-payment-intent requires it.
 */
export function newCheckoutToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * The token of a booking made with an Idempotency-Key: derived from the key, which only the
 * creator holds (the database keeps only the key's SHA-256, services/bookings/idempotency.ts), so a replay
 * of the key gets the same token back without the token being stored anywhere in plain text.
 */
export function checkoutTokenForKey(idempotencyKey: string): string {
  return createHmac('sha256', idempotencyKey).update('clean-patch checkout token').digest('base64url').slice(0, 32);
}

export function hashCheckoutToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Constant-time check of a presented token against a stored hash; false when there is no hash. */
export function checkoutTokenMatches(storedHash: string | null | undefined, token: string): boolean {
  const given = Buffer.from(hashCheckoutToken(token), 'hex');
  // Compare against something of the same length even without a hash, so timing says nothing.
  const expected = storedHash && /^[0-9a-f]{64}$/.test(storedHash) ? Buffer.from(storedHash, 'hex') : Buffer.alloc(given.length);
  return timingSafeEqual(expected, given) && Boolean(storedHash);
}

/**
 * The confirmation e-mail's "complete payment" link. It carries the plain token, which exists
 * only while the booking is being written (the booking keeps its hash); /checkout reads both
 * from the address, loads the booking's summary with them and takes the token out of the bar.
 */
export function checkoutLinkUrl(siteUrl: string, bookingId: number, token: string): string {
  const url = new URL('/checkout', siteUrl);
  url.searchParams.set('booking', String(bookingId));
  url.searchParams.set('t', token);
  return url.href;
}
