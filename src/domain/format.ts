// Calendar dates travel as 'YYYY-MM-DD' (api.md, "General rules"). They are handled as UTC
// midnights so that adding days or formatting never shifts them with the runtime's time zone.

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_MS = 86_400_000;

function parseIsoDate(isoDate: string): Date | null {
  const match = ISO_DATE.exec(isoDate);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(0);
  // setUTCFullYear, unlike Date.UTC, does not map years 0-99 onto 1900-1999.
  date.setUTCFullYear(year, month - 1, day);
  const isRealDate =
    date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return isRealDate ? date : null;
}

function requireIsoDate(isoDate: string): Date {
  const date = parseIsoDate(isoDate);
  if (!date) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${isoDate}`);
  return date;
}

/** True for a real calendar date written 'YYYY-MM-DD' ('2026-02-30' is false). */
export function isIsoDate(value: string): boolean {
  return parseIsoDate(value) !== null;
}

/** The UTC calendar date of an instant, as 'YYYY-MM-DD'. */
export function toIsoDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function addDays(isoDate: string, days: number): string {
  const date = requireIsoDate(isoDate);
  return toIsoDate(new Date(date.getTime() + days * DAY_MS));
}

const LONG_DATE = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const LONG_DATE_IN_LONDON = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'Europe/London',
});

/**
 * '2026-07-14' → '14 July 2026'. An instant (ISO 8601 with a time, as the step dates are stored)
 * is shown as its date in the UK, where the business works.
 */
export function formatLongDate(value: string): string {
  const calendarDate = parseIsoDate(value);
  if (calendarDate) return LONG_DATE.format(calendarDate);
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not a date: ${value}`);
  return LONG_DATE_IN_LONDON.format(instant);
}

const SHORT_DAY = new Intl.DateTimeFormat('en-GB', { weekday: 'short', day: 'numeric', month: 'long', timeZone: 'UTC' });

/**
 * '2027-07-20' → 'Tue 20 July', for a day near `today` (both 'YYYY-MM-DD'); the year is added
 * when it is not today's year: 'Tue 20 July 2027'.
 */
export function formatShortDay(isoDate: string, today: string): string {
  const date = requireIsoDate(isoDate);
  const day = SHORT_DAY.format(date);
  // Appended rather than formatted: en-GB would write 'Tue, 20 July 2027'.
  return isoDate.slice(0, 4) === today.slice(0, 4) ? day : `${day} ${isoDate.slice(0, 4)}`;
}

const SIZE_UNITS = ['Bytes', 'KB', 'MB', 'GB'] as const;
const KILO = 1024;

/** 0 → '0 Bytes', 1536 → '1.5 KB' (public-site.md section 2, "Track project"). */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes';
  const exponent = Math.floor(Math.log(bytes) / Math.log(KILO));
  let unit = Math.min(Math.max(exponent, 0), SIZE_UNITS.length - 1);
  let value = Number((bytes / KILO ** unit).toFixed(2));
  // 1048575 bytes rounds to 1024 KB; show it as 1 MB instead.
  if (value >= KILO && unit < SIZE_UNITS.length - 1) {
    unit += 1;
    value = Number((bytes / KILO ** unit).toFixed(2));
  }
  return `${value} ${SIZE_UNITS[unit]}`;
}
