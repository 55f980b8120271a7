import { and, desc, eq, gt, gte, inArray, isNull, ne, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { crewLinks, emailOutbox, workers } from '../../../../db/schema.ts';
import { CREW_MESSAGES, crewLinkExpiresAt, crewLinkNotYetOpen, crewLinkOpensAt } from '../../../domain/crew.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { AppError, notFound } from '../../app/errors.ts';
import { hashToken, isTokenShaped, newToken } from '../projects/tracking.ts';

// Crew links (api.md "Crew day"): a worker's key to one day's stops, with no account. The token
// is 192 random bits and exists in plain text only in the worker's e-mail; the database keeps its
// SHA-256. A link is for one London day: it opens at midnight London at the start of that day
// (403 before, naming the day) and works until 12:00 London the next day
// (domain/crew.ts CREW_LINK_CUTOFF_LONDON_HOUR), or until staff revoke it.

export interface CrewWorker {
  id: number;
  name: string;
  email: string;
}

export interface CrewSession {
  worker: CrewWorker;
  /** The London day the link is for, 'YYYY-MM-DD'. */
  day: string;
}

/** The absolute link a worker opens. */
export function crewLinkUrl(siteUrl: string, token: string): string {
  const url = new URL('/crew', siteUrl);
  url.searchParams.set('t', token);
  return url.href;
}

/** How a worker is called on the page and in progress notes: their name, else their e-mail's name. */
export function workerDisplayName(worker: { name: string | null; email: string }): string {
  return worker.name?.trim() || worker.email.split('@')[0]!;
}

/**
 * Stores a new link for the worker's day and returns its token. The caller revokes the worker's
 * older links for that day (`revokeOtherCrewLinks`) once the e-mail carrying this one is queued,
 * so the newest e-mail's link is the one that works.
 */
export async function insertCrewLink(db: Database, workerId: number, day: string, now: Date): Promise<string> {
  const token = newToken();
  await db.insert(crewLinks).values({ tokenHash: hashToken(token), workerId, day, expiresAt: crewLinkExpiresAt(day), createdAt: now });
  return token;
}

/**
 * The token of a link for the worker's `day` that was sent earlier on today's London date and
 * still works, or null. The 6 PM job sends this one again instead of replacing it: a crew who
 * opened the link staff sent an hour ago keeps a working page, and what their phone queued under
 * it goes on as before (api.md "Crew day"). The database keeps only each link's hash, so the
 * token is read back from the e-mail that carried it (the outbox keeps every message as sent) and
 * accepted only when its hash is that live link's.
 */
export async function sameDayCrewLink(db: Database, worker: { id: number; email: string }, day: string, now: Date): Promise<string | null> {
  const todayStart = crewLinkOpensAt(londonDate(now));
  const links = await db
    .select({ tokenHash: crewLinks.tokenHash })
    .from(crewLinks)
    .where(
      and(eq(crewLinks.workerId, worker.id), eq(crewLinks.day, day), isNull(crewLinks.revokedAt), gt(crewLinks.expiresAt, now), gte(crewLinks.createdAt, todayStart)),
    );
  if (links.length === 0) return null;
  const live = new Set(links.map((link) => link.tokenHash));
  const mails = await db
    .select({ text: emailOutbox.text })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.kind, 'worker-routes'), sql`lower(${emailOutbox.to}) = ${worker.email.toLowerCase()}`, gte(emailOutbox.createdAt, todayStart)))
    .orderBy(desc(emailOutbox.id));
  for (const mail of mails) {
    for (const match of mail.text.matchAll(/\/crew\?t=([\w-]{32})\b/g)) {
      if (live.has(hashToken(match[1]!))) return match[1]!;
    }
  }
  return null;
}

/** Revokes every live link of the worker's day except `keepToken`'s. */
export async function revokeOtherCrewLinks(db: Database, workerId: number, day: string, keepToken: string, now: Date): Promise<void> {
  await db
    .update(crewLinks)
    .set({ revokedAt: now })
    .where(and(eq(crewLinks.workerId, workerId), eq(crewLinks.day, day), isNull(crewLinks.revokedAt), ne(crewLinks.tokenHash, hashToken(keepToken))));
}

/** Staff's Revoke: every live link of the worker's day stops working. Returns how many it ended. */
export async function revokeCrewLinks(db: Database, workerId: number, day: string, now: Date): Promise<number> {
  const revoked = await db
    .update(crewLinks)
    .set({ revokedAt: now })
    .where(and(eq(crewLinks.workerId, workerId), eq(crewLinks.day, day), isNull(crewLinks.revokedAt)))
    .returning({ tokenHash: crewLinks.tokenHash });
  return revoked.length;
}

/** The Bearer token of a request, or '' when the header is missing or of another kind. */
export function bearerToken(header: string | undefined): string {
  const match = /^Bearer\s+(\S+)$/i.exec(header?.trim() ?? '');
  return match?.[1] ?? '';
}

/**
 * The worker and day a token opens. 404 for a token no link has (malformed ones are looked up as
 * a hash nothing has, so both take one query), 410 for a link past its cut-off or revoked.
 */
export async function openCrewLink(db: Database, token: string, now: Date): Promise<CrewSession> {
  const tokenHash = hashToken(isTokenShaped(token) ? token : '');
  const [found] = await db
    .select({ link: crewLinks, worker: { id: workers.id, name: workers.name, email: workers.email, active: workers.active } })
    .from(crewLinks)
    .innerJoin(workers, eq(workers.id, crewLinks.workerId))
    .where(eq(crewLinks.tokenHash, tokenHash))
    .limit(1);
  if (!found) throw notFound(CREW_MESSAGES.unknownLink);
  // A deactivated worker's links end with them.
  if (found.link.revokedAt || found.link.expiresAt <= now || !found.worker.active) throw new AppError(410, CREW_MESSAGES.expiredLink);
  // The 6 PM e-mail arrives the evening before: the link opens at the start of its London day,
  // so a link sent for a later date shows nothing of it until then.
  if (now < crewLinkOpensAt(found.link.day)) {
    throw new AppError(403, crewLinkNotYetOpen(found.link.day), undefined, undefined, { opensOn: found.link.day });
  }
  const { id, email } = found.worker;
  return { worker: { id, email, name: workerDisplayName(found.worker) }, day: found.link.day };
}

/**
 * A rain day (services/schedule/weather-days.ts): the day's live links end, every worker's or only
 * those of `workerIds`, inside the caller's transaction. Returns how many it ended.
 */
export async function endDayCrewLinks(db: Database, day: string, now: Date, workerIds?: readonly number[]): Promise<number> {
  if (workerIds && workerIds.length === 0) return 0;
  const revoked = await db
    .update(crewLinks)
    .set({ revokedAt: now })
    .where(and(eq(crewLinks.day, day), isNull(crewLinks.revokedAt), workerIds ? inArray(crewLinks.workerId, [...workerIds]) : undefined))
    .returning({ tokenHash: crewLinks.tokenHash });
  return revoked.length;
}
