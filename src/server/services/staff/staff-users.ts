import { and, count, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../../../db/client.ts';
import { adminSessions, staffPasskeys, staffTokens, staffUsers } from '../../../../db/schema.ts';
import type { StaffRole, StaffStatus } from '../../../domain/staff-roles.ts';
import { AppError } from '../../app/errors.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { endAllUserSessions } from './admin-sessions.ts';
import { forgetDevices } from './known-devices.ts';

/**
 * Staff accounts (api.md "Staff accounts"): who may use the dashboard, with which role. Every
 * change here is logged with the account that made it.
 */
export type StaffUserRow = typeof staffUsers.$inferSelect;

/** The bootstrap owner's e-mail when ADMIN_EMAIL is unset. */
export const DEFAULT_OWNER_EMAIL = 'owner@localhost';
export const EMAIL_IN_USE = 'This e-mail already has an account.';
export const LAST_OWNER = 'The last active owner cannot be demoted or deactivated.';
export const USER_NOT_FOUND = 'No such account.';
/** Told only after the whole sign-in (password and code, or a passkey) is right: nothing a guesser learns. */
export const ACCOUNT_DEACTIVATED = 'This account has been deactivated. Ask an owner of the business to reactivate it.';

export interface StaffUserView {
  id: number;
  name: string;
  email: string;
  role: StaffRole;
  status: StaffStatus;
  lastSignInAt: string | null;
  passkeys: number;
  totp: boolean;
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export function bootstrapOwnerEmail(adminEmail: string | undefined): string {
  return normaliseEmail(adminEmail || DEFAULT_OWNER_EMAIL);
}

export async function findUserByEmail(db: Database, email: string): Promise<StaffUserRow | null> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.email, normaliseEmail(email))).limit(1);
  return row ?? null;
}

export async function findUser(db: Database, id: number): Promise<StaffUserRow | null> {
  const [row] = await db.select().from(staffUsers).where(eq(staffUsers.id, id)).limit(1);
  return row ?? null;
}

/**
 * The bootstrap owner's account, created on its first sign-in with ADMIN_PASSWORD (so an existing
 * deployment signs in unchanged) and made an active owner again at each one: the environment's
 * password is the business's way back in. A deactivated bootstrap owner stays deactivated.
 */
export async function ensureBootstrapOwner(db: Database, adminEmail: string | undefined, now: Date): Promise<StaffUserRow> {
  const email = bootstrapOwnerEmail(adminEmail);
  const [row] = await db
    .insert(staffUsers)
    .values({ name: 'Owner', email, role: 'owner', status: 'active', createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: staffUsers.email,
      set: {
        role: sql`case when ${staffUsers.status} = 'deactivated' then ${staffUsers.role} else 'owner' end`,
        status: sql`case when ${staffUsers.status} = 'deactivated' then 'deactivated' else 'active' end`,
      },
    })
    .returning();
  return row!;
}

export async function listUsers(db: Database): Promise<StaffUserView[]> {
  const [users, keys] = await Promise.all([
    db.select().from(staffUsers).orderBy(staffUsers.name, staffUsers.id),
    db.select({ userId: staffPasskeys.userId, n: count() }).from(staffPasskeys).groupBy(staffPasskeys.userId),
  ]);
  const passkeys = new Map(keys.map((row) => [row.userId, row.n]));
  return users.map((user) => toView(user, passkeys.get(user.id) ?? 0));
}

export async function userView(db: Database, user: StaffUserRow): Promise<StaffUserView> {
  const [row] = await db.select({ n: count() }).from(staffPasskeys).where(eq(staffPasskeys.userId, user.id));
  return toView(user, row?.n ?? 0);
}

/** An authenticator app or a passkey: a link then sets the password and signs nobody in. */
export async function hasSecondFactor(db: Database, user: StaffUserRow): Promise<boolean> {
  return user.totpSecret !== null || (await userView(db, user)).passkeys > 0;
}

function toView(user: StaffUserRow, passkeys: number): StaffUserView {
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    status: user.status,
    lastSignInAt: user.lastSignInAt?.toISOString() ?? null,
    passkeys,
    totp: user.totpSecret !== null,
  };
}

export async function createInvitedUser(
  db: Database,
  input: { name: string; email: string; role: StaffRole },
  actor: string,
  now: Date,
): Promise<StaffUserRow> {
  const [row] = await db
    .insert(staffUsers)
    .values({ name: input.name, email: normaliseEmail(input.email), role: input.role, status: 'invited', nameChosenAt: now, createdAt: now, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new AppError(409, EMAIL_IN_USE, { email: EMAIL_IN_USE });
  await writeChannelLog(db, {
    channel: 'admin',
    action: 'staff_invited',
    entityType: 'staff_user',
    entityId: String(row.id),
    userId: actor,
    details: `Invited ${row.name} (${row.email}) as ${row.role}`,
  });
  return row;
}

/**
 * Changes a role, a status or a name (the owner in Team, or a person their own in My account). The last active owner cannot stop being one: the check and
 * the change run in one transaction that locks the owners' rows, so two owners demoting each
 * other at once cannot both succeed. Deactivation ends every session of the person at once.
 */
export async function updateUser(
  db: Database,
  id: number,
  changes: { role?: StaffRole; status?: 'active' | 'deactivated'; name?: string },
  actor: string,
  now: Date,
): Promise<StaffUserRow> {
  const updated = await db.transaction(async (tx) => {
    const owners = await tx
      .select({ id: staffUsers.id })
      .from(staffUsers)
      .where(and(eq(staffUsers.role, 'owner'), eq(staffUsers.status, 'active')))
      .for('update');
    const [current] = await tx.select().from(staffUsers).where(eq(staffUsers.id, id)).for('update');
    if (!current) throw new AppError(404, USER_NOT_FOUND);
    const losesOwner =
      current.role === 'owner' && current.status === 'active' && ((changes.role && changes.role !== 'owner') || changes.status === 'deactivated');
    if (losesOwner && owners.filter((owner) => owner.id !== id).length === 0) throw new AppError(409, LAST_OWNER);
    // An invited person stays invited until they choose a password; "active" only reactivates.
    const status =
      changes.status === 'deactivated' ? 'deactivated'
      : changes.status === 'active' && current.status === 'deactivated' ? (current.passwordHash ? 'active' : 'invited')
      : current.status;
    const [row] = await tx
      .update(staffUsers)
      .set({ role: changes.role ?? current.role, name: changes.name ?? current.name, ...(changes.name ? { nameChosenAt: now } : {}), status, updatedAt: now })
      .where(eq(staffUsers.id, id))
      .returning();
    if (status === 'deactivated') {
      // Every session, every unused invitation or reset link and every known device of the
      // person end here: reactivation revives none of them (api.md "Staff accounts").
      await tx.update(adminSessions).set({ revokedAt: now }).where(and(eq(adminSessions.userId, id), sql`${adminSessions.revokedAt} is null`));
      await tx.update(staffTokens).set({ usedAt: now }).where(and(eq(staffTokens.userId, id), isNull(staffTokens.usedAt)));
      await forgetDevices(tx as unknown as Database, id);
    }
    const what = [
      changes.role && changes.role !== current.role ? `role ${current.role} → ${changes.role}` : null,
      status !== current.status ? `status ${current.status} → ${status}` : null,
      changes.name && changes.name !== current.name ? `name ${current.name} → ${changes.name}` : null,
    ].filter(Boolean);
    if (what.length > 0) {
      await writeChannelLog(tx as unknown as Database, {
        channel: 'admin',
        action: status === 'deactivated' && current.status !== 'deactivated' ? 'staff_deactivated' : 'staff_updated',
        entityType: 'staff_user',
        entityId: String(id),
        userId: actor,
        severity: status === 'deactivated' ? 'warning' : 'info',
        details: `${row!.name}: ${what.join(', ')}`,
      });
    }
    return row!;
  });
  return updated;
}

/** Records a sign-in's time on the account (shown in the Team tab). */
export async function markSignedIn(db: Database, userId: number, now: Date): Promise<void> {
  await db.update(staffUsers).set({ lastSignInAt: now }).where(eq(staffUsers.id, userId));
}

/** Sets a person's password (invitation or reset), ends their other sessions and forgets their devices. */
export async function setUserPassword(db: Database, userId: number, passwordHash: string, now: Date): Promise<void> {
  await db
    .update(staffUsers)
    .set({ passwordHash, status: sql`case when ${staffUsers.status} = 'invited' then 'active' else ${staffUsers.status} end`, updatedAt: now })
    .where(eq(staffUsers.id, userId));
  await endAllUserSessions(db, userId, now);
  // A new password: the browsers that knew the old one are strangers again.
  await forgetDevices(db, userId);
}

/**
 * The names behind logged actors: an account's id (as every dashboard change records it) becomes
 * the person's name; anything else (`system`, `crew:3`, `customer`, an old `admin:1a2b3c4d`) is
 * left as it was.
 */
export async function actorNames(db: Database, actors: readonly (string | null | undefined)[]): Promise<Map<string, string>> {
  const ids = [...new Set(actors.filter((actor): actor is string => typeof actor === 'string' && /^\d{1,9}$/.test(actor)))].map(Number);
  if (ids.length === 0) return new Map();
  const rows = await db.select({ id: staffUsers.id, name: staffUsers.name }).from(staffUsers).where(inArray(staffUsers.id, ids));
  return new Map(rows.map((row) => [String(row.id), row.name]));
}

/**
 * The same in a query: the name of the account a text actor column names, or null (for `system`,
 * `crew:3`, `customer` and old `admin:…` labels). staff_users is small, so the lookup is cheap.
 */
export function staffNameOf(actorColumn: AnyPgColumn) {
  // Aliased, so the outer column is never mistaken for one of staff_users' own. The actor column
  // is text (an account's id, or 'customer', 'crew:3', an old 'admin:1a2b…'): only a short number
  // is cast, so the lookup goes through staff_users' primary key instead of reading the table.
  return sql<string | null>`(select su.name from staff_users su where su.id = (case when ${actorColumn} ~ '^[0-9]{1,9}$' then (${actorColumn})::integer end))`;
}
