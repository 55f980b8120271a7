import { and, eq, isNotNull, lt } from 'drizzle-orm';
import * as z from 'zod';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookings, progressLogs } from '../../../../db/schema.ts';
import {
  canAdvanceTo,
  defaultProgressNote,
  findProjectStep,
  TOTAL_PROJECT_STEPS,
  type ProjectStep,
  type StepDateField,
} from '../../../domain/project-steps.ts';
import { installationDay, londonDate } from '../../../domain/schedule.ts';
import type { AppDeps } from '../../app/deps.ts';
import { badRequest, notFound } from '../../app/errors.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import type { BookingRow } from '../bookings/booking-view.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { queueRescheduledInvite } from '../bookings/installation-invites.ts';
import { checkDateAvailability, lockDate } from '../bookings/availability.ts';
import { refusal } from '../schedule/move-booking.ts';
import { dayReason } from '../schedule/schedule-days.ts';

export const PROGRESS_MESSAGES = {
  bookingNotFound: 'Booking not found',
  logNotFound: 'Progress log not found',
  step: `Step must be a whole number from 1 to ${TOTAL_PROJECT_STEPS}`,
  noteBlank: 'Please enter a note.',
  noteTooLong: 'Notes must be at most 2000 characters',
  date: 'Dates must be YYYY-MM-DD or an ISO 8601 date and time',
} as const;

export const NOTES_MAX_LENGTH = 2000;
/** Completed projects leave the Projects tab this long after completion (admin-dashboard.md §4). */
export const AUTO_ARCHIVE_AFTER_DAYS = 30;
const DAY_MS = 86_400_000;

const optionalDate = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })], { error: PROGRESS_MESSAGES.date })
  .nullish();

export const progressUpdateSchema = z.object({
  currentStep: z
    .number({ error: PROGRESS_MESSAGES.step })
    .int({ error: PROGRESS_MESSAGES.step })
    .min(1, { error: PROGRESS_MESSAGES.step })
    .max(TOTAL_PROJECT_STEPS, { error: PROGRESS_MESSAGES.step }),
  status: z.string().max(50).nullish(),
  statusNotes: z.string().max(NOTES_MAX_LENGTH, { error: PROGRESS_MESSAGES.noteTooLong }).nullish(),
  consultationDate: optionalDate,
  stencilApprovedDate: optionalDate,
  installationDate: optionalDate,
  completionDate: optionalDate,
});
export type ProgressUpdate = z.infer<typeof progressUpdateSchema>;

export const progressNoteSchema = z.object({
  notes: z
    .string({ error: PROGRESS_MESSAGES.noteBlank })
    .trim()
    .min(1, { error: PROGRESS_MESSAGES.noteBlank })
    .max(NOTES_MAX_LENGTH, { error: PROGRESS_MESSAGES.noteTooLong }),
});

const DATE_FIELDS: readonly StepDateField[] = ['consultationDate', 'stencilApprovedDate', 'installationDate', 'completionDate'];

/** Who did it and when, for the log rows. */
export interface Actor {
  userId: string;
  now: Date;
}


async function lockBooking(tx: Transaction, bookingId: number): Promise<BookingRow> {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
  if (!row) throw notFound(PROGRESS_MESSAGES.bookingNotFound);
  return row;
}

/**
 * Moves a project to a step (admin-dashboard.md §4): the status follows the step table, the
 * step's date is the one the admin gave or else the server's clock (step 4 keeps the scheduled
 * installation day instead, see defaultStepDate), step 5 completes the project. The booking, its progress log, the admin log and, when the admin moved the
 * installation to another day, the customer's updated calendar invite change together or not at
 * all; the invite is delivered after the commit.
 */
export async function updateProgress(
  deps: Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log' | 'now'>,
  bookingId: number,
  input: ProgressUpdate,
  actor: Actor,
) {
  const step = findProjectStep(input.currentStep)!;
  const plannedDay = input.installationDate ? londonDate(new Date(input.installationDate)) : null;
  const { booking, inviteKey } = await deps.db.transaction(async (tx) => {
    // A day staff plan takes room like any other move, so the date's lock comes before the
    // booking's row, in the order every mover takes them (move-booking.ts).
    if (plannedDay) await lockDate(tx as unknown as Database, plannedDay);
    const booking = await lockBooking(tx, bookingId);
    if (!canAdvanceTo(step.step, booking.currentStep)) {
      throw badRequest(
        `Step ${step.step} (${step.name}) is not available yet: the project is at step ${booking.currentStep}.`,
        { currentStep: `Finish step ${step.step - 1} first` },
      );
    }
    // The status belongs to the step (§4 table); a browser sending another one is out of date.
    if (input.status && input.status !== step.status) {
      throw badRequest(`Step ${step.step} sets the status '${step.status}', not '${input.status}'.`, {
        status: `Step ${step.step} sets the status '${step.status}'`,
      });
    }

    await checkPlannedDay(tx, booking, plannedDay, { now: actor.now, capacity: deps.env.DAILY_PATCH_CAPACITY });
    const updated = await moveToStep(tx, booking, input, actor);
    // Only a date the admin gave plans the installation (at step 3, or a correction at step 4);
    // without one, step 4 keeps the day the customer already knows.
    const inviteKey = input.installationDate
      ? await queueRescheduledInvite(tx, booking, updated, { siteUrl: deps.env.SITE_URL, now: actor.now, userId: actor.userId })
      : null;
    return { booking: updated, inviteKey };
  });
  if (inviteKey) await deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: [inviteKey], now: deps.now() }));
  return booking;
}

/**
 * A future day given in the progress dialog is a move of the booking's one day, judged as the
 * Schedule judges one: 409 when that day is closed for the booking's region or lacks room. The
 * same day again, or a day already past (staff recording when the work really happened), takes
 * no room and is not judged.
 */
async function checkPlannedDay(tx: Transaction, booking: BookingRow, day: string | null, context: { now: Date; capacity: number }) {
  if (!day || day === installationDay(booking) || day < londonDate(context.now)) return;
  const db = tx as unknown as Database;
  const availability = await checkDateAvailability(db, {
    date: day,
    quantity: booking.quantity,
    now: context.now,
    capacity: context.capacity,
    region: booking.region,
    excludeBookingId: booking.id,
  });
  if (!availability.available) throw refusal(day, booking.quantity, availability, await dayReason(db, day));
}

/**
 * The booking's move to `input.currentStep` inside the caller's transaction, the booking row
 * already locked: its step, status, dates and note, the progress log and the admin log, written
 * the same way whoever moves it (staff's dialog, the customer's stencil approval).
 */
export async function moveToStep(tx: Transaction, booking: BookingRow, input: ProgressUpdate, actor: Actor): Promise<BookingRow> {
  const bookingId = booking.id;
  const step = findProjectStep(input.currentStep)!;
  const dates: Partial<Record<StepDateField, Date>> = {};
  for (const field of DATE_FIELDS) {
    const value = input[field];
    if (value) dates[field] = new Date(value);
  }
  if (step.dateField && !dates[step.dateField]) dates[step.dateField] = defaultStepDate(step.dateField, booking, actor.now);

  const notes = input.statusNotes?.trim() || defaultProgressNote(step);
  const updated = await writeProgress(tx, bookingId, { currentStep: step.step, status: step.status, ...dates }, { step, status: step.status, notes }, actor);
  await writeChannelLog(tx, {
    channel: 'admin',
    action: step.step === TOTAL_PROJECT_STEPS ? 'project_completed' : 'progress_updated',
    entityType: 'booking',
    entityId: bookingId,
    userId: actor.userId,
    details: `Booking #${bookingId} moved from step ${booking.currentStep} to step ${step.step}: ${step.name} (status ${step.status})`,
    metadata: { fromStep: booking.currentStep, toStep: step.step, fromStatus: booking.status, status: step.status },
  });
  return updated;
}

/** The booking's new state and the line its progress history gains, written together. */
async function writeProgress(
  tx: Transaction,
  bookingId: number,
  set: Partial<typeof bookings.$inferInsert>,
  entry: { step: ProjectStep; status: string; notes: string },
  actor: Actor,
): Promise<BookingRow> {
  const [updated] = await tx
    .update(bookings)
    .set({ ...set, statusNotes: entry.notes, updatedAt: actor.now })
    .where(eq(bookings.id, bookingId))
    .returning();
  await tx.insert(progressLogs).values({
    bookingId,
    step: entry.step.step,
    stepName: entry.step.name,
    status: entry.status,
    notes: entry.notes,
    userId: actor.userId,
    createdAt: actor.now,
  });
  return updated!;
}

/**
 * The date a step records when staff give none: the clock's, except for the installation. Step 4
 * records that it happened on the day scheduled at step 3 (or the preferred day, when none was
 * set), the day the customer's invite and e-mails already name; stamping the clock would move
 * it, unannounced, to whatever day staff pressed the button. Only a date staff send moves it.
 */
function defaultStepDate(field: StepDateField, booking: BookingRow, now: Date): Date {
  if (field !== 'installationDate') return now;
  return booking.installationDate ?? new Date(installationDay(booking));
}

/** 'Add Note to Current Step': a log entry at the project's current step, shown as the latest note. */
export async function addProgressNote(db: Database, bookingId: number, notes: string, actor: Actor) {
  return db.transaction(async (tx) => {
    const booking = await lockBooking(tx, bookingId);
    const step = findProjectStep(booking.currentStep) ?? findProjectStep(1)!;
    const updated = await writeProgress(tx, bookingId, {}, { step, status: booking.status, notes }, actor);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'progress_note_added',
      entityType: 'booking',
      entityId: bookingId,
      userId: actor.userId,
      details: `Note added to booking #${bookingId} at step ${step.step}: ${step.name}`,
    });
    return updated;
  });
}

/** Removes one history entry; the booking's own step and status stay as they are. */
export async function deleteProgressLog(db: Database, logId: number, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const [deleted] = await tx.delete(progressLogs).where(eq(progressLogs.id, logId)).returning();
    if (!deleted) throw notFound(PROGRESS_MESSAGES.logNotFound);
    await writeChannelLog(tx, {
      channel: 'admin',
      action: 'progress_log_deleted',
      entityType: 'booking',
      entityId: deleted.bookingId,
      userId: actor.userId,
      details: `Progress log #${deleted.id} (step ${deleted.step}: ${deleted.stepName}) deleted from booking #${deleted.bookingId}`,
    });
  });
}

/**
 * "Completed projects are archived automatically" (admin-dashboard.md §4): 30 days after their
 * completion date, by the hourly maintenance job. One conditional update, so a repeated or
 * overlapping run archives nothing twice. Returns how many it archived.
 */
export async function archiveCompletedProjects(db: Database, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - AUTO_ARCHIVE_AFTER_DAYS * DAY_MS);
  return db.transaction(async (tx) => {
    const archived = await tx
      .update(bookings)
      .set({ archived: true, updatedAt: now })
      .where(
        and(
          eq(bookings.status, 'completed'),
          eq(bookings.archived, false),
          isNotNull(bookings.completionDate),
          lt(bookings.completionDate, cutoff),
        ),
      )
      .returning({ id: bookings.id });
    // A quiet hour writes nothing here; the maintenance run's own log carries the zero.
    if (archived.length) {
      await writeChannelLog(tx, {
        channel: 'admin',
        action: 'projects_auto_archived',
        entityType: 'booking',
        userId: 'system',
        details: `${archived.length} completed project(s) archived ${AUTO_ARCHIVE_AFTER_DAYS} days after completion`,
        metadata: { count: archived.length, bookingIds: archived.map((row) => row.id) },
      });
    }
    return archived.length;
  });
}

