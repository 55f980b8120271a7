import { addDays, isIsoDate } from './format.ts';
import { isBeyondBookingHorizon } from './booking-horizon.ts';
import { julyFirstOf } from './booking-limits.ts';

// Which days a customer may choose (api.md "Rush Job"): on or after 1 July of the date's own
// year (public-site.md §5: January to June are never bookable), within the booking horizon, and
// at least a lead time of working days after today in the UK, so that the stencil can be cut and
// its proof approved first (the FAQ's 5-7 working days). A Rush Job shortens the lead to 2.
// The booking form, the server, the checkout's date change, quotes and the customer's reschedule
// links all ask this module; staff may still move a booking to any day with room.

/** The lead of a Rush Job (+£30 a patch, "2-3 day completion"). */
export const RUSH_LEAD_WORKING_DAYS = 2;
/** The lead of any other booking, unless STANDARD_LEAD_WORKING_DAYS says otherwise. */
export const DEFAULT_STANDARD_LEAD_WORKING_DAYS = 5;

export const leadWorkingDays = (rush: boolean, standard: number): number => (rush ? Math.min(RUSH_LEAD_WORKING_DAYS, standard) : standard);

const weekday = (isoDate: string) => new Date(`${isoDate}T00:00:00Z`).getUTCDay();
const iso = (year: number, month: number, day: number) =>
  `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm). */
function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return iso(year, month, day);
}

/** The first (n = 1) or last (n = -1) Monday of a month. */
function monday(year: number, month: number, n: 1 | -1): string {
  if (n === 1) {
    const first = iso(year, month, 1);
    return addDays(first, (8 - weekday(first)) % 7);
  }
  const last = addDays(iso(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1), -1);
  return addDays(last, -((weekday(last) + 6) % 7));
}

const bankHolidayCache = new Map<number, Set<string>>();

/**
 * England and Wales bank holidays of a year, by their standing rules (a holiday on a weekend
 * moves to the next weekday). One-off holidays proclaimed for an occasion are not known here.
 */
export function bankHolidays(year: number): ReadonlySet<string> {
  const cached = bankHolidayCache.get(year);
  if (cached) return cached;
  const days = new Set<string>();
  // New Year's Day: a Saturday or Sunday gives the Monday.
  const newYear = iso(year, 1, 1);
  days.add(weekday(newYear) === 6 ? addDays(newYear, 2) : weekday(newYear) === 0 ? addDays(newYear, 1) : newYear);
  const easter = easterSunday(year);
  days.add(addDays(easter, -2));
  days.add(addDays(easter, 1));
  days.add(monday(year, 5, 1));
  days.add(monday(year, 5, -1));
  days.add(monday(year, 8, -1));
  // Christmas and Boxing Day: each one on a weekend moves to the next weekday neither takes.
  const christmas = iso(year, 12, 25);
  const boxingDay = iso(year, 12, 26);
  const christmasDay = weekday(christmas);
  if (christmasDay === 5) days.add(christmas).add(addDays(christmas, 3)); // Fri; Boxing Day Sat → Mon 28
  else if (christmasDay === 6) days.add(addDays(christmas, 2)).add(addDays(christmas, 3)); // Sat → Mon 27, Tue 28
  else if (christmasDay === 0) days.add(addDays(christmas, 2)).add(boxingDay); // Sun → Tue 27; Boxing Day Mon 26
  else days.add(christmas).add(boxingDay);
  bankHolidayCache.set(year, days);
  return days;
}

/** Monday to Friday, other than an England and Wales bank holiday. */
export function isWorkingDay(isoDate: string): boolean {
  const day = weekday(isoDate);
  return day !== 0 && day !== 6 && !bankHolidays(Number(isoDate.slice(0, 4))).has(isoDate);
}

/** The date `count` working days after `isoDate` (the day itself not counted). */
export function addWorkingDays(isoDate: string, count: number): string {
  let date = isoDate;
  for (let left = count; left > 0; ) {
    date = addDays(date, 1);
    if (isWorkingDay(date)) left -= 1;
  }
  return date;
}

/** Dates from January to June are never bookable: such a date moves to 1 July of its year. */
export const fromJulyOnwards = (isoDate: string): string => {
  const july = julyFirstOf(Number(isoDate.slice(0, 4)));
  return isoDate < july ? july : isoDate;
};

/** The first day a customer may choose on `today` (UK), given the booking's lead in working days. */
export function earliestBookableDate(today: string, lead: number): string {
  return fromJulyOnwards(addWorkingDays(today, lead));
}

export type DayRefusal = 'invalid' | 'before-july' | 'too-soon' | 'beyond-horizon';

/** Why a customer may not choose `date` on `today` with this lead, or null when they may. */
export function bookableDayRefusal(date: string, today: string, lead: number): DayRefusal | null {
  if (!isIsoDate(date)) return 'invalid';
  if (fromJulyOnwards(date) !== date) return 'before-july';
  if (date < earliestBookableDate(today, lead)) return 'too-soon';
  if (isBeyondBookingHorizon(date, today)) return 'beyond-horizon';
  return null;
}

export const isBookableDay = (date: string, today: string, lead: number): boolean => bookableDayRefusal(date, today, lead) === null;
