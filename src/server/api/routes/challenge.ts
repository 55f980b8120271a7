import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { validate } from '../middleware/body.ts';
import { peekRateLimit, rateLimit } from '../../services/limits/rate-limit.ts';
import { CHALLENGE_PURPOSES, issueChallenge } from '../../services/limits/challenge.ts';
import { ceilingPressure } from '../../services/limits/site-ceilings.ts';
import { LOGIN_LIMITS } from '../../services/staff/sign-in-limits.ts';

// Making a challenge costs the server a hash and an HMAC; a page asks for one at most per submit.
const CHALLENGE_LIMIT = { name: 'challenge', limit: 120, windowSeconds: 10 * 60 };

export const INVALID_PURPOSE = `for must be one of ${CHALLENGE_PURPOSES.join(', ')}.`;
const querySchema = z.object({ for: z.enum(CHALLENGE_PURPOSES, { error: INVALID_PURPOSE }) });

/**
 * GET /api/challenge?for=<ceiling> (api.md "Abuse and availability"): a fresh proof-of-work
 * challenge at any time, for one ceiling, at the cost that ceiling's pressure sets now (the
 * price a 428 would name), so asking here is never cheaper than being asked.
 */
export const challengeRoutes = new Hono<AppEnv>().get('/', rateLimit(CHALLENGE_LIMIT), async (c) => {
  const deps = c.get('deps');
  const purpose = validate(querySchema, { for: c.req.query('for') }).for;
  const pressure =
    purpose === 'sign-in'
      ? (await peekRateLimit(deps.db, LOGIN_LIMITS.overall, 'all', deps.now())) / LOGIN_LIMITS.overall.limit
      : await ceilingPressure(deps, purpose);
  return c.json(await issueChallenge(deps, purpose, pressure), 200, { 'Cache-Control': 'no-store' });
});
