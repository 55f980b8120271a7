import type { MiddlewareHandler, Context } from 'hono';
import { and, eq, gt, lt, max, sql } from 'drizzle-orm';
import type { Database } from '../../../db/client.ts';
import { rateLimits } from '../../../db/schema.ts';
import { AppError } from '../api/errors.ts';
import type { AppEnv } from '../api/deps.ts';
import { clientKey } from './client-info.ts';

export interface RateLimitRule {
  /** Names the counter, e.g. 'pageview' or 'admin-login'. */
  name: string;
  limit: number;
  windowSeconds: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  retryAfterSeconds: number;
}

/**
 * A fixed-window counter in the database: one atomic upsert per request, so every function
 * instance (they share no memory) sees the same count.
 */
export async function consumeRateLimit(
  db: Database,
  rule: RateLimitRule,
  subject: string,
  now: Date,
): Promise<RateLimitResult> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .insert(rateLimits)
    .values({ key: `${rule.name}:${subject}`, windowStart, count: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { count: sql`${rateLimits.count} + 1` },
    })
    .returning({ count: rateLimits.count });
  const count = row?.count ?? 1;
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count <= rule.limit, count, retryAfterSeconds };
}

/**
 * The current window's count without adding to it, for counters that only some outcomes feed
 * (sign-in failures): check with this first, and call consumeRateLimit only on a failure.
 * `allowed` says whether one more attempt may be made.
 */
export async function peekRateLimit(
  db: Database,
  rule: RateLimitRule,
  subject: string,
  now: Date,
): Promise<RateLimitResult> {
  const windowMs = rule.windowSeconds * 1000;
  const windowStart = new Date(Math.floor(now.getTime() / windowMs) * windowMs);
  const [row] = await db
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, `${rule.name}:${subject}`), eq(rateLimits.windowStart, windowStart)));
  const count = row?.count ?? 0;
  const retryAfterSeconds = Math.max(1, Math.ceil((windowStart.getTime() + windowMs - now.getTime()) / 1000));
  return { allowed: count < rule.limit, count, retryAfterSeconds };
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

/** Route middleware: 429 with Retry-After once a client passes the rule's limit. */
export function rateLimit(
  rule: RateLimitRule,
  subject: (c: Context<AppEnv>) => string = clientKey,
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { db, now } = c.get('deps');
    const result = await consumeRateLimit(db, rule, subject(c), now());
    if (!result.allowed) {
      throw new AppError(429, 'Too many requests. Please wait a moment and try again.', undefined, {
        'Retry-After': String(result.retryAfterSeconds),
      });
    }
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
