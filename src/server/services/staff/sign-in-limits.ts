import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import type { AppEnv } from '../../app/request.ts';
import { AppError } from '../../app/errors.ts';
import { admitAttempt, consumeRateLimit, refundRateLimit } from '../limits/rate-limit.ts';
import { CHALLENGE_HEADER, spendSolvedChallenge } from '../limits/challenge.ts';
import { challengeRequired } from '../limits/site-ceilings.ts';
import { isKnownDevice } from './known-devices.ts';

/**
 * Password sign-in attempts, counted in the database (functions share no memory) BEFORE the
 * password is checked, in one atomic statement per counter: a burst of parallel guesses each takes
 * its own number, so the eleventh is refused even while the first ten are still being checked (and
 * never costs an scrypt). A success gives its attempts back, so a person signing in often never
 * locks themself out. With the second factor on, the same counters gate code guesses.
 *
 * The per-client counter is a wall. The per-account one slows guessing one person's password from
 * many addresses. The site-wide one is not a wall: a wall there would let strangers lock everyone
 * out. When the whole site sees more attempts than `overall.limit`, each client's allowance drops
 * to `perClientUnderPressure` instead, and an unknown browser must carry a solved proof-of-work
 * challenge (428 otherwise), so guessing from many addresses slows to a crawl. None of these apply
 * to passkeys (passkeys.ts), and a browser that signed in before as the same person
 * (known-devices.ts) passes the account and site-wide counters for the password and is asked no
 * challenge, so a flood of wrong passwords never locks the real person out (api.md "Abuse and
 * availability"); codes tried after a right password have a counter of their own per account,
 * which no device lifts.
 */
export const LOGIN_LIMITS = {
  perClient: { name: 'admin-login', limit: 10, windowSeconds: 15 * 60 },
  perClientUnderPressure: 3,
  perAccount: { name: 'admin-login-account', limit: 10, windowSeconds: 15 * 60 },
  overall: { name: 'admin-login-all', limit: 100, windowSeconds: 15 * 60 },
  /**
   * Codes tried for one account after its right password, from any browser (a known device
   * included): only someone holding the password reaches it, so strangers cannot fill it.
   */
  codeGuesses: { name: 'admin-login-code', limit: 10, windowSeconds: 15 * 60 },
} as const;

export const TOO_MANY_SIGN_INS = 'Too many sign-in attempts. Please wait and try again.';

/** The account counter's key: the e-mail's digest, so the table holds no address. */
const accountKey = (email: string) => createHash('sha256').update(email, 'utf8').digest('hex').slice(0, 32);

const tooMany = (retryAfterSeconds: number) => new AppError(429, TOO_MANY_SIGN_INS, undefined, { 'Retry-After': String(retryAfterSeconds) });

export interface SignInAttempt {
  /** Whether this browser signed in as this account before (known-devices.ts). */
  known: boolean;
  /**
   * Counts a code tried after the right password; 429 past LOGIN_LIMITS.codeGuesses. A known
   * device lifts the password's limits, never this one.
   */
  admitCodeGuess(): Promise<void>;
  /** Gives the attempt back after a success. */
  succeeded(): Promise<void>;
}

/**
 * Admits one password attempt for `email` (the account `userId`, when there is one) from
 * `client`, or throws 429 with Retry-After (428 with a challenge under site-wide pressure).
 */
export async function admitSignIn(c: Context<AppEnv>, client: string, email: string, userId: number | undefined): Promise<SignInAttempt> {
  const deps = c.get('deps');
  const { db } = deps;
  const now = deps.now();
  const known = await isKnownDevice(c, userId);
  const account = accountKey(email);
  const everyone = known ? { allowed: true, estimate: 0 } : await consumeRateLimit(db, LOGIN_LIMITS.overall, 'all', now);
  // Past the site-wide ceiling a stranger's browser pays in work; a paid attempt stays counted,
  // so the price rises with the pressure.
  if (!everyone.allowed && !(await spendSolvedChallenge(deps, c.req.header(CHALLENGE_HEADER), 'sign-in'))) {
    await refundRateLimit(db, LOGIN_LIMITS.overall, 'all', now);
    throw await challengeRequired(deps, 'sign-in', everyone.estimate / LOGIN_LIMITS.overall.limit);
  }
  const allowance = everyone.allowed ? LOGIN_LIMITS.perClient.limit : LOGIN_LIMITS.perClientUnderPressure;
  const mine = await admitAttempt(db, LOGIN_LIMITS.perClient, client, now, allowance);
  const theirs = mine.allowed && !known ? await admitAttempt(db, LOGIN_LIMITS.perAccount, account, now) : null;
  const refused = !mine.allowed ? mine : theirs && !theirs.allowed ? theirs : null;
  if (refused) {
    // A refused attempt is not a guess: it leaves the other counters as they were.
    if (!known) await refundRateLimit(db, LOGIN_LIMITS.overall, 'all', now);
    if (mine.allowed) await refundRateLimit(db, LOGIN_LIMITS.perClient, client, now);
    throw tooMany(refused.retryAfterSeconds);
  }
  let codeCounted = false;
  return {
    known,
    async admitCodeGuess() {
      const guess = await admitAttempt(db, LOGIN_LIMITS.codeGuesses, account, now);
      if (!guess.allowed) throw tooMany(guess.retryAfterSeconds);
      codeCounted = true;
    },
    async succeeded() {
      await Promise.all([
        refundRateLimit(db, LOGIN_LIMITS.perClient, client, now),
        known ? null : refundRateLimit(db, LOGIN_LIMITS.overall, 'all', now),
        known ? null : refundRateLimit(db, LOGIN_LIMITS.perAccount, account, now),
        codeCounted ? refundRateLimit(db, LOGIN_LIMITS.codeGuesses, account, now) : null,
      ]);
    },
  };
}
