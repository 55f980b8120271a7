import { eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, crewLinks, trackingLinks, workers } from '../../../../db/schema.ts';
import { crewLinkExpiresAt } from '../../../domain/crew.ts';
import { conflict } from '../../app/errors.ts';
import { insertCrewLink } from '../crew/crew-links.ts';
import { createTrackingLink, hashToken } from '../projects/tracking.ts';

// The one-person links some e-mails carry: a worker's crew day (/crew?t=) or a customer's
// tracking page (/track-project?t=). Staff resending such a message an hour or a day later may
// be sending a link that was since revoked or has expired; the Messages view says so before the
// resend, and offers the same message with a fresh link instead.

export type MessageLinkKind = 'crew' | 'tracking';

export interface MessageLink {
  kind: MessageLinkKind;
  /** live: it opens; revoked: staff or a newer link ended it; expired: its day is over; gone: no such link is kept. */
  state: 'live' | 'revoked' | 'expired' | 'gone';
  /** A fresh link can be sent in its place (the crew day is not over; the booking is still there). */
  canRenew: boolean;
}

export const MESSAGE_LINK_MESSAGES = {
  deadLink: {
    crew: 'The crew link in this message no longer works. Send it with a fresh link, or resend it as it is.',
    tracking: 'The tracking link in this message no longer works. Send it with a fresh link, or resend it as it is.',
  },
  cannotRenew: {
    crew: 'This crew day is over or the worker is no longer active, so there is no fresh link to send.',
    tracking: 'This booking no longer has a tracking page, so there is no fresh link to send.',
  },
} as const;

const LINK_PATTERN = /\/(crew|track-project)\?t=([\w-]{16,64})/;

/** The link a message carries (its first), with the token as written in it. */
function linkIn(text: string): { kind: MessageLinkKind; token: string } | null {
  const match = LINK_PATTERN.exec(text);
  if (!match) return null;
  return { kind: match[1] === 'crew' ? 'crew' : 'tracking', token: match[2]! };
}

async function crewLinkState(db: Database, token: string, now: Date): Promise<MessageLink> {
  const [found] = await db
    .select({ day: crewLinks.day, expiresAt: crewLinks.expiresAt, revokedAt: crewLinks.revokedAt, active: workers.active })
    .from(crewLinks)
    .innerJoin(workers, eq(workers.id, crewLinks.workerId))
    .where(eq(crewLinks.tokenHash, hashToken(token)))
    .limit(1);
  if (!found) return { kind: 'crew', state: 'gone', canRenew: false };
  const canRenew = found.active && crewLinkExpiresAt(found.day) > now;
  const state = found.revokedAt || !found.active ? 'revoked' : found.expiresAt <= now ? 'expired' : 'live';
  return { kind: 'crew', state, canRenew };
}

async function trackingLinkState(db: Database, token: string, bookingId: number | null): Promise<MessageLink> {
  const [found] = await db.select({ bookingId: trackingLinks.bookingId }).from(trackingLinks).where(eq(trackingLinks.tokenHash, hashToken(token))).limit(1);
  const [booking] = bookingId === null ? [] : await db.select({ id: bookings.id }).from(bookings).where(eq(bookings.id, bookingId)).limit(1);
  return { kind: 'tracking', state: found ? 'live' : 'gone', canRenew: booking !== undefined };
}

/** Whether the link a message carries still opens; null for a message with no such link. */
export async function messageLink(db: Database, message: { text: string; bookingId: number | null }, now: Date): Promise<MessageLink | null> {
  const link = linkIn(message.text);
  if (!link) return null;
  return link.kind === 'crew' ? crewLinkState(db, link.token, now) : trackingLinkState(db, link.token, message.bookingId);
}

/**
 * The message's text and HTML with a fresh link in place of the one it carried: a new crew link
 * for the same worker and day, or a new tracking link for the booking. The older link is left as
 * it is (staff revoke a crew link on the Workers tab). 409 when there is nothing to renew.
 */
export async function withFreshLink(
  tx: Database,
  message: { text: string; html: string | null; bookingId: number | null },
  now: Date,
): Promise<{ text: string; html: string | null }> {
  const link = linkIn(message.text);
  if (!link) return message;
  const state = await messageLink(tx, message, now);
  if (!state?.canRenew) throw conflict(MESSAGE_LINK_MESSAGES.cannotRenew[link.kind]);
  let token: string;
  if (link.kind === 'crew') {
    const [old] = await tx.select({ workerId: crewLinks.workerId, day: crewLinks.day }).from(crewLinks).where(eq(crewLinks.tokenHash, hashToken(link.token)));
    token = await insertCrewLink(tx, old!.workerId, old!.day, now);
  } else {
    token = await createTrackingLink(tx, message.bookingId!, now);
  }
  return { text: message.text.replaceAll(link.token, token), html: message.html?.replaceAll(link.token, token) ?? null };
}
