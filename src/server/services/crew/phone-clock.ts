import { CREW_CLOCK_DRIFT_MS } from '../../../domain/crew.ts';
import { badRequest } from '../../app/errors.ts';

// Times the crew's phone reports (api.md "Crew day"): a photo's `takenAt` and a tap's `tappedAt`.
// A phone with no signal sends what it did minutes or hours later; the record keeps when it
// happened, by the phone's clock, as long as that clock is believable.

/**
 * An ISO instant from the phone, no later than the server's clock plus CREW_CLOCK_DRIFT_MS and,
 * with `notBefore`, no earlier than it minus the same drift. Anything else is a 400 naming `field`.
 */
export function parsePhoneTime(value: unknown, now: Date, field: string, message: string, notBefore?: Date): Date {
  const at = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : new Date(Number.NaN);
  const time = at.getTime();
  const tooEarly = notBefore !== undefined && time < notBefore.getTime() - CREW_CLOCK_DRIFT_MS;
  if (Number.isNaN(time) || time > now.getTime() + CREW_CLOCK_DRIFT_MS || tooEarly) throw badRequest(message, { [field]: message });
  return at;
}
