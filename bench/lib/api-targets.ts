/**
 * What the API bench loads: each target is a request autocannon repeats, shaped per request where
 * the app would otherwise refuse repeats (a fresh client address for every rate-limited call,
 * and booking dates spread so that no date fills up).
 */
import type { Request } from 'autocannon';
import { DEMO_TRACKING_TOKEN } from '../../db/seed.ts';
import { MIN_PATCHES } from '../../src/domain/pricing.ts';

export const TARGETS = ['booking', 'booking-refused', 'tracking', 'unavailable-dates', 'reviews', 'admin-bookings', 'admin-projects', 'admin-logs', 'admin-analytics'] as const;
export type Target = (typeof TARGETS)[number];

export interface TargetContext {
  origin: string;
  adminCookie: string;
}

let clientNumber = 0;

/**
 * A new address per request, sent as X-Forwarded-For: the bench server runs with TRUST_PROXY
 * on (as behind a proxy), so each request is a different client to the per-client rate limits.
 */
function nextClientAddress(): string {
  clientNumber += 1;
  return `10.${(clientNumber >> 16) & 255}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
}

/**
 * Every date the form accepts today: from tomorrow to two years ahead, 1 July to 31 December
 * only (the July rule). With the minimum quantity a date holds DAILY_PATCH_CAPACITY / 5
 * bookings (8 by default); cycling through the ~330 dates takes ~2 600 bookings per database
 * before any date is full, more than a 5-second run at 100 connections makes.
 */
const DAY_MS = 86_400_000;
const BOOKABLE_DATES = Array.from({ length: 2 * 365 - 2 }, (_, index) => new Date(Date.now() + (index + 1) * DAY_MS).toISOString().slice(0, 10)).filter(
  (date) => date.slice(5) >= '07-01',
);
let bookingNumber = 0;

function bookingBody(quantity = MIN_PATCHES): string {
  bookingNumber += 1;
  return JSON.stringify({
    firstName: 'Amira',
    lastName: 'Khan',
    businessName: 'Northern Roasters',
    email: `amira${bookingNumber}@northernroasters.co.uk`,
    phone: '0161 496 0000',
    preferredDate: BOOKABLE_DATES[bookingNumber % BOOKABLE_DATES.length],
    quantity,
    locationAddress: 'Piccadilly Gardens, Manchester, Greater Manchester, England, M1 1RG, United Kingdom',
    workType: 'day',
    locationCoordinates: [
      { address: 'Piccadilly Gardens, Manchester, Greater Manchester, England, M1 1RG, United Kingdom', lat: 53.4808, lng: -2.2369 },
    ],
    uploadedFiles: [],
  });
}

export function requestFor(target: Target, context: TargetContext): Request {
  const json = { 'content-type': 'application/json', origin: context.origin };
  const admin = { cookie: context.adminCookie, origin: context.origin };
  switch (target) {
    case 'booking':
      return {
        method: 'POST',
        path: '/api/bookings',
        setupRequest: (request) => ({ ...request, headers: { ...json, 'x-forwarded-for': nextClientAddress() }, body: bookingBody() }),
      };
    // The same request with one patch too few: the schema refuses it with a 400 after the
    // per-client rate limit (one statement). What a booking costs beyond this is its own work.
    case 'booking-refused':
      return {
        method: 'POST',
        path: '/api/bookings',
        setupRequest: (request) => ({ ...request, headers: { ...json, 'x-forwarded-for': nextClientAddress() }, body: bookingBody(MIN_PATCHES - 1) }),
      };
    case 'tracking':
      return {
        method: 'POST',
        path: '/api/track-project',
        body: JSON.stringify({ token: DEMO_TRACKING_TOKEN }),
        setupRequest: (request) => ({ ...request, headers: { ...json, 'x-forwarded-for': nextClientAddress() } }),
      };
    case 'unavailable-dates':
      return { method: 'GET', path: '/api/bookings/unavailable-dates' };
    case 'reviews':
      return { method: 'GET', path: '/api/reviews/public' };
    case 'admin-bookings':
      return { method: 'GET', path: '/api/bookings?archived=false', headers: admin };
    case 'admin-projects':
      return { method: 'GET', path: '/api/admin/projects', headers: admin };
    case 'admin-logs':
      return { method: 'GET', path: '/api/admin/channel-logs', headers: admin };
    case 'admin-analytics':
      return { method: 'GET', path: '/api/analytics/summary', headers: admin };
  }
}
