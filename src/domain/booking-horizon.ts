/**
 * How far ahead a booking may be made. The team plans its season a year or so out; a date
 * years away (9999-07-15 passes the July rule) is a typo or a probe, and would hold capacity
 * nobody can plan for.
 */
export const BOOKING_HORIZON_YEARS = 2;

export const BOOKING_HORIZON_MESSAGE = `Preferred date must be within ${BOOKING_HORIZON_YEARS} years of today`;

/** The last date that may be booked on `today` (ISO dates; 29 February steps back to the 28th). */
export function latestBookingDate(today: string): string {
  const [year, month, day] = today.split('-').map(Number) as [number, number, number];
  const targetYear = year + BOOKING_HORIZON_YEARS;
  const lastDayOfMonth = new Date(Date.UTC(targetYear, month, 0)).getUTCDate();
  const targetDay = Math.min(day, lastDayOfMonth);
  return `${String(targetYear).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(targetDay).padStart(2, '0')}`;
}

/** ISO dates compare as strings. */
export const isBeyondBookingHorizon = (date: string, today: string) => date > latestBookingDate(today);
