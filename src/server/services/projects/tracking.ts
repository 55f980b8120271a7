import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, gt, inArray, lt } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, photoGrants, photos, trackingLinks } from '../../../../db/schema.ts';
import { MAX_BOOKING_ID } from '../../../domain/booking-schema.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';
import type { BookingRow } from '../bookings/booking-view.ts';
import { stencilApprovedAt, type ProofSummary } from '../../../domain/proofs.ts';
import { shownToCustomer } from './photo-visibility.ts';

/**
 * Project tracking (public-site.md §2 "Track project", api.md POST /api/track-project).
 *
 * Two ways in. The spec's e-mail + booking ID: ids are sequential, so the answer must not tell a
 * wrong e-mail from an unknown id, by body or by timing (the same query runs either way and the
 * e-mails are compared in constant time). And a magic link from the confirmation or receipt
 * e-mail, whose random token is the stronger proof. Either one grants the browser a short-lived
 * right to see the booking's photos, kept as a hashed token in photo_grants.
 */
export const TRACKING_NOT_FOUND = 'Booking not found. Please check your email and booking ID are correct.';

/** How long a successful tracking call lets the browser see the booking's photos. */
export const PHOTO_GRANT_TTL_MS = 2 * 60 * 60 * 1000;
/** The photo cookie keeps the newest few grants (several bookings in one browser). */
export const MAX_PHOTO_GRANTS_PER_COOKIE = 5;
export const PHOTO_GRANT_COOKIE = 'cp_photos';

/** 192 random bits, URL-safe: the magic-link and photo-grant tokens. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token this server could have issued: anything else is not worth a database lookup. */
export function isTokenShaped(value: string): boolean {
  return /^[\w-]{32}$/.test(value);
}

/** The absolute magic link for a token. */
export function trackingLinkUrl(siteUrl: string, token: string): string {
  const url = new URL('/track-project', siteUrl);
  url.searchParams.set('t', token);
  return url.href;
}

/**
 * Issues a new magic link for a booking (a row per e-mail that carries one) and returns its
 * token, which exists in plain text only in that e-mail.
 */
export async function createTrackingLink(db: Database, bookingId: number, now: Date): Promise<string> {
  const { token, insert } = trackingLinkInsert(db, bookingId, now);
  await insert;
  return token;
}

/** createTrackingLink's token and INSERT, not yet run, for a caller that combines writes. */
export function trackingLinkInsert(db: Database, bookingId: number, now: Date) {
  const token = newToken();
  return { token, insert: db.insert(trackingLinks).values({ tokenHash: hashToken(token), bookingId, createdAt: now }) };
}

/**
 * Ends every magic link and photo grant of a booking. Deleting a booking does this by cascade;
 * erasing a booking's personal data while keeping the row must call it.
 */
export async function revokeTrackingAccess(db: Database, bookingId: number): Promise<void> {
  await db.delete(trackingLinks).where(eq(trackingLinks.bookingId, bookingId));
  await db.delete(photoGrants).where(eq(photoGrants.bookingId, bookingId));
}

/** The spec's tracked booking (public-site.md §3): what the page shows, nothing more personal. */
export function toTrackedBookingJson(row: BookingRow, proof: ProofSummary | null) {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    quantity: row.quantity,
    totalPrice: poundsFromPence(row.totalPricePence),
    preferredDate: row.preferredDate,
    workType: row.workType,
    status: row.status,
    currentStep: row.currentStep,
    consultationDate: row.consultationDate?.toISOString() ?? null,
    stencilApprovedDate: stencilApprovedAt(row.stencilApprovedDate?.toISOString() ?? null, proof),
    installationDate: row.installationDate?.toISOString() ?? null,
    completionDate: row.completionDate?.toISOString() ?? null,
  };
}

export type TrackedBookingJson = ReturnType<typeof toTrackedBookingJson>;


/** E-mail addresses as people type them: case and surrounding spaces do not matter. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

function emailDigest(email: string): Buffer {
  return createHash('sha256').update(normalizeEmail(email), 'utf8').digest();
}

/**
 * The booking with this id whose e-mail matches, or null. One query by id runs whatever the id
 * (an impossible one looks up id 0, which never exists), and the comparison of two fixed-length
 * digests takes the same time whether or not a row came back.
 */
export async function findBookingByEmail(db: Database, email: string, bookingId: number): Promise<BookingRow | null> {
  const id = Number.isSafeInteger(bookingId) && bookingId > 0 && bookingId <= MAX_BOOKING_ID ? bookingId : 0;
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id)).limit(1);
  const given = emailDigest(email);
  const expected = row ? emailDigest(row.email) : Buffer.alloc(given.length);
  const isMatch = timingSafeEqual(given, expected);
  return row && isMatch ? row : null;
}

/** The booking a magic link names, or null (unknown, tampered or revoked). */
export async function findBookingByLink(db: Database, token: string): Promise<BookingRow | null> {
  // A malformed token is looked up as a hash no token has, so the answer takes the same path.
  const tokenHash = hashToken(isTokenShaped(token) ? token : '');
  const [found] = await db
    .select({ booking: bookings })
    .from(trackingLinks)
    .innerJoin(bookings, eq(bookings.id, trackingLinks.bookingId))
    .where(eq(trackingLinks.tokenHash, tokenHash))
    .limit(1);
  return found?.booking ?? null;
}

/** Stores a photo grant for the booking and returns its token for the cookie. */
export async function grantPhotoAccess(db: Database, bookingId: number, now: Date): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(now.getTime() + PHOTO_GRANT_TTL_MS);
  await db.insert(photoGrants).values({ tokenHash: hashToken(token), bookingId, expiresAt, createdAt: now });
  return { token, expiresAt };
}

/** The tokens a photo cookie holds ('.'-separated), well-formed ones only, at most the cap. */
export function readGrantTokens(cookie: string | undefined): string[] {
  if (!cookie) return [];
  return cookie.split('.').filter(isTokenShaped).slice(0, MAX_PHOTO_GRANTS_PER_COOKIE);
}

/** The cookie after a new grant: the new token first, then the newest of the old ones. */
export function addGrantToken(cookie: string | undefined, token: string): string {
  return [token, ...readGrantTokens(cookie).filter((old) => old !== token)].slice(0, MAX_PHOTO_GRANTS_PER_COOKIE).join('.');
}

/** The grants these tokens name that have not expired. */
function liveGrantOf(tokens: string[], now: Date) {
  return and(inArray(photoGrants.tokenHash, tokens.map(hashToken)), gt(photoGrants.expiresAt, now));
}

/** True when one of the tokens is a live grant for this booking. */
export async function hasPhotoGrant(db: Database, tokens: string[], bookingId: number, now: Date): Promise<boolean> {
  if (!tokens.length) return false;
  const rows = await db
    .select({ tokenHash: photoGrants.tokenHash })
    .from(photoGrants)
    .where(and(liveGrantOf(tokens, now), eq(photoGrants.bookingId, bookingId)))
    .limit(1);
  return rows.length > 0;
}

/**
 * The bookings these tokens hold a live grant for, as a subquery: what the tracking page's
 * browser may reach, for a caller that must decide inside its own statement (Book again's files).
 */
export function grantedBookingIds(db: Database, tokens: string[], now: Date) {
  return db
    .select({ bookingId: photoGrants.bookingId })
    .from(photoGrants)
    .where(liveGrantOf(tokens, now));
}

/** Expired grants are useless; the hourly maintenance job removes them. */
export async function pruneExpiredPhotoGrants(db: Database, now: Date): Promise<number> {
  const deleted = await db.delete(photoGrants).where(lt(photoGrants.expiresAt, now)).returning({ tokenHash: photoGrants.tokenHash });
  return deleted.length;
}

/**
 * The spec's Photo (public-site.md §3), oldest first so the page can group them by step in order.
 * The customer gets the photos shown to them only; staff get every photo, each hidden one marked
 * `hiddenFromCustomer` (a field the customer's answer never carries).
 */
export async function listBookingPhotos(db: Database, bookingId: number, viewer: 'customer' | 'staff') {
  const rows = await db
    .select()
    .from(photos)
    .where(and(eq(photos.bookingId, bookingId), viewer === 'customer' ? shownToCustomer() : undefined))
    .orderBy(asc(photos.step), asc(photos.createdAt), asc(photos.id));
  return rows.map((row) => ({
    id: row.id,
    fileName: row.fileName,
    originalName: row.originalName,
    description: row.description,
    photoType: row.photoType,
    step: row.step,
    fileSize: row.fileSize,
    createdAt: row.createdAt.toISOString(),
    ...(viewer === 'staff' && row.hiddenAt ? { hiddenFromCustomer: true } : {}),
  }));
}

export type PhotoJson = Awaited<ReturnType<typeof listBookingPhotos>>[number];
