import { minBookingDate } from '../../domain/booking-limits.ts';
import { isIsoDate } from '../../domain/format.ts';

// The date field: the earliest bookable date and the unavailable ones.
// Part of the booking form's client state (booking-store.ts).

/** A calendar date in the person's own time zone, as the date input uses. */
export function localIsoDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${String(date.getFullYear()).padStart(4, '0')}-${month}-${day}`;
}

/**
 * The date input's minimum. The spec sets it to 1 July of the current year (§5); once that day has
 * passed, today is the earliest date the server accepts, so offering earlier days would only lead
 * to an error after submitting.
 */
export function earliestBookingDate(today: Date): string {
  const julyFirst = minBookingDate(today);
  const todayIso = localIsoDate(today);
  return todayIso > julyFirst ? todayIso : julyFirst;
}

export function isDateUnavailable(date: string, unavailableDates: readonly string[]): boolean {
  return date !== '' && unavailableDates.includes(date);
}

/** Reads the unavailable-dates answer defensively: the spec's default is an empty list. */
export function parseUnavailableDates(answer: unknown): string[] {
  const list = (answer as { unavailableDates?: unknown } | null)?.unavailableDates;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string' && isIsoDate(item)) : [];
}
