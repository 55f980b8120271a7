import { and, eq } from 'drizzle-orm';
import { bookings, crewStops } from '../../../../db/schema.ts';
import { CREW_MESSAGES, crewUndoEndsAt, type CrewDay } from '../../../domain/crew.ts';
import { findProjectStep } from '../../../domain/project-steps.ts';
import { conflict } from '../../app/errors.ts';
import type { CrewSession } from './crew-links.ts';
import { crewDay, londonTime, moveProjectByCrew, type CrewDeps } from './crew-day.ts';
import { lockStop, requireStop } from './crew-stops.ts';

// Undoing a crew's Done (a tap on the wrong card, a job not quite finished): for
// CREW_UNDO_MINUTES after it, the phone can put the stop and the project back where they were,
// and the booking's history says so. After that, or once staff moved the project on, only staff
// change it: a 409 saying why.

/**
 * `POST /api/crew/stops/{bookingId}/undo-done`: the stop goes back to the status it had before
 * Done (its times kept), the booking back to step 3 with the installation time staff scheduled,
 * and a progress note and a log entry name the worker. A stop that is not done changes nothing,
 * so a retry after a lost answer is harmless.
 */
export async function undoDone(deps: CrewDeps, session: CrewSession, bookingId: number): Promise<CrewDay> {
  await requireStop(deps.db, session, bookingId);
  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    const stop = await lockStop(tx, session, bookingId);
    if (stop?.status !== 'done' || !stop.doneAt) return;
    if (now >= crewUndoEndsAt(stop.doneAt)) throw conflict(CREW_MESSAGES.undoTooLate);
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    if (booking!.currentStep !== 4) throw conflict(CREW_MESSAGES.undoAfterOffice);

    const where = and(eq(crewStops.bookingId, bookingId), eq(crewStops.day, session.day));
    const previous = stop.startedAt ? 'started' : stop.onTheWayAt ? 'on_the_way' : null;
    // A stop done at once, with no On my way and no photo, was planned: it has no row then.
    if (previous) await tx.update(crewStops).set({ status: previous, doneAt: null, installationDateBeforeDone: null, updatedAt: now }).where(where);
    else await tx.delete(crewStops).where(where);

    const notes = `Done undone by ${session.worker.name} (crew) at ${londonTime(now)}; back to ${findProjectStep(3)!.name}`;
    const installationDate = stop.installationDateBeforeDone ?? booking!.installationDate;
    await moveProjectByCrew(tx, session, bookingId, { from: 4, to: 3, notes, installationDate, now });
  });
  return crewDay(deps.db, session);
}
