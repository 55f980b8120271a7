import { api, ApiError } from '../shared/api.ts';
import { fallbackAddress } from './booking-store.ts';

// The map's address look-ups go through the server (api.md: a cached, rate-limited geocoder that
// answers 503 when it cannot reach its provider). A failed look-up never blocks the booking: the
// spec's 'Location {lat}, {lng}' stands in for the address (public-site.md §4 "Map").

export interface Place {
  address: string;
  lat: number;
  lng: number;
}

export const SEARCH_MIN_LENGTH = 3;

function isPlace(value: unknown): value is Place {
  const place = value as Partial<Place> | null;
  return (
    typeof place === 'object' &&
    place !== null &&
    typeof place.address === 'string' &&
    place.address.trim() !== '' &&
    Number.isFinite(place.lat) &&
    Number.isFinite(place.lng)
  );
}

export function parsePlaces(answer: unknown): Place[] {
  return Array.isArray(answer) ? answer.filter(isPlace) : [];
}

/**
 * The server shares the geocoder's small allowance (about one look-up a second for the whole
 * site) and answers 503 with a Retry-After of a second or two when someone else just used it.
 * Such a short wait is worth it once; a longer one (the geocoder is down) is not.
 */
export const SHORT_RETRY_SECONDS = 2;

async function lookUp<T>(url: string, signal?: AbortSignal): Promise<T> {
  try {
    return await api<T>(url, { signal });
  } catch (error) {
    const wait = error instanceof ApiError && error.status === 503 ? error.retryAfterSeconds : null;
    if (wait === null || wait > SHORT_RETRY_SECONDS || signal?.aborted) throw error;
    await pause(wait * 1000, signal);
    return api<T>(url, { signal });
  }
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export async function addressAt(lat: number, lng: number, signal?: AbortSignal): Promise<string> {
  try {
    const params = new URLSearchParams({ lat: String(lat), lng: String(lng) });
    const answer = await lookUp<unknown>(`/api/geocode/reverse?${params}`, signal);
    return isPlace(answer) ? answer.address.trim() : fallbackAddress(lat, lng);
  } catch (error) {
    if (signal?.aborted) throw error;
    return fallbackAddress(lat, lng);
  }
}

export async function searchPlaces(query: string, signal?: AbortSignal): Promise<Place[]> {
  const params = new URLSearchParams({ q: query.trim() });
  return parsePlaces(await lookUp<unknown>(`/api/geocode/search?${params}`, signal));
}
