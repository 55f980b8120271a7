import { and, eq, gt, lt } from 'drizzle-orm';
import type { AuthenticationResponseJSON, AuthenticatorTransport, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { Database } from '../../../../db/client.ts';
import { staffPasskeys, webauthnChallenges } from '../../../../db/schema.ts';
import { BUSINESS } from '../../../content/business.ts';
import { AppError } from '../../app/errors.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { ACCOUNT_DEACTIVATED, findUser, type StaffUserRow } from './staff-users.ts';

/**
 * Passkeys (WebAuthn, discoverable credentials) for staff sign-in, through @simplewebauthn/server.
 * The relying party is the site's host (SITE_URL), so a passkey made for it works nowhere else.
 * Challenges are the server's, kept five minutes and deleted as they are checked: each works once.
 */
export const CHALLENGE_MINUTES = 5;

/**
 * The library (about 1 MB with its ASN.1 and COSE parts) loads on the first passkey call, kept out
 * of the function's module graph at load (a dynamic import), so a cold start never parses it.
 */
const webauthn = () => import('@simplewebauthn/server');
export const PASSKEY_NOT_RECOGNISED = 'This passkey was not recognised. Sign in with your password.';
export const PASSKEY_NOT_SAVED = 'The passkey could not be saved. Please try again.';

export interface PasskeyView {
  id: number;
  name: string;
  createdAt: string;
  lastUsedAt: string | null;
}

function relyingParty(siteUrl: string) {
  const url = new URL(siteUrl);
  return { rpID: url.hostname, origin: url.origin, rpName: `${BUSINESS.name} dashboard` };
}

async function storeChallenge(db: Database, challenge: string, purpose: 'register' | 'login', userId: number | null, now: Date) {
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now));
  await db.insert(webauthnChallenges).values({
    challenge,
    purpose,
    userId,
    createdAt: now,
    expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000),
  });
}

/** Spends a challenge once: true only for the first use of a live one issued for this purpose. */
async function consumeChallenge(db: Database, challenge: string, purpose: 'register' | 'login', userId: number | null, now: Date) {
  const conditions = [eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, purpose), gt(webauthnChallenges.expiresAt, now)];
  if (userId !== null) conditions.push(eq(webauthnChallenges.userId, userId));
  const deleted = await db.delete(webauthnChallenges).where(and(...conditions)).returning({ challenge: webauthnChallenges.challenge });
  return deleted.length === 1;
}

export async function listPasskeys(db: Database, userId: number): Promise<PasskeyView[]> {
  const rows = await db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, userId)).orderBy(staffPasskeys.createdAt, staffPasskeys.id);
  return rows.map(toView);
}

function toView(row: typeof staffPasskeys.$inferSelect): PasskeyView {
  return { id: row.id, name: row.name, createdAt: row.createdAt.toISOString(), lastUsedAt: row.lastUsedAt?.toISOString() ?? null };
}

export async function registrationOptions(db: Database, siteUrl: string, user: StaffUserRow, now: Date) {
  const { rpID, rpName } = relyingParty(siteUrl);
  const existing = await db.select().from(staffPasskeys).where(eq(staffPasskeys.userId, user.id));
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(`staff-${user.id}`),
    attestationType: 'none',
    excludeCredentials: existing.map((key) => ({ id: key.credentialId, transports: key.transports ?? undefined })),
    // Discoverable: sign-in needs no e-mail, one tap picks the person's passkey.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
  });
  await storeChallenge(db, options.challenge, 'register', user.id, now);
  return options;
}

export async function registerPasskey(
  db: Database,
  siteUrl: string,
  user: StaffUserRow,
  input: { name: string; response: RegistrationResponseJSON },
  now: Date,
): Promise<PasskeyView> {
  const { rpID, origin } = relyingParty(siteUrl);
  const { verifyRegistrationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: (challenge) => consumeChallenge(db, challenge, 'register', user.id, now),
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
  } catch {
    throw new AppError(400, PASSKEY_NOT_SAVED);
  }
  if (!verification.verified || !verification.registrationInfo) throw new AppError(400, PASSKEY_NOT_SAVED);
  const { credential } = verification.registrationInfo;
  const [row] = await db
    .insert(staffPasskeys)
    .values({
      userId: user.id,
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? null,
      name: input.name,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError(409, 'This passkey is already registered.');
  await writeChannelLog(db, {
    channel: 'admin',
    action: 'passkey_added',
    entityType: 'staff_user',
    entityId: String(user.id),
    userId: String(user.id),
    details: `${user.name} added the passkey "${input.name}"`,
  });
  return toView(row);
}

export async function removePasskey(db: Database, user: StaffUserRow, id: number): Promise<void> {
  const [row] = await db
    .delete(staffPasskeys)
    .where(and(eq(staffPasskeys.id, id), eq(staffPasskeys.userId, user.id)))
    .returning();
  if (!row) throw new AppError(404, 'No such passkey.');
  await writeChannelLog(db, {
    channel: 'admin',
    action: 'passkey_removed',
    entityType: 'staff_user',
    entityId: String(user.id),
    userId: String(user.id),
    details: `${user.name} removed the passkey "${row.name}"`,
  });
}

export async function authenticationOptions(db: Database, siteUrl: string, now: Date) {
  const { rpID } = relyingParty(siteUrl);
  // No allowCredentials: the browser offers the site's discoverable passkeys.
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID, userVerification: 'preferred' });
  await storeChallenge(db, options.challenge, 'login', null, now);
  return options;
}

/** The active person whose passkey signed this challenge, or 401. */
export async function verifyPasskeySignIn(db: Database, siteUrl: string, response: AuthenticationResponseJSON, now: Date): Promise<StaffUserRow> {
  const { rpID, origin } = relyingParty(siteUrl);
  const [key] = await db.select().from(staffPasskeys).where(eq(staffPasskeys.credentialId, response.id)).limit(1);
  const user = key ? await findUser(db, key.userId) : null;
  // A deactivated person is told so, but only once their passkey's signature proved it is them.
  if (!key || !user || user.status === 'invited') throw new AppError(401, PASSKEY_NOT_RECOGNISED);
  const { verifyAuthenticationResponse } = await webauthn();
  let verification;
  try {
    verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge: (challenge) => consumeChallenge(db, challenge, 'login', null, now),
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: {
        id: key.credentialId,
        publicKey: new Uint8Array(Buffer.from(key.publicKey, 'base64url')),
        counter: key.counter,
        transports: (key.transports ?? undefined) as AuthenticatorTransport[] | undefined,
      },
      requireUserVerification: false,
    });
  } catch {
    throw new AppError(401, PASSKEY_NOT_RECOGNISED);
  }
  if (!verification.verified) throw new AppError(401, PASSKEY_NOT_RECOGNISED);
  if (user.status !== 'active') throw new AppError(401, ACCOUNT_DEACTIVATED);
  await db
    .update(staffPasskeys)
    .set({ counter: verification.authenticationInfo.newCounter, lastUsedAt: now })
    .where(eq(staffPasskeys.id, key.id));
  return user;
}

/** For the hourly job: challenges nobody answered. */
export async function pruneWebauthnChallenges(db: Database, now: Date): Promise<number> {
  const deleted = await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)).returning({ challenge: webauthnChallenges.challenge });
  return deleted.length;
}
