import { createHmac, randomInt } from 'node:crypto';
import type { Challenge, Payload } from 'altcha-lib';
import { lt } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { usedChallenges } from '../../../../db/schema.ts';
import type { AppDeps } from '../../app/deps.ts';
import { currentClientHashKey, previousClientHashKey } from './client-hash-keys.ts';

/**
 * The proof-of-work a request past a site-wide ceiling carries (api.md "Abuse and availability"):
 * ALTCHA's v2 challenge, created and checked here, solved in the browser by a web worker
 * (src/islands/shared/challenge-worker.ts). Nothing leaves the site: no cookie, no third party.
 *
 * The server picks a secret counter below CHALLENGE_MAX_NUMBER; the browser finds it by trying
 * counters from 0 until the key's prefix matches, each try `cost` PBKDF2-SHA-256 iterations: on
 * average CHALLENGE_MAX_NUMBER / 2 tries (docs/SECURITY.md has the measured price). Checking a
 * solution costs one HMAC (the key's signature), so a flood of wrong answers costs the server
 * almost nothing. The signing secrets come from the day's client-hash key (client-hash-keys.ts):
 * no setting to leak or forget, and a challenge made just before midnight (UTC) is still checked
 * with yesterday's.
 */
export const CHALLENGE_HEADER = 'X-Altcha';

/**
 * What a challenge is for (api.md "Work that costs what it says"): the ceiling it was issued for,
 * signed into it, so a solution bought for one form opens no other.
 */
export const CHALLENGE_PURPOSES = ['bookings', 'enquiries', 'uploads', 'tracking', 'sign-in'] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

/** The work doubles with each further multiple of the ceiling, up to this many times the base. */
export const MAX_COST_FACTOR = 2;

/** How many times the base work a challenge costs at `pressure` (1 at the ceiling). */
export const costFactor = (pressure: number) => Math.min(MAX_COST_FACTOR, 2 ** Math.max(0, Math.floor(pressure) - 1));

/** How long a challenge may be solved and used: a slow phone, a form left open a while. */
export const CHALLENGE_TTL_SECONDS = 10 * 60;

/** The 428's message; the forms show "Checking…" instead while they solve it. */
export const CHALLENGE_REQUIRED = 'We are busier than usual. Please let your browser finish a short check, then try again.';

/**
 * PBKDF2 with SHA-256, so that a browser does the work natively: WebCrypto runs a try's
 * CHALLENGE_ITERATIONS in one call, where plain SHA-256 made it pay one slow call per hash, 400
 * times the native price an attacker pays (docs/SECURITY.md "Known limits" has the measurements,
 * and why not scrypt or Argon2id).
 */
const ALGORITHM = 'PBKDF2/SHA-256';
/** PBKDF2 iterations per counter tried, at the base price (times costFactor under pressure). */
export const CHALLENGE_ITERATIONS = 1000;

/**
 * altcha-lib, loaded by the first request that needs a challenge: a ceiling is rarely passed, so
 * a cold start neither parses nor runs it (a dynamic import, as for Stripe's library; Netlify
 * ships it as files beside the function).
 */
let altchaLibrary: Promise<{ lib: typeof import('altcha-lib'); deriveKey: typeof import('altcha-lib/algorithms/pbkdf2').deriveKey }> | undefined;
const loadAltcha = () =>
  (altchaLibrary ??= Promise.all([import('altcha-lib'), import('altcha-lib/algorithms/pbkdf2')]).then(([lib, pbkdf2]) => ({ lib, deriveKey: pbkdf2.deriveKey })));

interface Secrets {
  signature: string;
  keySignature: string;
}

function secretsFrom(dayKey: Buffer): Secrets {
  const derive = (purpose: string) => createHmac('sha256', dayKey).update(`altcha:${purpose}`).digest('base64url');
  return { signature: derive('challenge'), keySignature: derive('key') };
}

/**
 * A fresh challenge for `purpose`; its purpose and expiry travel signed in `data`, the expiry
 * checked against the app's own clock (deps.now), not the library's. `pressure` is how many times
 * over its ceiling the site is (1 at the ceiling): the work doubles with each further multiple,
 * up to MAX_COST_FACTOR times the base.
 */
export async function issueChallenge(deps: Pick<AppDeps, 'db' | 'env' | 'now'>, purpose: ChallengePurpose, pressure = 1): Promise<Challenge> {
  const now = deps.now();
  const secrets = secretsFrom(await currentClientHashKey(deps.db, now));
  const { lib, deriveKey } = await loadAltcha();
  return lib.createChallenge({
    algorithm: ALGORITHM,
    // The price shows in the challenge itself: each counter tried costs `cost` PBKDF2 iterations.
    cost: CHALLENGE_ITERATIONS * costFactor(pressure),
    counter: randomInt(0, deps.env.CHALLENGE_MAX_NUMBER),
    deriveKey,
    data: { expires: Math.floor(now.getTime() / 1000) + CHALLENGE_TTL_SECONDS, purpose },
    hmacSignatureSecret: secrets.signature,
    hmacKeySignatureSecret: secrets.keySignature,
  });
}

/** The X-Altcha header's payload, or null for anything that is not one. */
export function readChallengePayload(header: string | undefined): Payload | null {
  if (!header || header.length > 4096) return null;
  try {
    const payload = JSON.parse(Buffer.from(header, 'base64').toString('utf8')) as Payload;
    if (typeof payload?.challenge?.signature !== 'string' || typeof payload.challenge.parameters !== 'object') return null;
    if (typeof payload.solution !== 'object' || payload.solution === null) return null;
    return payload;
  } catch {
    return null;
  }
}

/**
 * Whether the header carries a solved challenge of ours, issued for `purpose`, that has not
 * expired and was never used before; using it spends it (one row in used_challenges), so a
 * replayed solution is refused.
 */
export async function spendSolvedChallenge(deps: Pick<AppDeps, 'db' | 'now'>, header: string | undefined, purpose: ChallengePurpose): Promise<boolean> {
  const payload = readChallengePayload(header);
  if (!payload || payload.challenge.parameters.data?.purpose !== purpose) return false;
  const now = deps.now();
  const expires = Number(payload.challenge.parameters.data?.expires);
  if (!Number.isFinite(expires) || expires * 1000 < now.getTime()) return false;
  const keys = [await currentClientHashKey(deps.db, now), await previousClientHashKey(deps.db, now)].filter((key): key is Buffer => Boolean(key));
  let verified = false;
  const { lib, deriveKey } = await loadAltcha();
  for (const key of keys) {
    const secrets = secretsFrom(key);
    const result = await lib.verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: secrets.signature,
      hmacKeySignatureSecret: secrets.keySignature,
    }).catch(() => ({ verified: false }));
    if (result.verified) {
      verified = true;
      break;
    }
  }
  if (!verified) return false;
  const spent = await deps.db
    .insert(usedChallenges)
    .values({ signature: payload.challenge.signature!, expiresAt: new Date(expires * 1000) })
    .onConflictDoNothing()
    .returning({ signature: usedChallenges.signature });
  return spent.length === 1;
}

/** Spent challenges are useless once expired; the hourly job calls this. */
export async function pruneUsedChallenges(db: Database, now: Date): Promise<number> {
  const deleted = await db.delete(usedChallenges).where(lt(usedChallenges.expiresAt, now)).returning({ signature: usedChallenges.signature });
  return deleted.length;
}
