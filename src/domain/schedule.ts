import { addDays, isIsoDate } from './format.ts';

// London-time rules for scheduled jobs. The business works on UK time, but Netlify runs
// scheduled functions on UTC cron expressions only, and 18:00 in London is 17:00 UTC in summer
// (BST) and 18:00 UTC in winter (GMT). So the job is scheduled at both UTC hours and acts only on
// the run that falls at 18:00 in London; the other run of the day does nothing.
// Intl with the IANA zone knows the clock changes; no date library is needed.

/** The hour, in London, at which tomorrow's routes are e-mailed to the worker. */
export const WORKER_NOTIFICATION_LONDON_HOUR = 18;

/** UTC cron for the worker e-mail job: 17:00 and 18:00 UTC, one of which is 18:00 in London. */
export const WORKER_NOTIFICATION_CRON = '0 17,18 * * *';

export const LONDON_TIME_ZONE = 'Europe/London';

const LONDON_PARTS = new Intl.DateTimeFormat('en-GB', {
  timeZone: LONDON_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  // h23, so midnight is 0 and never 24.
  hourCycle: 'h23',
});

export interface LondonParts {
  /** The calendar date in London, 'YYYY-MM-DD'. */
  date: string;
  /** 0-23 on London's clock. */
  hour: number;
  minute: number;
}

/** The date and time on London's clock at an instant. */
export function londonParts(instant: Date): LondonParts {
  if (Number.isNaN(instant.getTime())) throw new RangeError('Not a valid instant');
  const parts = Object.fromEntries(LONDON_PARTS.formatToParts(instant).map((part) => [part.type, part.value]));
  return {
    date: `${parts.year}-${parts.month}-${parts.day}`,
    hour: Number(parts.hour),
    minute: Number(parts.minute),
  };
}

/** The calendar date in London at an instant, 'YYYY-MM-DD'. */
export function londonDate(instant: Date): string {
  return londonParts(instant).date;
}

/** The London calendar date after the one at `instant`, 'YYYY-MM-DD'. */
export function londonTomorrow(instant: Date): string {
  return addDays(londonDate(instant), 1);
}

/**
 * Whether a run of the worker e-mail job at `instant` should send: true during the 18:00 hour
 * in London, so exactly one of the two daily UTC runs acts.
 */
export function isWorkerNotificationHour(instant: Date): boolean {
  return londonParts(instant).hour === WORKER_NOTIFICATION_LONDON_HOUR;
}

/**
 * The key that makes the worker e-mail go at most once a day: the London date of the run. A run
 * records it and skips when it is already recorded (a retried or duplicated invocation).
 */
export function workerRunKey(instant: Date): string {
  return londonDate(instant);
}

/**
 * The London date of a day: a calendar date 'YYYY-MM-DD' is taken as it is; an instant (a Date
 * or an ISO 8601 string with a time, as step dates are stored) is read on London's clock.
 */
export function toLondonDate(day: Date | string): string {
  if (typeof day === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(day)) {
    // Date would roll '2026-02-30' over into March.
    if (!isIsoDate(day)) throw new RangeError(`Not a calendar date: ${day}`);
    return day;
  }
  const instant = typeof day === 'string' ? new Date(day) : day;
  if (Number.isNaN(instant.getTime())) throw new RangeError(`Not a date: ${String(day)}`);
  return londonDate(instant);
}

/**
 * The day the crew is expected, in London: the installation date once staff set it, else the
 * preferred date. The worker routes, the calendar invite and the day-before reminder all go by it.
 */
export function installationDay(booking: { preferredDate: string; installationDate: Date | string | null }): string {
  return booking.installationDate ? toLondonDate(booking.installationDate) : booking.preferredDate;
}

/**
 * Whether `instant` falls on the London day before the installation, when the reminder (and the
 * worker's route for tomorrow) is due. `installationDate` is a calendar date or an instant.
 */
export function isDayBeforeInstallation(instant: Date, installationDate: Date | string): boolean {
  return londonTomorrow(instant) === toLondonDate(installationDate);
}
