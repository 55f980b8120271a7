import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { idempotencyKeys } from '../../../../db/schema.ts';
import { AppError, badRequest, conflict } from '../../app/errors.ts';

/**
 * Idempotency-Key (api.md, POST /api/bookings): the same key twice gives the first result and
 * never does the work twice, even when both requests arrive together.
 *
 * How it holds under a race: the key row is inserted first, inside the same transaction as the
 * work. PostgreSQL makes a second INSERT of that key wait until the first transaction ends: if it
 * commits, the second finds the row (with the stored response) and replays it; if it rolls back
 * (validation failed, date full), the second inserts the key and does the work itself. Failed
 * attempts therefore leave no key behind and can be retried.
 *
 * What is kept is small on purpose (docs/SECURITY.md): the key's SHA-256, not the key (a booking's
 * checkout token is derived from the key); the request's SHA-256; the client's keyed hash; and a
 * response that callers keep to a reference (a booking's id), rebuilding the answer on replay, so
 * no address or token waits here in plain text and an erasure needs to reach only the booking.
 */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 200;

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible characters`,
  reusedKey: 'Idempotency-Key was already used with a different request',
  otherClient: 'Idempotency-Key was already used by another client. If you sent this booking before, check your e-mail for its confirmation.',
  inProgress: 'A request with this Idempotency-Key is still being processed. Please retry.',
  erased: 'This booking was erased at its owner\'s request.',
} as const;

/** The status an erased subject's keys answer with (services/privacy/personal-data-erasure.ts). */
export const ERASED_RESPONSE_STATUS = 410;

/** What the key column holds: the key's SHA-256. */
export function hashIdempotencyKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** The header's key, or undefined when absent; a malformed key is a 400, not silently ignored. */
export function readIdempotencyKey(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const key = header.trim();
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw badRequest(IDEMPOTENCY_MESSAGES.invalidKey);
  }
  return key;
}

/** A stable digest of the request: the same fields in another order are the same request. */
export function requestFingerprint(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, entry]) => entry !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, entry]) => `${JSON.stringify(key)}:${stableJson(entry)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface IdempotencyScope {
  /** What the key protects, e.g. 'create-booking': keys of different calls never collide. */
  scope: string;
  key: string;
}

export interface IdempotencyClaim extends IdempotencyScope {
  fingerprint: string;
  /**
   * clientKey() of the caller. The stored response can hold a secret (a booking's checkout
   * token), so a replay is answered only to the client that made the key; anyone else who
   * learns or guesses the key and the body gets 409, never the response.
   */
  client: string;
  /**
   * The same client's key under the previous day's secret (client-info.ts previousClientKey),
   * asked only when a stored key is not `client`: client keys change at midnight (UTC), and a
   * key made just before it is still the same client's.
   */
  previousClient?: (tx: Database) => Promise<string | undefined>;
}

export interface StoredResponse<Body = unknown> {
  status: number;
  body: Body;
}

export type KeyClaim<Body> = { claimed: true } | { claimed: false; response: StoredResponse<Body> };

/**
 * Inside the work's transaction, before the work: claims the key for this request, or returns
 * the response stored by the request that claimed it first.
 */
export async function claimIdempotencyKey<Body>(
  tx: Database,
  { scope, key, fingerprint, client, previousClient }: IdempotencyClaim,
): Promise<KeyClaim<Body>> {
  const storedKey = hashIdempotencyKey(key);
  const inserted = await tx
    .insert(idempotencyKeys)
    .values({ scope, key: storedKey, requestHash: fingerprint, clientKey: client })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return { claimed: true };

  // The INSERT above waited for the first request's transaction; its row is committed now.
  const [row] = await tx
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, storedKey)));
  // Checked first: another client learns nothing, not even whether its body matched.
  if (row && row.clientKey !== client && (!previousClient || row.clientKey !== (await previousClient(tx)))) {
    throw conflict(IDEMPOTENCY_MESSAGES.otherClient);
  }
  if (row && row.responseStatus === ERASED_RESPONSE_STATUS) throw new AppError(410, IDEMPOTENCY_MESSAGES.erased);
  if (row && row.requestHash !== fingerprint) throw conflict(IDEMPOTENCY_MESSAGES.reusedKey);
  if (!row || row.responseStatus === null) {
    // Not reachable while every claim stores its response in the same transaction; kept so a
    // future caller that commits early gets a clear answer instead of a duplicate.
    throw new AppError(409, IDEMPOTENCY_MESSAGES.inProgress, undefined, { 'Retry-After': '1' });
  }
  return { claimed: false, response: { status: row.responseStatus, body: row.responseBody as Body } };
}

/** Stores the response a replay of the key will get, in the same transaction as the work. */
export async function saveIdempotentResponse(
  tx: Database,
  { scope, key }: IdempotencyScope,
  response: StoredResponse,
): Promise<void> {
  await idempotentResponseUpdate(tx, { scope, key }, response);
}

/** saveIdempotentResponse's UPDATE, not yet run, for a caller that combines it with other writes. */
export function idempotentResponseUpdate(tx: Database, { scope, key }: IdempotencyScope, response: StoredResponse) {
  return tx
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseBody: response.body })
    .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, hashIdempotencyKey(key))));
}
