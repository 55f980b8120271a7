import type { Database } from '../../../../db/client.ts';
import { listUnavailableDates, londonToday, type AvailabilityRules } from './availability.ts';

/**
 * GET /api/bookings/unavailable-dates is asked by every visit to the booking form, and its answer
 * changes only when a booking or a block does. This instance keeps its last answer for a few
 * seconds (UNAVAILABLE_DATES_CACHE_SECONDS) and forgets it as soon as one of its own requests
 * changes bookings or blocked dates (forgetUnavailableDates, called by app.ts after those
 * requests). Other instances on Netlify do not hear of that change and serve their copy until it
 * expires, which is why the time is short. The list only guides the form: booking creation
 * checks the date again under its lock and answers 409 when it has filled up meanwhile.
 *
 * A lookup in flight is shared by the requests that arrive during it, so a burst of visitors
 * costs the database one query. Entries are per database handle (tests run several).
 */
interface Entry {
  key: string;
  storedAt: number;
  dates: Promise<string[]>;
}

const entries = new WeakMap<Database, Entry>();

export async function cachedUnavailableDates(
  db: Database,
  rules: AvailabilityRules & { maxAgeSeconds: number },
): Promise<string[]> {
  if (rules.maxAgeSeconds <= 0) return listUnavailableDates(db, rules);
  // The list starts today and depends on the capacity: a new day or setting is a new list.
  const key = `${londonToday(rules.now)}|${rules.capacity}`;
  const at = rules.now.getTime();
  const entry = entries.get(db);
  if (entry && entry.key === key && at >= entry.storedAt && at - entry.storedAt < rules.maxAgeSeconds * 1000) {
    return entry.dates;
  }
  const dates = listUnavailableDates(db, rules);
  entries.set(db, { key, storedAt: at, dates });
  // A failed lookup is not kept: the next request asks the database again.
  dates.catch(() => {
    if (entries.get(db)?.dates === dates) entries.delete(db);
  });
  return dates;
}

/** Drops this instance's copy: the next request reads the database. */
export function forgetUnavailableDates(db: Database): void {
  entries.delete(db);
}
