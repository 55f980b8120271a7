import { randomBytes } from 'node:crypto';
import { eq, lt, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { clientHashKeys } from '../../../../db/schema.ts';

/**
 * The secrets client-address hashes are keyed with (client-info.ts). An unkeyed SHA-256 of an
 * IPv4 address is undone by hashing all 2^32 addresses, a couple of hours on one core; an HMAC
 * with a random 256-bit key cannot be undone without the key.
 *
 * One key per UTC day, made by the first function instance that needs it: an upsert that keeps
 * the key another instance made first and returns it, so every instance hashes with the same key.
 * Each instance keeps the day's key in memory, so a request pays nothing for it after the first. The hourly job deletes a key once its
 * day and the next are over (`pruneClientHashKeys`): the next day still needs it to recognise a
 * client that made an Idempotency-Key just before midnight. Once it is gone, the hashes it made
 * (rate-limit windows, Idempotency-Key rows, Logs) can no longer be tied to any address.
 */

/** Days a key is kept: its own and the next. */
export const CLIENT_HASH_KEY_DAYS = 2;

const DAY_MS = 24 * 60 * 60 * 1000;

/** The UTC day of an instant, as the table's `date` column holds it. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Keys this process has read, per database (tests open several), per day. */
const cache = new WeakMap<Database, Map<string, Promise<Buffer>>>();

function cachedKeys(db: Database): Map<string, Promise<Buffer>> {
  let keys = cache.get(db);
  if (!keys) {
    keys = new Map();
    cache.set(db, keys);
  }
  return keys;
}

async function readKey(db: Database, day: string): Promise<Buffer | undefined> {
  const [row] = await db.select({ key: clientHashKeys.key }).from(clientHashKeys).where(eq(clientHashKeys.day, day));
  return row ? Buffer.from(row.key, 'base64url') : undefined;
}

/** The key of `now`'s UTC day, made now if no instance has made it yet. */
export function currentClientHashKey(db: Database, now: Date): Promise<Buffer> {
  const day = utcDay(now);
  const keys = cachedKeys(db);
  const known = keys.get(day);
  if (known) return known;
  // Only today's key is worth keeping in memory; older days' entries go as the day turns.
  for (const other of keys.keys()) if (other !== day) keys.delete(other);
  const loading = (async () => {
    // One statement: inserts a fresh key, or (when an instance got there first, even at this
    // very moment: the insert waits for theirs) keeps theirs and returns it.
    const [row] = await db
      .insert(clientHashKeys)
      .values({ day, key: randomBytes(32).toString('base64url') })
      .onConflictDoUpdate({ target: clientHashKeys.day, set: { key: sql`${clientHashKeys.key}` } })
      .returning({ key: clientHashKeys.key });
    if (!row) throw new Error(`No client hash key for ${day}`);
    return Buffer.from(row.key, 'base64url');
  })();
  keys.set(day, loading);
  loading.catch(() => keys.delete(day));
  return loading;
}

/** The key of the UTC day before `now`'s, if it was made and is still kept; never made here. */
export async function previousClientHashKey(db: Database, now: Date): Promise<Buffer | undefined> {
  return readKey(db, utcDay(new Date(now.getTime() - DAY_MS)));
}

/** Deletes the keys of days before yesterday (UTC); the hourly job calls it. */
export async function pruneClientHashKeys(db: Database, now: Date): Promise<number> {
  const oldestKept = utcDay(new Date(now.getTime() - (CLIENT_HASH_KEY_DAYS - 1) * DAY_MS));
  const deleted = await db
    .delete(clientHashKeys)
    .where(lt(clientHashKeys.day, oldestKept))
    .returning({ day: clientHashKeys.day });
  return deleted.length;
}
