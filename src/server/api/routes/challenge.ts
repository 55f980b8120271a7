import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { issueChallenge } from '../../services/limits/challenge.ts';

// Making a challenge costs the server a hash and an HMAC; a page asks for one at most per submit.
const CHALLENGE_LIMIT = { name: 'challenge', limit: 120, windowSeconds: 10 * 60 };

/** GET /api/challenge (api.md "Abuse and availability"): a fresh proof-of-work challenge at any time. */
export const challengeRoutes = new Hono<AppEnv>().get('/', rateLimit(CHALLENGE_LIMIT), async (c) =>
  c.json(await issueChallenge(c.get('deps')), 200, { 'Cache-Control': 'no-store' }),
);
