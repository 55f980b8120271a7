import type { BookingFormValues } from '../../domain/booking-schema.ts';
import { formatLongDate, isIsoDate } from '../../domain/format.ts';
import { NIGHT_SURCHARGE_PER_PATCH_PENCE, computeTotalPricePence, formatPounds } from '../../domain/pricing.ts';
import { WORK_TYPE_LABELS } from './booking-fields.ts';
import type { SelectedLocation } from './booking-locations.ts';

// The Booking Summary beside the form.
// Part of the booking form's client state (booking-store.ts).

function patchCount(quantity: string): number | null {
  const count = Number(quantity);
  return quantity.trim() !== '' && Number.isSafeInteger(count) && count >= 0 ? count : null;
}

/** The price shown while someone fills the form; 0 while the quantity is not a count. */
export function displayTotalPence(values: Pick<BookingFormValues, 'quantity' | 'workType'>): number {
  const count = patchCount(values.quantity);
  return count === null ? 0 : computeTotalPricePence(count, values.workType);
}

export interface BookingSummary {
  patches: string;
  workType: string;
  date: string;
  location: string;
  total: string;
  totalPence: number;
  nightSurcharge: string | null;
}

export const NOT_CHOSEN = 'Not selected yet';

export function bookingSummary(values: BookingFormValues, locations: readonly SelectedLocation[]): BookingSummary {
  const count = patchCount(values.quantity);
  const totalPence = displayTotalPence(values);
  const workType = WORK_TYPE_LABELS[values.workType];
  const isNight = values.workType === 'night' && count !== null && count > 0;
  const locationCount = locations.length;
  return {
    patches: count === null ? NOT_CHOSEN : `${count} ${count === 1 ? 'patch' : 'patches'}`,
    workType: `${workType.name} (${workType.hours})`,
    date: isIsoDate(values.preferredDate) ? formatLongDate(values.preferredDate) : NOT_CHOSEN,
    location:
      locationCount === 0
        ? NOT_CHOSEN
        : `${locationCount} ${locationCount === 1 ? 'location' : 'locations'}`,
    total: formatPounds(totalPence),
    totalPence,
    nightSurcharge: isNight ? `includes ${formatPounds(count * NIGHT_SURCHARGE_PER_PATCH_PENCE)} night work` : null,
  };
}
