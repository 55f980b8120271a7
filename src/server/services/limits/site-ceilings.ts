import type { Context } from 'hono';
import type { AppDeps } from '../../app/deps.ts';
import type { AppEnv } from '../../app/request.ts';
import { AppError } from '../../app/errors.ts';
import type { Env } from '../../env.ts';
import { CHALLENGE_HEADER, CHALLENGE_REQUIRED, issueChallenge, spendSolvedChallenge, type ChallengePurpose } from './challenge.ts';
import { consumeRateLimit, peekRateLimit, refundRateLimit, type RateLimitRule } from './rate-limit.ts';

/**
 * The site-wide ceilings and the settings that hold their numbers (env.ts, with the reasons).
 * Each is one counter for the whole site over a sliding hour.
 */
export const SITE_CEILINGS = {
  bookings: 'SITE_MAX_BOOKINGS_PER_HOUR',
  enquiries: 'SITE_MAX_ENQUIRIES_PER_HOUR',
  uploads: 'SITE_MAX_UPLOADS_PER_HOUR',
  tracking: 'SITE_MAX_TRACKING_LOOKUPS_PER_HOUR',
} as const satisfies Record<string, keyof Env>;

export type SiteCeiling = keyof typeof SITE_CEILINGS;

export const siteCeilingRule = (name: SiteCeiling, env: Env): RateLimitRule => ({
  name: `site-${name}`,
  limit: env[SITE_CEILINGS[name]],
  windowSeconds: 60 * 60,
});

/**
 * Answers that refuse a request for what it is (api.md "Abuse and availability": 400, 404, 409,
 * 413, 415) and a client's own 429 (its upload share, its unpaid holds): none of them did the
 * work a ceiling meters, so none of them spends the site's room. Otherwise a few addresses sending
 * bookings for a full date, or wrong tracking guesses, would shut the form for everyone.
 */
const REFUSALS = new Set([400, 404, 409, 413, 415, 429]);

export const isRefusal = (error: unknown): boolean => error instanceof AppError && REFUSALS.has(error.status);

/** 428 with a fresh proof-of-work challenge for `purpose` (api.md): the forms solve it and send again. */
export const challengeRequired = async (deps: Pick<AppDeps, 'db' | 'env' | 'now'>, purpose: ChallengePurpose, pressure = 1) =>
  new AppError(428, CHALLENGE_REQUIRED, undefined, { 'Cache-Control': 'no-store' }, { challenge: await issueChallenge(deps, purpose, pressure) });

/** How many times over its ceiling the site is now (GET /api/challenge prices by it). */
export async function ceilingPressure(deps: Pick<AppDeps, 'db' | 'env' | 'now'>, name: SiteCeiling): Promise<number> {
  const rule = siteCeilingRule(name, deps.env);
  return (await peekRateLimit(deps.db, rule, 'all', deps.now())) / rule.limit;
}

export interface CeilingAdmission {
  /** Takes the request's count back when the work turned out to be a refusal. */
  giveBack(): Promise<void>;
}

export interface CeilingOptions {
  /**
   * The request pays in work even under the ceiling: a fresh client past the site's upload
   * quota (upload-quota.ts). One solution covers both.
   */
  mustPay?: boolean;
}

/**
 * The site-wide ceiling, called by a handler once the request has passed its own checks and is
 * about to do the work the ceiling meters. The per-client limit stops one address; this slows
 * many. Under the ceiling the request is counted and goes on. Past it, a ceiling never refuses
 * outright (that would let strangers switch the form off for customers): the request must carry
 * a solved, unused proof-of-work challenge issued for this ceiling in X-Altcha, or it gets 428
 * with one to solve. A request admitted with a solution is counted like any other, so the
 * pressure, and with it the work (challenge.ts costFactor), rises while solved requests keep
 * coming; a 428 is not counted, so the ceiling reopens as the hour slides.
 */
export async function admitToSiteCeiling(
  deps: Pick<AppDeps, 'db' | 'env' | 'now'>,
  name: SiteCeiling,
  solvedChallenge: string | undefined,
  { mustPay = false }: CeilingOptions = {},
): Promise<CeilingAdmission> {
  const rule = siteCeilingRule(name, deps.env);
  const now = deps.now();
  const result = await consumeRateLimit(deps.db, rule, 'all', now);
  const giveBack = () => refundRateLimit(deps.db, rule, 'all', now);
  if (result.allowed && !mustPay) return { giveBack };
  if (await spendSolvedChallenge(deps, solvedChallenge, name)) return { giveBack };
  await giveBack();
  throw await challengeRequired(deps, name, result.estimate / rule.limit);
}

/**
 * Runs `work` under the named ceiling: admitted first, and given back when the work ends in a
 * refusal (isRefusal), so only requests that did the work count toward the ceiling.
 */
export async function withinSiteCeiling<T>(c: Context<AppEnv>, name: SiteCeiling, work: () => Promise<T>, options?: CeilingOptions): Promise<T> {
  const admission = await admitToSiteCeiling(c.get('deps'), name, c.req.header(CHALLENGE_HEADER), options);
  try {
    return await work();
  } catch (error) {
    if (isRefusal(error)) await admission.giveBack();
    throw error;
  }
}
