import { api } from '../shared/api.ts';
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

export async function addressAt(lat: number, lng: number, signal?: AbortSignal): Promise<string> {
  try {
    const params = new URLSearchParams({ lat: String(lat), lng: String(lng) });
    const answer = await api<unknown>(`/api/geocode/reverse?${params}`, { signal });
    return isPlace(answer) ? answer.address.trim() : fallbackAddress(lat, lng);
  } catch (error) {
    if (signal?.aborted) throw error;
    return fallbackAddress(lat, lng);
  }
}

export async function searchPlaces(query: string, signal?: AbortSignal): Promise<Place[]> {
  const params = new URLSearchParams({ q: query.trim() });
  return parsePlaces(await api<unknown>(`/api/geocode/search?${params}`, { signal }));
}
