import { addDays } from '../../../domain/format.ts';
import { PROJECT_STEPS } from '../../../domain/project-steps.ts';
import type { ScheduleBooking, ScheduleDay } from '../../../server/services/schedule/schedule-days.ts';

// The answers of GET /api/admin/schedule and the weather-day calls (api.md "Schedule and weather
// days"), typed once on the server (type-only: nothing of the server reaches the browser bundle),
// and the calendar's pure helpers: the month's range and its weeks, and when a day's work is at
// risk of rain.

export type { ScheduleBooking, ScheduleDay };
export type { WeatherAnswer as WeatherPlan } from '../../../server/services/schedule/weather-days.ts';

/** A chance of rain at or above this marks a day's work as at risk. */
export const RAIN_RISK_PERCENT = 60;

/** 'YYYY-MM' → its first and last dates. */
export function monthRange(month: string): { from: string; to: string } {
  const from = `${month}-01`;
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const next = monthNumber === 12 ? `${year + 1}-01-01` : `${year}-${String(monthNumber + 1).padStart(2, '0')}-01`;
  return { from, to: addDays(next, -1) };
}

export function shiftMonth(month: string, by: number): string {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const index = year * 12 + (monthNumber - 1) + by;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Blank cells before the 1st, so a Monday-first grid lines up. */
export function leadingBlanks(from: string): number {
  return (new Date(`${from}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** The highest chance of rain across the day's regions, or null without a forecast. */
export function rainChance(day: ScheduleDay): number | null {
  const chances = Object.values(day.forecast ?? {})
    .map((entry) => entry.precipitationProbability)
    .filter((value): value is number => value !== null);
  return chances.length ? Math.max(...chances) : null;
}

export const isAtRisk = (day: ScheduleDay) => day.bookings.length > 0 && (rainChance(day) ?? 0) >= RAIN_RISK_PERCENT;

/** 'Step 3 · Installation' */
export const stepLabel = (step: number) => `Step ${step} · ${PROJECT_STEPS[step - 1]?.name ?? ''}`;

export function paymentLabel(booking: ScheduleBooking): string {
  if (booking.paymentStatus === 'paid') return 'Paid';
  if (booking.paymentStatus === 'processing') return 'Payment processing';
  return 'Unpaid (holds no room)';
}
