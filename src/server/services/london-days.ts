/**
 * Calendar days as a person in the UK counts them (Europe/London), as YYYY-MM-DD strings.
 * London is UTC or UTC+1 and changes at 01:00 UTC, so every London day is a whole number of
 * UTC hours and its midnight always exists. The plain date helpers are the domain's.
 */
import { addDays } from '../../domain/format.ts';
import { londonDate } from '../../domain/schedule.ts';

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
