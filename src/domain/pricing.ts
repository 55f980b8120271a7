// Prices and limits from public-site.md section 9. Money is integer pence everywhere (api.md,
// "General rules"); convert to pounds only at the edges (JSON, display).

export const MIN_PATCHES = 5;
export const CUSTOM_MIN_PATCHES = 10;
export const STARTER_PATCHES = 5;
export const BUSINESS_PATCHES = 10;

export const STARTER_PRICE_PENCE = 34_900;
export const BUSINESS_PRICE_PENCE = 59_900;
export const EXTRA_PATCH_PENCE = 4_500;
export const NIGHT_SURCHARGE_PER_PATCH_PENCE = 2_000;
export const RUSH_PER_PATCH_PENCE = 3_000;
export const STENCIL_CHANGE_PENCE = 10_000;

// The Business Pack's marketing figures (section 3, "Plan records"): originalPrice 650 and
// savings 100 are quoted as given even though 650 - 599 is not 100 (see the plans content).
export const BUSINESS_ORIGINAL_PRICE_PENCE = 65_000;
export const JULY_SPECIAL_SAVINGS_PENCE = 10_000;

export const WORK_TYPES = ['day', 'night'] as const;
export type WorkType = (typeof WORK_TYPES)[number];

function assertPatchCount(quantity: number): void {
  if (!Number.isSafeInteger(quantity) || quantity < 0) {
    throw new RangeError(`Patch quantity must be a whole number of 0 or more, got ${quantity}`);
  }
}

/** Price before add-ons (section 9, "Price by quantity"). */
export function computeBasePricePence(quantity: number): number {
  assertPatchCount(quantity);
  if (quantity === STARTER_PATCHES) return STARTER_PRICE_PENCE;
  if (quantity > STARTER_PATCHES && quantity <= BUSINESS_PATCHES) return BUSINESS_PRICE_PENCE;
  if (quantity > BUSINESS_PATCHES) {
    return BUSINESS_PRICE_PENCE + (quantity - BUSINESS_PATCHES) * EXTRA_PATCH_PENCE;
  }
  // "Any other count" (fewer than 5, e.g. the quantity '1' test item) is charged per patch.
  return quantity * EXTRA_PATCH_PENCE;
}

/** The booking's total: base price, plus £20 per patch for night work and £30 per patch for a Rush Job. */
export function computeTotalPricePence(quantity: number, workType: WorkType, rush = false): number {
  return priceListLines({ quantity, workType, rush }).reduce((total, line) => total + line.amountPence, 0);
}

export type PriceLineKind = 'plan' | 'extra_patches' | 'night' | 'rush';

/** One line of the price list's arithmetic, as a quote or an invoice shows it. */
export interface PriceLine {
  kind: PriceLineKind;
  label: string;
  /** How many of the unit the amount covers (patches; 1 for a plan). */
  quantity: number;
  amountPence: number;
}

const patchCount = (count: number) => `${count} ${count === 1 ? 'patch' : 'patches'}`;

/**
 * The price list's lines for a campaign (section 9): the plan its patch count falls in, patches
 * above the Business Pack at £45 each, night work at £20 a patch and a Rush Job at £30 a patch.
 * Their sum is computeTotalPricePence; quotes add staff-priced lines after them.
 */
export function priceListLines({ quantity, workType, rush = false }: { quantity: number; workType: WorkType; rush?: boolean }): PriceLine[] {
  assertPatchCount(quantity);
  const lines: PriceLine[] = [];
  if (quantity === STARTER_PATCHES) {
    lines.push({ kind: 'plan', label: `Starter Pack: ${patchCount(quantity)}`, quantity: 1, amountPence: STARTER_PRICE_PENCE });
  } else if (quantity > STARTER_PATCHES) {
    lines.push({ kind: 'plan', label: `Business Pack: ${patchCount(Math.min(quantity, BUSINESS_PATCHES))}`, quantity: 1, amountPence: BUSINESS_PRICE_PENCE });
    if (quantity > BUSINESS_PATCHES) {
      const extra = quantity - BUSINESS_PATCHES;
      lines.push({ kind: 'extra_patches', label: `Extra patches above ${BUSINESS_PATCHES}`, quantity: extra, amountPence: extra * EXTRA_PATCH_PENCE });
    }
  } else if (quantity > 0) {
    lines.push({ kind: 'extra_patches', label: patchCount(quantity), quantity, amountPence: quantity * EXTRA_PATCH_PENCE });
  }
  if (workType === 'night' && quantity > 0) {
    lines.push({ kind: 'night', label: 'Night work', quantity, amountPence: quantity * NIGHT_SURCHARGE_PER_PATCH_PENCE });
  }
  if (rush && quantity > 0) {
    lines.push({ kind: 'rush', label: 'Rush Job', quantity, amountPence: quantity * RUSH_PER_PATCH_PENCE });
  }
  return lines;
}

export function poundsFromPence(pence: number): number {
  return pence / 100;
}

/** Rounds to the nearest penny so 19.99 becomes 1999, not 1998.9999999999998. */
export function penceFromPounds(pounds: number): number {
  if (!Number.isFinite(pounds)) throw new RangeError(`Not an amount of money: ${pounds}`);
  return Math.round(pounds * 100);
}

const WHOLE_POUNDS = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 0,
  maximumFractionDigits: 0,
});
const POUNDS_AND_PENCE = new Intl.NumberFormat('en-GB', {
  style: 'currency',
  currency: 'GBP',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** '£349' for whole pounds, '£349.50' otherwise, '£1,049' with a thousands separator. */
export function formatPounds(pence: number): string {
  const format = Number.isInteger(pence) && pence % 100 === 0 ? WHOLE_POUNDS : POUNDS_AND_PENCE;
  return format.format(poundsFromPence(pence));
}
