/**
 * Calendar days as a person in the UK counts them (Europe/London), as YYYY-MM-DD strings.
 * London is UTC or UTC+1 and changes at 01:00 UTC, so every London day is a whole number of
 * UTC hours and its midnight always exists. The plain date helpers are the domain's.
 */
import { addDays } from '../../../domain/format.ts';
import { londonDate } from '../../../domain/schedule.ts';

const HOUR_MS = 60 * 60 * 1000;

/** The instant a London day begins. */
export function londonMidnight(day: string): Date {
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  for (const offset of [0, HOUR_MS]) {
    const candidate = new Date(utcMidnight - offset);
    if (londonDate(candidate) === day && londonDate(new Date(candidate.getTime() - 1)) !== day) return candidate;
  }
  throw new Error(`No London midnight found for ${day}`);
}

/** The first London day that begins at or after `instant`. */
export function firstWholeDayFrom(instant: Date): string {
  const day = londonDate(instant);
  return londonMidnight(day).getTime() === instant.getTime() ? day : addDays(day, 1);
}

/** The `days` London calendar dates ending with the one holding `now`, oldest first. */
export function londonDays(now: Date, days: number): string[] {
  const today = londonDate(now);
  return Array.from({ length: days }, (_, index) => addDays(today, index - (days - 1)));
}

/** Monday to Friday, as a London calendar date. */
function isWeekday(day: string): boolean {
  const weekday = new Date(`${day}T12:00:00Z`).getUTCDay();
  return weekday !== 0 && weekday !== 6;
}

/**
 * The instant `days` business days (Monday to Friday, London) after `start`: only weekday time
 * counts. Tuesday 10:00 plus 3 is Friday 10:00; Friday 15:00 plus 3 is Wednesday 15:00; a start
 * on a weekend counts from Monday's midnight. Bank holidays count as business days.
 */
export function addBusinessDays(start: Date, days: number): Date {
  let remaining = days * 24 * HOUR_MS;
  let cursor = start;
  for (;;) {
    const day = londonDate(cursor);
    const dayEnd = londonMidnight(addDays(day, 1));
    const left = dayEnd.getTime() - cursor.getTime();
    if (isWeekday(day)) {
      if (remaining <= left) return new Date(cursor.getTime() + remaining);
      remaining -= left;
    }
    cursor = dayEnd;
  }
}
