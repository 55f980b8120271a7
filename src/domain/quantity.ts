import { BUSINESS_PATCHES, CUSTOM_MIN_PATCHES, STARTER_PATCHES } from './pricing.ts';

// The patch-quantity tiles and their link to the map (public-site.md section 4, "Quantity and map link").

export type QuantityTile = '5' | '10' | 'custom';

export interface QuantitySelection {
  quantity: string;
  isCustom: boolean;
}

/** The quantity '1' is the test item (section 2, "Checkout"); the map never overrides it. */
const TEST_ITEM_QUANTITY = '1';

/** What the selected map locations imply for the quantity, or null when they do not apply. */
export function quantityForLocationCount(
  locationCount: number,
  currentQuantity: string,
): QuantitySelection | null {
  if (currentQuantity === TEST_ITEM_QUANTITY || locationCount < 1) return null;
  if (locationCount <= STARTER_PATCHES) return { quantity: String(STARTER_PATCHES), isCustom: false };
  if (locationCount <= BUSINESS_PATCHES) return { quantity: String(BUSINESS_PATCHES), isCustom: false };
  return { quantity: String(locationCount), isCustom: true };
}

export function selectTile(tile: QuantityTile): QuantitySelection {
  if (tile === 'custom') return { quantity: String(CUSTOM_MIN_PATCHES), isCustom: true };
  return { quantity: tile, isCustom: false };
}

/**
 * The custom input accepts only an empty value (which reverts to 10) or a whole number of 10 or
 * more; anything else returns null and the input keeps its previous value.
 */
export function normalizeCustomInput(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return String(CUSTOM_MIN_PATCHES);
  if (!/^\d+$/.test(trimmed)) return null;
  const quantity = Number(trimmed);
  return quantity >= CUSTOM_MIN_PATCHES ? String(quantity) : null;
}
