import { Hono } from 'hono';
import { eq } from 'drizzle-orm';
import * as z from 'zod';
import type { Database } from '../../../../db/client.ts';
import { geocodeCache } from '../../../../db/schema.ts';
import type { AppDeps } from '../../app/deps.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError, notFound } from '../../app/errors.ts';
import { validate } from '../middleware/body.ts';
import { consumeFixedWindow, pauseSecondsLeft, rateLimit, startPause } from '../../services/limits/rate-limit.ts';
import {
  createGeocoder,
  GeocoderUnavailableError,
  type Geocoder,
  type GeocodeResult,
} from '../../providers/geocoder.ts';

export const GEOCODE_MESSAGES = {
  unavailable: 'Address lookup is unavailable right now',
  noAddress: 'No address found for this location',
  searchLength: 'Search text must be 2 to 200 characters',
} as const;

// A person clicks a few map points a minute; the public Nominatim asks for light use.
const GEOCODE_LIMIT = { name: 'geocode', limit: 30, windowSeconds: 60 };

/**
 * After the geocoder fails or times out, nobody asks it for this long: a service that accepts
 * connections but never answers would otherwise cost every click the whole timeout.
 */
export const GEOCODER_PAUSE = { name: 'geocoder', seconds: 30 };

/** Five decimals is about a metre: nearby clicks share a cache entry, and no more precision leaves. */
const COORDINATE_DECIMALS = 5;

function coordinate(label: string, max: number) {
  return z
    .string({ error: `${label} is required` })
    .trim()
    .regex(/^[-+]?\d{1,3}(?:\.\d+)?$/, { error: `${label} must be a number`, abort: true })
    .transform(Number)
    .refine((value) => Math.abs(value) <= max, { error: `${label} must be between -${max} and ${max}` });
}

const reverseQuery = z.object({ lat: coordinate('Latitude', 90), lng: coordinate('Longitude', 180) });
const searchQuery = z.object({
  q: z
    .string({ error: GEOCODE_MESSAGES.searchLength })
    .transform((value) => value.trim().replace(/\s+/g, ' '))
    .refine((value) => value.length >= 2 && value.length <= 200, { error: GEOCODE_MESSAGES.searchLength }),
});

/**
 * Answers from geocode_cache, or asks the geocoder and remembers its answer. Failures and
 * "no address" are not cached: the next click asks again.
 */
async function cached<T extends GeocodeResult | GeocodeResult[]>(
  db: Database,
  key: string,
  lookup: () => Promise<T | null>,
): Promise<T | null> {
  const [hit] = await db.select({ result: geocodeCache.result }).from(geocodeCache).where(eq(geocodeCache.key, key));
  if (hit) return hit.result as T;
  const result = await lookup();
  if (result !== null) await db.insert(geocodeCache).values({ key, result }).onConflictDoNothing();
  return result;
}

function requireGeocoder(geocoder: Geocoder | null): Geocoder {
  if (!geocoder) throw new AppError(503, GEOCODE_MESSAGES.unavailable);
  return geocoder;
}

const unavailable = (retryAfterSeconds: number) =>
  new AppError(503, GEOCODE_MESSAGES.unavailable, undefined, { 'Retry-After': String(retryAfterSeconds) });

/**
 * One call to the geocoder, as the whole site may make it; cache hits never get here. Every
 * refusal is an immediate 503 (the form falls back to coordinates), never a wait:
 * - during a pause after a failure (GEOCODER_PAUSE);
 * - past GEOCODER_MAX_PER_SECOND calls this second, counted in the database because function
 *   instances share no memory and Nominatim's limit is per application, not per instance.
 * An unreachable, slow or confused geocoder starts the pause.
 */
async function askGeocoder<T>({ db, env, log, now }: AppDeps, ask: () => Promise<T>): Promise<T> {
  const pausedFor = await pauseSecondsLeft(db, GEOCODER_PAUSE, now());
  if (pausedFor > 0) throw unavailable(pausedFor);
  // Nominatim counts whole seconds: a fixed window, not the per-client sliding estimate.
  const sitewide = await consumeFixedWindow(
    db,
    { name: 'geocoder', limit: env.GEOCODER_MAX_PER_SECOND, windowSeconds: 1 },
    'site',
    now(),
  );
  if (!sitewide.allowed) throw unavailable(sitewide.retryAfterSeconds);
  try {
    return await ask();
  } catch (error) {
    if (!(error instanceof GeocoderUnavailableError)) throw error;
    await startPause(db, GEOCODER_PAUSE, now());
    log.warn('Geocoder unavailable; lookups paused', { error: error.message, pauseSeconds: GEOCODER_PAUSE.seconds });
    throw unavailable(GEOCODER_PAUSE.seconds);
  }
}

export const geocodeRoutes = new Hono<AppEnv>()
  .use(rateLimit(GEOCODE_LIMIT))
  .get('/reverse', async (c) => {
    const { lat, lng } = validate(reverseQuery, c.req.query());
    const deps = c.get('deps');
    const geocoder = requireGeocoder(createGeocoder(deps.env));
    const [roundedLat, roundedLng] = [lat.toFixed(COORDINATE_DECIMALS), lng.toFixed(COORDINATE_DECIMALS)];
    const result = await cached(deps.db, `reverse:${roundedLat},${roundedLng}`, () =>
      askGeocoder(deps, () => geocoder.reverse(Number(roundedLat), Number(roundedLng))),
    );
    if (!result) throw notFound(GEOCODE_MESSAGES.noAddress);
    // The marker stays where the person put it; only the address comes from the geocoder.
    return c.json({ address: result.address, lat, lng });
  })
  .get('/search', async (c) => {
    const { q } = validate(searchQuery, c.req.query());
    const deps = c.get('deps');
    const geocoder = requireGeocoder(createGeocoder(deps.env));
    const results = await cached(deps.db, `search:${q.toLowerCase()}`, () => askGeocoder(deps, () => geocoder.search(q)));
    return c.json(results ?? []);
  });
