import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookings, crewStops, emailOutbox, photos, progressLogs } from '../../../../db/schema.ts';
import { CREW_MESSAGES, CREW_ON_MY_WAY_FRESH_MINUTES, crewLinkOpensAt, type CrewDay } from '../../../domain/crew.ts';
import { findProjectStep } from '../../../domain/project-steps.ts';
import { londonParts, toLondonDate } from '../../../domain/schedule.ts';
import type { AppDeps } from '../../app/deps.ts';
import { conflict } from '../../app/errors.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { crewOnTheWayEmail, crewOnTheWayKey } from '../../email/templates/index.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import type { CrewSession } from './crew-links.ts';
import { parsePhoneTime } from './phone-clock.ts';
import { createTrackingLink, trackingLinkUrl } from '../projects/tracking.ts';
import { advanceStop, lockStop, plannedStops, requireStop, statusAt, statusReceivedAt } from './crew-stops.ts';
import { crewStopDetails, type StopDetails } from './crew-stop-details.ts';

// The crew's day (api.md "Crew day"): the stops of one worker's London day, in route order, and
// what the crew does at each: On my way, photos as proof (crew-photos.ts), Done. Every call is
// scoped to the stops on the link's day (crew-stops.ts) that were given to this worker or to
// nobody: any other booking id is a 404, whether or not it exists.

/** `GET /api/crew/day`. */
export async function crewDay(db: Database, session: CrewSession): Promise<CrewDay> {
  const planned = await plannedStops(db, session);
  const ids = planned.map((stop) => stop.bookingId);
  const [rows, photoRows, details, told] = ids.length
    ? await Promise.all([
        db.select().from(crewStops).where(and(eq(crewStops.day, session.day), inArray(crewStops.bookingId, ids))),
        db
          .select({ id: photos.id, bookingId: photos.bookingId, photoType: photos.photoType, takenAt: photos.takenAt })
          .from(photos)
          .where(and(inArray(photos.bookingId, ids), isNotNull(photos.workerId)))
          .orderBy(asc(photos.createdAt), asc(photos.id)),
        crewStopDetails(db, ids),
        // The customer was told when the On my way e-mail was written: the outbox is that fact's home.
        db
          .select({ key: emailOutbox.dedupeKey })
          .from(emailOutbox)
          .where(inArray(emailOutbox.dedupeKey, ids.map((id) => crewOnTheWayKey(id, session.day)))),
      ])
    : [[], [], new Map<number, StopDetails>(), []];
  const toldKeys = new Set(told.map((row) => row.key));
  const byBooking = new Map(rows.map((row) => [row.bookingId, row]));
  return {
    worker: { name: session.worker.name },
    date: session.day,
    stops: planned.map((stop) => {
      const row = byBooking.get(stop.bookingId);
      return {
        ...stop,
        specialInstructions: details.get(stop.bookingId)?.specialInstructions ?? null,
        stencil: details.get(stop.bookingId)?.stencil ?? null,
        status: row?.status ?? 'planned',
        statusAt: statusAt(row),
        statusReceivedAt: statusReceivedAt(row),
        onTheWay: row?.onTheWayAt
          ? { at: row.onTheWayAt.toISOString(), customerTold: toldKeys.has(crewOnTheWayKey(stop.bookingId, session.day)) }
          : null,
        photos: photoRows
          .filter((photo) => photo.bookingId === stop.bookingId)
          .map((photo) => ({ id: photo.id, photoType: photo.photoType, takenAt: photo.takenAt?.toISOString() ?? null })),
      };
    }),
  };
}

export const londonTime = (instant: Date) => {
  const { hour, minute } = londonParts(instant);
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
};

export type CrewDeps = Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log' | 'now' | 'files'>;

/**
 * When the crew tapped, by the phone's clock: a tap that waited for signal keeps its own time.
 * Absent, the tap is as old as its arrival; otherwise it must fall on the link's day (from its
 * opening) and not after the server's clock, each within CREW_CLOCK_DRIFT_MS.
 */
export function tapTime(tappedAt: unknown, session: CrewSession, now: Date): Date {
  if (tappedAt === undefined || tappedAt === null) return now;
  return parsePhoneTime(tappedAt, now, 'tappedAt', CREW_MESSAGES.tappedAt, crewLinkOpensAt(session.day));
}

/**
 * Why an On my way that reached the server would no longer be true in an e-mail, or null: it
 * arrived more than CREW_ON_MY_WAY_FRESH_MINUTES after the tap (a phone without signal), or work
 * the crew did at the stop after the tap arrived first. Decided from the phone's times, so a
 * queue that empties at noon never tells the customer "set off at 09:05, with you shortly".
 */
function staleOnMyWay(tapped: Date, now: Date, before: { startedAt: Date | null; doneAt: Date | null } | undefined): string | null {
  const late = now.getTime() - tapped.getTime() > CREW_ON_MY_WAY_FRESH_MINUTES * 60_000;
  if (late) return `tapped ${londonTime(tapped)}, received ${londonTime(now)}`;
  const later = [before?.startedAt, before?.doneAt].find((at) => at && at > tapped);
  return later ? `work there started ${londonTime(later)}` : null;
}

/**
 * On my way: the stop shows 'on the way' (to staff and on the customer's tracking page) and the
 * customer is e-mailed once per booking and day, with a new magic link to their tracking page,
 * unless the tap is stale (staleOnMyWay): then it is recorded and nobody is e-mailed.
 * A second tap, or a retry after a lost answer, e-mails nobody again.
 */
export async function markOnTheWay(deps: CrewDeps, session: CrewSession, bookingId: number, tappedAt?: unknown): Promise<CrewDay> {
  const now = deps.now();
  const tapped = tapTime(tappedAt, session, now);
  await requireStop(deps.db, session, bookingId);
  const key = await deps.db.transaction(async (tx) => {
    // After Done the crew has left: a late tap changes nothing and tells the customer nothing.
    if ((await lockStop(tx, session, bookingId))?.status === 'done') return null;
    const before = await advanceStop(tx, session, bookingId, 'on_the_way', now, tapped);
    if (before?.onTheWayAt) return null;
    const stale = staleOnMyWay(tapped, now, before);
    const message = stale ? null : await onTheWayMessage(tx, deps, session, bookingId, tapped, now);
    const queued = message ? await queueEmail(tx as unknown as Database, message) : false;
    await writeChannelLog(tx, {
      channel: 'notification',
      action: 'crew_on_the_way',
      entityType: 'booking',
      entityId: bookingId,
      userId: `crew:${session.worker.id}`,
      details: stale
        ? `${session.worker.name} was on the way to booking #${bookingId}; the customer was not e-mailed (${stale})`
        : `${session.worker.name} is on the way to booking #${bookingId}${queued ? '; the customer was e-mailed' : ''}`,
    });
    return queued ? message!.dedupeKey! : null;
  });
  if (key) await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [key], now: deps.now() }));
  return crewDay(deps.db, session);
}

/** The customer's "on the way" e-mail, with a new magic link to their tracking page. */
async function onTheWayMessage(tx: Transaction, deps: CrewDeps, session: CrewSession, bookingId: number, tapped: Date, now: Date) {
  const [booking] = await tx.select({ firstName: bookings.firstName, email: bookings.email }).from(bookings).where(eq(bookings.id, bookingId));
  const token = await createTrackingLink(tx as unknown as Database, bookingId, now);
  return crewOnTheWayEmail({
    bookingId,
    firstName: booking!.firstName,
    email: booking!.email,
    day: session.day,
    time: londonTime(tapped),
    trackingUrl: trackingLinkUrl(deps.env.SITE_URL, token),
  });
}

/** Why Done is refused on a booking that is not an installation scheduled for the crew's day. */
function doneRefusal(booking: { currentStep: number; installationDate: Date | null }, day: string): string | null {
  if (booking.currentStep < 3) return CREW_MESSAGES.doneBeforeScheduled;
  if (booking.currentStep > 3) return CREW_MESSAGES.doneAfterInstalled;
  if (!booking.installationDate || toLondonDate(booking.installationDate) !== day) return CREW_MESSAGES.doneOtherDay;
  return null;
}

/**
 * Done: an installation staff scheduled for the crew's day (step 3) moves to step 4 (On-Site
 * Installation) with today's date and a progress note naming the worker; the stop shows done.
 * Anything else is a 409 saying why, so a crew cannot skip the project's steps. A second Done of
 * the same stop writes nothing.
 */
export async function markDone(deps: CrewDeps, session: CrewSession, bookingId: number, tappedAt?: unknown): Promise<CrewDay> {
  const now = deps.now();
  const tapped = tapTime(tappedAt, session, now);
  await requireStop(deps.db, session, bookingId);
  const step = findProjectStep(4)!;
  await deps.db.transaction(async (tx) => {
    if ((await lockStop(tx, session, bookingId))?.status === 'done') return;
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    const refusal = doneRefusal(booking!, session.day);
    if (refusal) throw conflict(refusal);
    await advanceStop(tx, session, bookingId, 'done', now, tapped);
    // Kept for an undo (crew-undo.ts): Done replaces the scheduled time with the tap's.
    await tx
      .update(crewStops)
      .set({ installationDateBeforeDone: booking!.installationDate })
      .where(and(eq(crewStops.bookingId, bookingId), eq(crewStops.day, session.day)));
    const received = londonTime(now) === londonTime(tapped) ? '' : ` (received ${londonTime(now)})`;
    const notes = `Installed by ${session.worker.name} (crew), marked done at ${londonTime(tapped)}${received}`;
    await moveProjectByCrew(tx, session, bookingId, { from: 3, to: step.step, notes, installationDate: tapped, now });
  });
  return crewDay(deps.db, session);
}

/**
 * A crew's Done, or its undo, in the project's history: the booking's step, status, installation
 * time and note, a progress log, and a log entry naming the worker.
 */
export async function moveProjectByCrew(
  tx: Transaction,
  session: CrewSession,
  bookingId: number,
  move: { from: number; to: number; notes: string; installationDate: Date | null; now: Date },
): Promise<void> {
  const step = findProjectStep(move.to)!;
  const { notes, now } = move;
  await tx
    .update(bookings)
    .set({ statusNotes: notes, updatedAt: now, currentStep: step.step, status: step.status, installationDate: move.installationDate })
    .where(eq(bookings.id, bookingId));
  await tx.insert(progressLogs).values({ bookingId, step: step.step, stepName: step.name, status: step.status, notes, createdAt: now });
  const undo = move.to < move.from;
  await writeChannelLog(tx, {
    channel: 'admin',
    action: 'progress_updated',
    entityType: 'booking',
    entityId: bookingId,
    userId: `crew:${session.worker.id}`,
    details: `Booking #${bookingId} moved ${undo ? 'back ' : ''}from step ${move.from} to step ${step.step}: ${step.name} by ${session.worker.name} (crew)${undo ? ', undoing Done' : ''}`,
    metadata: { fromStep: move.from, toStep: step.step, crew: true, ...(undo ? { undo: true } : {}) },
  });
}
