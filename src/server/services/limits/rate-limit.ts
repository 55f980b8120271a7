import type { MiddlewareHandler, Context } from 'hono';
import { and, eq, gt, inArray, lt, max, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { rateLimits } from '../../../../db/schema.ts';
import { AppError } from '../../app/errors.ts';
import type { AppEnv } from '../../app/request.ts';
import { clientKey } from './client-info.ts';

/**
 * Added to the RETURNING list of a counter's statement, which is always its own transaction
 * (called with the app's database, never inside a caller's transaction): its commit does not
 * wait for the write-ahead log to reach the disk. A counter is the first statement of most
 * requests, and on this project's PostgreSQL that wait (an fdatasync) is 0.7 of a 0.8 ms upsert.
 * What a crash of the database can then lose is its last fraction of a second of counts: a few
 * more requests for a client or for the site, never a booking, a payment or an e-mail's state.
 * `true`: the setting ends with the statement's transaction, so no later statement inherits it.
 */
const COMMIT_WITHOUT_WAITING_FOR_DISK = sql<string>`set_config('synchronous_commit', 'off', true)`;

export interface RateLimitRule {
  /** Names the counter, e.g. 'pageview' or 'admin-login'. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** The sliding estimate of requests in the last window, this one included. */
  estimate: number;
  retryAfterSeconds: number;
}

/**
 * A sliding window, estimated from two fixed-window counters in the database: the current
 * window's count plus the previous window's, weighted by how much of it still lies inside the
 * last `windowSeconds`. Plain fixed windows let a client spend its limit just before a boundary
 * and again just after it (40 bookings in two seconds on a 20-an-hour rule); the estimate does not.
 *
 * One atomic statement: an upsert that counts this request (every function instance sees the
 * same count, as they share no memory) and returns, beside the new count, the previous (already
 * closed) window's.
 * Refused requests count too, so a client that keeps hammering stays refused.
 */
export async function consumeRateLimit(
  db: Database,
  rule: RateLimitRule,
  subject: string,
  now: Date,
): Promise<RateLimitResult> {
  const window = windowAt(rule, now);
  const key = `${rule.name}:${subject}`;
  const counts = await countSlidingHit(db, key, window);
  const estimate = slidingEstimate(counts);
  return {
    allowed: estimate <= rule.limit,
    count: counts.current,
    estimate,
    retryAfterSeconds: retryAfter(counts, rule),
  };
}

interface WindowPosition {
  start: Date;
  previousStart: Date;
  /** How far into the window `now` is, from 0 to 1. */
  elapsed: number;
}

function windowAt(rule: RateLimitRule, now: Date): WindowPosition {
  const windowMs = rule.windowSeconds * 1000;
  const start = Math.floor(now.getTime() / windowMs) * windowMs;
  return {
    start: new Date(start),
    previousStart: new Date(start - windowMs),
    elapsed: (now.getTime() - start) / windowMs,
  };
}


/** Whole seconds (at least 1) until one more request would be allowed. */
function retryAfter(counts: WindowCounts, rule: RateLimitRule): number {
  const windows = windowsUntilNextAllowed({ ...counts, limit: rule.limit });
  // Rounded to the millisecond first, so float noise (1 − 0.9 = 0.0999…98) cannot add a second.
  const milliseconds = Math.round(windows * rule.windowSeconds * 1000);
  return Math.max(1, Math.ceil(milliseconds / 1000));
}

/**
 * A plain fixed window, for meters that are fixed windows themselves: a provider that allows N
 * calls "per second" counts whole seconds, and a sliding estimate would halve what it allows.
 */
export async function consumeFixedWindow(
  db: Database,
  rule: RateLimitRule,
  subject: string,
  now: Date,
): Promise<RateLimitResult> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const count = await countHit(db, `${rule.name}:${subject}`, windowStart);
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count <= rule.limit, count, estimate: count, retryAfterSeconds };
}

async function countHit(db: Database, key: string, windowStart: Date): Promise<number> {
  const [row] = await countHitQuery(db, key, windowStart).returning({ count: rateLimits.count, asyncCommit: COMMIT_WITHOUT_WAITING_FOR_DISK });
  return row?.count ?? 1;
}

/**
 * One atomic statement: counts this hit in the current window and reads the previous (already
 * closed) window's count beside it.
 */
async function countSlidingHit(db: Database, key: string, window: WindowPosition): Promise<WindowCounts> {
  const [row] = await countHitQuery(db, key, window.start).returning({
    count: rateLimits.count,
    previous: sql<number | null>`(select previous.count from ${rateLimits} as previous
      where previous.key = ${key} and previous.window_start = ${window.previousStart.toISOString()}::timestamptz)`,
    asyncCommit: COMMIT_WITHOUT_WAITING_FOR_DISK,
  });
  return { previous: Number(row?.previous ?? 0), current: row?.count ?? 1, elapsed: window.elapsed };
}

function countHitQuery(db: Database, key: string, windowStart: Date) {
  return db
    .insert(rateLimits)
    .values({ key, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    });
}

interface WindowCounts {
  /** Requests counted in the previous fixed window. */
  previous: number;
  /** Requests counted in the current fixed window, this one included. */
  current: number;
  /** How far into the current window `now` is, from 0 to 1. */
  elapsed: number;
}

/** Requests in the last full window, assuming the previous window's were spread evenly. */
export function slidingEstimate({ previous, current, elapsed }: WindowCounts): number {
  return previous * (1 - elapsed) + current;
}

/**
 * How many windows (a fraction) from now until one more request would be allowed, if no other
 * request comes: the previous window's weight fades through the current one, then the current
 * window becomes the previous one and fades in turn.
 */
export function windowsUntilNextAllowed({ previous, current, elapsed, limit }: WindowCounts & { limit: number }): number {
  const room = limit - current - 1;
  if (room >= 0) {
    if (previous <= room) return 0;
    // previous × (1 − t) ≤ room
    const t = 1 - room / previous;
    if (t < 1) return Math.max(0, t - elapsed);
  }
  // In the next window: current × (1 − t) + 1 ≤ limit
  const t = current <= limit - 1 ? 0 : 1 - (limit - 1) / current;
  return 1 - elapsed + t;
}

/**
 * The sliding estimate of a counter at `now`, without counting anything (GET /api/challenge
 * prices its challenge by it).
 */
export async function peekRateLimit(db: Database, rule: RateLimitRule, subject: string, now: Date): Promise<number> {
  const window = windowAt(rule, now);
  const key = `${rule.name}:${subject}`;
  const rows = await db
    .select({ windowStart: rateLimits.windowStart, count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), inArray(rateLimits.windowStart, [window.start, window.previousStart])));
  const countAt = (start: Date) => rows.find((row) => new Date(row.windowStart).getTime() === start.getTime())?.count ?? 0;
  return slidingEstimate({ previous: countAt(window.previousStart), current: countAt(window.start), elapsed: window.elapsed });
}

/**
 * Counts an attempt that only admitted attempts should spend (sign-in): one atomic count, so a
 * burst of parallel attempts each gets its own number and those past `allowance` (the rule's
 * limit unless given) are refused, then given back at once, so hammering a closed door does
 * not keep it closed longer than the admitted attempts did.
 */
export async function admitAttempt(
  db: Database,
  rule: RateLimitRule,
  subject: string,
  now: Date,
  allowance: number = rule.limit,
): Promise<RateLimitResult> {
  const window = windowAt(rule, now);
  const key = `${rule.name}:${subject}`;
  const counts = await countSlidingHit(db, key, window);
  const estimate = slidingEstimate(counts);
  if (estimate <= allowance) return { allowed: true, count: counts.current, estimate, retryAfterSeconds: 0 };
  await refundRateLimit(db, rule, subject, now);
  const kept = { ...counts, current: counts.current - 1 };
  return { allowed: false, count: kept.current, estimate, retryAfterSeconds: retryAfter(kept, { ...rule, limit: allowance }) };
}

/**
 * Takes back one hit counted at `now` by consumeRateLimit, for counters that only some outcomes
 * should keep (sign-in counts every attempt before checking it, then gives a success back).
 */
export async function refundRateLimit(db: Database, rule: RateLimitRule, subject: string, now: Date): Promise<void> {
  const window = windowAt(rule, now);
  await db
    .update(rateLimits)
    .set({ count: sql`greatest(${rateLimits.count} - 1, 0)` })
    .where(and(eq(rateLimits.key, `${rule.name}:${subject}`), eq(rateLimits.windowStart, window.start)))
    .returning({ asyncCommit: COMMIT_WITHOUT_WAITING_FOR_DISK });
}

/**
 * A pause every function instance sees, such as "stop asking a provider that just failed".
 * It lives in rate_limits as a row keyed `pause:{name}` whose window starts when the pause
 * does, so the hourly prune clears it like any old window.
 */
export interface Pause {
  name: string;
  seconds: number;
}

/** Starts (or restarts) the pause at `now`. */
export async function startPause(db: Database, pause: Pause, now: Date): Promise<void> {
  await db
    .insert(rateLimits)
    .values({ key: `pause:${pause.name}`, windowStart: now, count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } });
}

/** Whole seconds left of the pause at `now`; 0 when it is not on. */
export async function pauseSecondsLeft(db: Database, pause: Pause, now: Date): Promise<number> {
  const windowMs = pause.seconds * 1000;
  const [row] = await db
    .select({ startedAt: max(rateLimits.windowStart) })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, `pause:${pause.name}`), gt(rateLimits.windowStart, new Date(now.getTime() - windowMs))));
  if (!row?.startedAt) return 0;
  return Math.max(0, Math.ceil((new Date(row.startedAt).getTime() + windowMs - now.getTime()) / 1000));
}

/** The answer to a request past a rate limit or a site-wide ceiling (api.md: 429 with Retry-After). */
export const TOO_MANY_REQUESTS = 'Too many requests. Please wait a moment and try again.';

export const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, TOO_MANY_REQUESTS, undefined, { 'Retry-After': String(retryAfterSeconds) });

/** Route middleware: 429 with Retry-After once a client passes the rule's limit. */
export function rateLimit(
  rule: RateLimitRule,
  subject: (c: Context<AppEnv>) => string | Promise<string> = clientKey,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { db, now } = c.get('deps');
    const result = await consumeRateLimit(db, rule, await subject(c), now());
    if (!result.allowed) throw tooManyRequests(result.retryAfterSeconds);
    return next();
  };
}

/** Old windows are useless; the scheduled job calls this to keep the table small. */
export async function pruneRateLimits(db: Database, before: Date): Promise<number> {
  const deleted = await db
    .delete(rateLimits)
    .where(lt(rateLimits.windowStart, before))
    .returning({ key: rateLimits.key });
  return deleted.length;
}
