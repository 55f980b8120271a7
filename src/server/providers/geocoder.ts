import type { Env } from '../env.ts';

/**
 * Address lookups for the booking map: a Nominatim-compatible service at GEOCODER_URL
 * (OpenStreetMap's public Nominatim by default, whose usage policy asks for an identifying
 * User-Agent and at most one request a second for the whole application, hence the cache, the
 * site-wide limit and the pause after a failure in the route). `GEOCODER_URL=off`
 * disables lookups; the form then writes 'Location {lat}, {lng}'.
 */
export interface GeocodeResult {
  address: string;
  lat: number;
  lng: number;
}

export interface Geocoder {
  /** The address at a point, or null when the service knows none (open sea, say). */
  reverse(lat: number, lng: number): Promise<GeocodeResult | null>;
  /** Up to `SEARCH_LIMIT` places in Great Britain matching the text. */
  search(query: string): Promise<GeocodeResult[]>;
}

/** The service could not answer in time or at all; the caller falls back. */
export class GeocoderUnavailableError extends Error {
  override name = 'GeocoderUnavailableError';
}

export const SEARCH_LIMIT = 5;
/** A map click waits on this; past it the form's fallback text is better than a spinner. */
export const GEOCODER_TIMEOUT_MS = 3_000;

export const isGeocoderEnabled = (env: Env) => env.GEOCODER_URL.trim().toLowerCase() !== 'off';

interface NominatimPlace {
  display_name?: unknown;
  lat?: unknown;
  lon?: unknown;
}

function toResult(place: NominatimPlace | null | undefined): GeocodeResult | null {
  if (!place || typeof place.display_name !== 'string' || place.display_name.trim() === '') return null;
  const lat = Number(place.lat);
  const lng = Number(place.lon);
  if (!Number.isFinite(lat) || !Number.isFinite(lng)) return null;
  return { address: place.display_name.trim(), lat, lng };
}

/** Null when GEOCODER_URL is 'off'. */
export function createGeocoder(env: Env, fetchImpl: typeof fetch = fetch): Geocoder | null {
  if (!isGeocoderEnabled(env)) return null;
  const base = env.GEOCODER_URL.replace(/\/+$/, '');

  async function getJson(path: string, params: Record<string, string>): Promise<unknown> {
    const query = new URLSearchParams({ format: 'jsonv2', 'accept-language': 'en-GB', ...params });
    let response: Response;
    try {
      response = await fetchImpl(`${base}${path}?${query}`, {
        headers: { 'User-Agent': env.GEOCODER_USER_AGENT, Accept: 'application/json' },
        signal: AbortSignal.timeout(GEOCODER_TIMEOUT_MS),
      });
    } catch (error) {
      throw new GeocoderUnavailableError(`The geocoder could not be reached: ${(error as Error).message}`);
    }
    if (!response.ok) throw new GeocoderUnavailableError(`The geocoder answered ${response.status}`);
    try {
      return await response.json();
    } catch {
      throw new GeocoderUnavailableError('The geocoder answered with something other than JSON');
    }
  }

  return {
    async reverse(lat, lng) {
      const body = await getJson('/reverse', { lat: String(lat), lon: String(lng), zoom: '18' });
      // Nominatim answers 200 {"error": "Unable to geocode"} where it knows no address.
      return toResult(body as NominatimPlace);
    },
    async search(text) {
      const body = await getJson('/search', { q: text, countrycodes: 'gb', limit: String(SEARCH_LIMIT) });
      if (!Array.isArray(body)) throw new GeocoderUnavailableError('The geocoder answered a search without a list');
      return body
        .map((place) => toResult(place as NominatimPlace))
        .filter((result): result is GeocodeResult => result !== null)
        .slice(0, SEARCH_LIMIT);
    },
  };
}
