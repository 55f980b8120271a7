import type { LocationCoordinate } from '../../domain/booking-schema.ts';
import { normalizeCustomInput, quantityForLocationCount, selectTile, type QuantityTile } from '../../domain/quantity.ts';
import { LOCATION_SEPARATOR } from './booking-fields.ts';

// Locations the customer picked on the map and the quantity they imply.
// Part of the booking form's client state (booking-store.ts).

export interface SelectedLocation {
  id: number;
  lat: number;
  lng: number;
  /** null while the reverse lookup is still running. */
  address: string | null;
}

/** The spec's fallback when geocoding fails (§4 "Map"): 'Location {lat}, {lng}' with 6 decimals. */
export function fallbackAddress(lat: number, lng: number): string {
  return `Location ${lat.toFixed(6)}, ${lng.toFixed(6)}`;
}

/** The location field's text: the selected addresses joined with '; ' (§3 "Pending booking"). */
export function joinAddresses(locations: readonly SelectedLocation[]): string {
  return locations
    .map((location) => location.address)
    .filter((address): address is string => Boolean(address))
    .join(LOCATION_SEPARATOR);
}

export function toCoordinates(locations: readonly SelectedLocation[]): LocationCoordinate[] {
  return locations.map(({ lat, lng, address }) => ({ lat, lng, address: address ?? fallbackAddress(lat, lng) }));
}

export interface QuantityState {
  quantity: string;
  isCustom: boolean;
}

/**
 * What the form's quantity becomes after the set of locations changed (§4 "Quantity and map
 * link"). The rule applies on each change only, so a person can still pick another tile after
 * placing their pins.
 */
export function quantityAfterLocationsChange(current: QuantityState, locationCount: number): QuantityState {
  return quantityForLocationCount(locationCount, current.quantity) ?? current;
}

export function quantityAfterTile(tile: QuantityTile): QuantityState {
  return selectTile(tile);
}

/** The tile that shows as chosen for a quantity state. */
export function activeTile({ quantity, isCustom }: QuantityState): QuantityTile | null {
  if (isCustom) return 'custom';
  if (quantity === '5' || quantity === '10') return quantity;
  return null;
}

/** Keeps only digits: the custom input never holds anything that could not become a count. */
export function digitsOnly(text: string): string {
  return text.replace(/\D+/g, '');
}

/**
 * The custom input while someone types: a draft of digits. The quantity follows the draft as soon
 * as it is a valid custom count (empty reverts to 10, §4); a draft below 10 leaves the quantity as
 * it was until the person finishes typing.
 */
export function quantityFromCustomDraft(draft: string, currentQuantity: string): string {
  return normalizeCustomInput(draft) ?? currentQuantity;
}
