import type { MiddlewareHandler, Context } from 'hono';
import { lt, sql } from 'drizzle-orm';
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
