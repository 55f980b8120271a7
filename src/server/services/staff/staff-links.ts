import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, lt, or } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { staffTokens } from '../../../../db/schema.ts';
import { ROLE_LABELS } from '../../../domain/staff-roles.ts';
import type { AppDeps } from '../../app/deps.ts';
import { AppError } from '../../app/errors.ts';
import { staffInvitationEmail, staffPasswordResetEmail } from '../../email/templates/index.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { hashAdminPassword } from '../../admin-password.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { passwordProblem } from './staff-passwords.ts';
import { findUser, setUserPassword, USER_NOT_FOUND, type StaffUserRow } from './staff-users.ts';

/**
 * Invitation and password-reset links (api.md "Staff accounts"): 192 random bits in the link,
 * only their SHA-256 stored, single use, 48 hours. A new link for the same person and purpose
 * retires the older ones, so only the latest e-mail works.
 */
export const STAFF_LINK_HOURS = 48;
export const LINK_GONE = 'This link has expired or was already used. Ask the owner for a new one.';
export const CANNOT_INVITE_DEACTIVATED = 'Reactivate this person first.';

type Purpose = 'invite' | 'reset';

const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

export function acceptUrl(siteUrl: string, token: string): string {
  const url = new URL('/admin/accept', siteUrl);
  url.searchParams.set('t', token);
  return url.href;
}

/**
 * Writes a new link for the person and queues its e-mail; delivery runs after the answer.
 * `actorName` is who sent it, as the e-mail says.
 */
export async function sendStaffLink(
  deps: AppDeps,
  user: StaffUserRow,
  purpose: Purpose,
  actor: { userId: string; name: string },
): Promise<{ deliver: () => Promise<void> }> {
  if (user.status === 'deactivated') throw new AppError(409, CANNOT_INVITE_DEACTIVATED);
  const now = deps.now();
  const token = randomBytes(24).toString('base64url');
  const dedupeKey = `staff-${purpose}:${hashToken(token).slice(0, 32)}`;
  await deps.db.transaction(async (tx) => {
    const db = tx as unknown as Database;
    await db
      .update(staffTokens)
      .set({ usedAt: now })
      .where(and(eq(staffTokens.userId, user.id), eq(staffTokens.purpose, purpose), isNull(staffTokens.usedAt)));
    await db.insert(staffTokens).values({
      tokenHash: hashToken(token),
      userId: user.id,
      purpose,
      expiresAt: new Date(now.getTime() + STAFF_LINK_HOURS * 3600_000),
      createdAt: now,
    });
    const context = { to: user.email, name: user.name, role: ROLE_LABELS[user.role].toLowerCase(), url: acceptUrl(deps.env.SITE_URL, token), invitedBy: actor.name };
    const message = purpose === 'invite' ? staffInvitationEmail(context) : staffPasswordResetEmail(context);
    await queueEmail(db, { ...message, dedupeKey });
    await writeChannelLog(db, {
      channel: 'admin',
      action: purpose === 'invite' ? 'staff_invitation_sent' : 'staff_password_reset_sent',
      entityType: 'staff_user',
      entityId: String(user.id),
      userId: actor.userId,
      details: `${purpose === 'invite' ? 'Invitation' : 'Password reset link'} sent to ${user.name} (${user.email})`,
    });
  });
  return { deliver: () => deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [dedupeKey], now })) };
}

/** What the accept page shows before the password is chosen; 410 for a used or expired link. */
export async function inspectStaffLink(db: Database, token: string, now: Date) {
  const link = await liveLink(db, token, now);
  const user = await findUser(db, link.userId);
  if (!user || user.status === 'deactivated') throw new AppError(410, LINK_GONE);
  return { name: user.name, email: user.email, role: user.role, purpose: link.purpose };
}

/**
 * Uses a link once: the conditional UPDATE claims it, so two submissions of the same link cannot
 * both set a password. The password is checked before the link is spent, so a refused password
 * leaves the link usable.
 */
export async function acceptStaffLink(db: Database, token: string, password: string, now: Date): Promise<StaffUserRow> {
  const link = await liveLink(db, token, now);
  const user = await findUser(db, link.userId);
  if (!user || user.status === 'deactivated') throw new AppError(410, LINK_GONE);
  const problem = await passwordProblem(password, { email: user.email });
  if (problem) throw new AppError(400, problem, { password: problem });
  const passwordHash = await hashAdminPassword(password);
  const [claimed] = await db
    .update(staffTokens)
    .set({ usedAt: now })
    .where(and(eq(staffTokens.tokenHash, link.tokenHash), isNull(staffTokens.usedAt), gt(staffTokens.expiresAt, now)))
    .returning({ userId: staffTokens.userId });
  if (!claimed) throw new AppError(410, LINK_GONE);
  await setUserPassword(db, user.id, passwordHash, now);
  await writeChannelLog(db, {
    channel: 'admin',
    action: link.purpose === 'invite' ? 'staff_invitation_accepted' : 'staff_password_reset',
    entityType: 'staff_user',
    entityId: String(user.id),
    userId: String(user.id),
    details: `${user.name} ${link.purpose === 'invite' ? 'accepted the invitation' : 'set a new password'}`,
  });
  const fresh = await findUser(db, user.id);
  if (!fresh) throw new AppError(404, USER_NOT_FOUND);
  return fresh;
}

async function liveLink(db: Database, token: string, now: Date) {
  if (!/^[\w-]{32}$/.test(token)) throw new AppError(410, LINK_GONE);
  const [link] = await db
    .select()
    .from(staffTokens)
    .where(and(eq(staffTokens.tokenHash, hashToken(token)), isNull(staffTokens.usedAt), gt(staffTokens.expiresAt, now)))
    .limit(1);
  if (!link) throw new AppError(410, LINK_GONE);
  return link;
}

/** For the hourly job: links that can never be used again. */
export async function pruneStaffLinks(db: Database, now: Date): Promise<number> {
  const deleted = await db
    .delete(staffTokens)
    .where(or(lt(staffTokens.expiresAt, now), lt(staffTokens.usedAt, new Date(now.getTime() - 24 * 3600_000))))
    .returning({ tokenHash: staffTokens.tokenHash });
  return deleted.length;
}

