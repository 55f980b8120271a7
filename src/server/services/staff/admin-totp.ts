import { lt } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../../../db/client.ts';
import { adminTotpUses } from '../../../../db/schema.ts';

/**
 * The optional second sign-in factor: RFC 6238 codes (6 digits, 30-second steps, SHA-1, as every
 * authenticator app expects), accepted one step either side of the server's clock for drift.
 * The arithmetic is otpauth's; this module adds only the "each code once" rule.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_WINDOW_STEPS = 1;
export const TOTP_ISSUER = 'CleanPatch';
export const TOTP_LABEL = 'admin';

export function adminTotp(secretBase32: string, label: string = TOTP_LABEL): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    algorithm: 'SHA1',
    digits: 6,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** True when the value decodes as a base32 secret long enough to be one (at least 80 bits). */
export function isTotpSecret(value: string): boolean {
  try {
    return Secret.fromBase32(value).bytes.length >= 10;
  } catch {
    return false;
  }
}

/** A new random secret (160 bits, RFC 4226's recommendation) and the URI authenticator apps scan. */
export function newTotpSecret(label: string = TOTP_LABEL): { secret: string; uri: string } {
  const secret = new Secret({ size: 20 }).base32;
  return { secret, uri: adminTotp(secret, label).toString() };
}

/**
 * The time step a code belongs to when it is right at `now`, or null. Pure arithmetic: sign-in
 * runs it for every attempt, right password or not, so the answer's timing does not tell them apart.
 */
export function totpStepOf(secretBase32: string, code: string, now: Date): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const timestamp = now.getTime();
  const delta = adminTotp(secretBase32).validate({ token: code, timestamp, window: TOTP_WINDOW_STEPS });
  if (delta === null) return null;
  return Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta;
}

/**
 * Claims a right code's time step for a person in the database. A second use of the same step
 * fails, on any function instance, because (person, step) is the table's key.
 */
export async function claimTotpStep(db: Database, userId: number, step: number, now: Date): Promise<boolean> {
  const claimed = await db
    .insert(adminTotpUses)
    .values({ userId, step, usedAt: now })
    .onConflictDoNothing()
    .returning({ step: adminTotpUses.step });
  return claimed.length === 1;
}

/** For the hourly job: steps older than the accepted window can never be presented again. */
export async function pruneTotpUses(db: Database, now: Date): Promise<number> {
  const oldestLiveStep = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_SECONDS) - TOTP_WINDOW_STEPS - 1;
  const deleted = await db.delete(adminTotpUses).where(lt(adminTotpUses.step, oldestLiveStep)).returning({ step: adminTotpUses.step });
  return deleted.length;
}
