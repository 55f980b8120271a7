import { and, asc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Database, Transaction } from '../../../../db/client.ts';
import { bookings, crewStops, photos, progressLogs } from '../../../../db/schema.ts';
import {
  CREW_MESSAGES,
  CREW_PHOTO_TYPES,
  firstNameOnly,
  workHoursLabel,
  type CrewDay,
  type CrewStopStatus,
} from '../../../domain/crew.ts';
import { findProjectStep } from '../../../domain/project-steps.ts';
import { londonParts } from '../../../domain/schedule.ts';
import type { AppDeps } from '../../api/deps.ts';
import { badRequest, notFound } from '../../api/errors.ts';
import { deliverNow, queueEmail } from '../../providers/email.ts';
import { crewOnTheWayEmail } from '../../email/templates/index.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import type { CrewSession } from './crew-links.ts';
import { createTrackingLink, trackingLinkUrl } from '../projects/tracking.ts';
import { uploadPhoto } from '../projects/project-photos.ts';
import { dayAssignments, dayRoutes } from './worker-notifications.ts';

// The crew's day (api.md "Crew day"): the stops of one worker's London day, in route order, and
// what the crew does at each: On my way, photos as proof, Done. Every call is scoped to the
// stops on the link's day that were given to this worker or to nobody: any other booking id is
// a 404, whether or not it exists.

/** The worker's stops on the day, in visiting order, without their status. */
async function plannedStops(db: Database, session: CrewSession) {
  const [groups, assignments] = await Promise.all([dayRoutes(db, session.day), dayAssignments(db, session.day)]);
  let order = 0;
  return groups.flatMap((group, index) =>
    group.stops
      .filter(({ booking }) => {
        const given = assignments.get(booking.id);
        return given === undefined || given === session.worker.id;
      })
      .map(({ booking, location }) => {
        order += 1;
        const point = booking.points[0] ?? location ?? null;
        return {
          bookingId: booking.id,
          order,
          routeNumber: index + 1,
          addresses: booking.addresses,
          lat: point?.lat ?? null,
          lng: point?.lng ?? null,
          workType: booking.workType,
          hours: workHoursLabel(booking.workType),
          quantity: booking.quantity,
          customerFirstName: firstNameOnly(booking.firstName),
        };
      }),
  );
}

type StopRow = typeof crewStops.$inferSelect;

function statusAt(row: StopRow | undefined): string | null {
  if (!row) return null;
  const at = row.status === 'done' ? row.doneAt : row.status === 'started' ? row.startedAt : row.onTheWayAt;
  return at?.toISOString() ?? null;
}

/** `GET /api/crew/day`. */
export async function crewDay(db: Database, session: CrewSession): Promise<CrewDay> {
  const planned = await plannedStops(db, session);
  const ids = planned.map((stop) => stop.bookingId);
  const [rows, photoRows] = ids.length
    ? await Promise.all([
        db.select().from(crewStops).where(and(eq(crewStops.day, session.day), inArray(crewStops.bookingId, ids))),
        db
          .select({ id: photos.id, bookingId: photos.bookingId, photoType: photos.photoType, takenAt: photos.takenAt })
          .from(photos)
          .where(and(inArray(photos.bookingId, ids), isNotNull(photos.workerId)))
          .orderBy(asc(photos.createdAt), asc(photos.id)),
      ])
    : [[], []];
  const byBooking = new Map(rows.map((row) => [row.bookingId, row]));
  return {
    worker: { name: session.worker.name },
    date: session.day,
    stops: planned.map((stop) => {
      const row = byBooking.get(stop.bookingId);
      return {
        ...stop,
        status: row?.status ?? 'planned',
        statusAt: statusAt(row),
        photos: photoRows
          .filter((photo) => photo.bookingId === stop.bookingId)
          .map((photo) => ({ id: photo.id, photoType: photo.photoType, takenAt: photo.takenAt?.toISOString() ?? null })),
      };
    }),
  };
}

/** The stop's booking when it is on this worker's day; 404 otherwise. */
async function requireStop(db: Database, session: CrewSession, bookingId: number) {
  const stop = (await plannedStops(db, session)).find((candidate) => candidate.bookingId === bookingId);
  if (!stop) throw notFound(CREW_MESSAGES.stopNotFound);
  return stop;
}

const RANK: Record<CrewStopStatus, number> = { planned: 0, on_the_way: 1, started: 2, done: 3 };

/**
 * Moves the stop's status forward (never back: a late 'on the way' after a photo changes nothing),
 * stamping the time of each status once. Returns the row as it was before, or undefined.
 */
async function advanceStop(tx: Transaction, session: CrewSession, bookingId: number, status: Exclude<CrewStopStatus, 'planned'>, now: Date) {
  const [before] = await tx
    .select()
    .from(crewStops)
    .where(and(eq(crewStops.bookingId, bookingId), eq(crewStops.day, session.day)))
    .for('update');
  const stamp = { on_the_way: 'onTheWayAt', started: 'startedAt', done: 'doneAt' } as const;
  const field = stamp[status];
  if (!before) {
    await tx
      .insert(crewStops)
      .values({ bookingId, day: session.day, status, workerId: session.worker.id, workerName: session.worker.name, [field]: now, updatedAt: now })
      .onConflictDoNothing();
    return undefined;
  }
  const moves = RANK[status] > RANK[before.status];
  if (moves || !before[field]) {
    await tx
      .update(crewStops)
      .set({
        ...(moves ? { status, workerId: session.worker.id, workerName: session.worker.name } : {}),
        ...(before[field] ? {} : { [field]: now }),
        updatedAt: now,
      })
      .where(and(eq(crewStops.bookingId, bookingId), eq(crewStops.day, session.day)));
  }
  return before;
}

const londonTime = (instant: Date) => {
  const { hour, minute } = londonParts(instant);
  return `${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}`;
};

type CrewDeps = Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log' | 'now' | 'files'>;

/**
 * On my way: the stop shows 'on the way' (to staff and on the customer's tracking page) and the
 * customer is e-mailed once per booking and day, with a new magic link to their tracking page.
 * A second tap, or a retry after a lost answer, e-mails nobody again.
 */
export async function markOnTheWay(deps: CrewDeps, session: CrewSession, bookingId: number): Promise<CrewDay> {
  await requireStop(deps.db, session, bookingId);
  const now = deps.now();
  const key = await deps.db.transaction(async (tx) => {
    const before = await advanceStop(tx, session, bookingId, 'on_the_way', now);
    if (before?.onTheWayAt) return null;
    const [booking] = await tx
      .select({ id: bookings.id, firstName: bookings.firstName, email: bookings.email })
      .from(bookings)
      .where(eq(bookings.id, bookingId));
    const token = await createTrackingLink(tx as unknown as Database, bookingId, now);
    const message = crewOnTheWayEmail({
      bookingId,
      firstName: booking!.firstName,
      email: booking!.email,
      day: session.day,
      time: londonTime(now),
      trackingUrl: trackingLinkUrl(deps.env.SITE_URL, token),
    });
    const queued = await queueEmail(tx as unknown as Database, message);
    await writeChannelLog(tx, {
      channel: 'notification',
      action: 'crew_on_the_way',
      entityType: 'booking',
      entityId: bookingId,
      userId: `crew:${session.worker.id}`,
      details: `${session.worker.name} is on the way to booking #${bookingId}${queued ? '; the customer was e-mailed' : ''}`,
    });
    return queued ? message.dedupeKey! : null;
  });
  if (key) await deliverNow(deps, [key]);
  return crewDay(deps.db, session);
}

export interface CrewPhotoInput {
  photo: unknown;
  thumbnail: unknown;
  photoType: unknown;
  takenAt: unknown;
  lat: unknown;
  lng: unknown;
  accuracy: unknown;
  clientUploadId: string;
}

function optionalNumber(value: unknown, min: number, max: number): number | null {
  if (value === null || value === undefined || value === '') return null;
  const number = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(number) || number < min || number > max) {
    throw badRequest(CREW_MESSAGES.position, { position: CREW_MESSAGES.position });
  }
  return number;
}

/** When the phone took it: an ISO instant, not in the future by more than a clock's drift. */
function parseTakenAt(value: unknown, now: Date): Date {
  const takenAt = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? new Date(value) : new Date(Number.NaN);
  const DRIFT_MS = 10 * 60_000;
  if (Number.isNaN(takenAt.getTime()) || takenAt.getTime() > now.getTime() + DRIFT_MS) {
    throw badRequest(CREW_MESSAGES.takenAt, { takenAt: CREW_MESSAGES.takenAt });
  }
  return takenAt;
}

/**
 * A proof photo from the crew, stored as the admin's photos are (sniffed, size-checked, JPEG
 * metadata removed, its thumbnail beside it) at the project's current step, with when and where
 * it was taken. The first photo starts the stop. Retried with the same key, it answers the photo
 * stored the first time and stores nothing.
 */
export async function addCrewPhoto(deps: CrewDeps, session: CrewSession, bookingId: number, input: CrewPhotoInput) {
  await requireStop(deps.db, session, bookingId);
  const now = deps.now();
  const lat = optionalNumber(input.lat, -90, 90);
  const lng = optionalNumber(input.lng, -180, 180);
  const accuracyM = optionalNumber(input.accuracy, 0, 100_000);
  const hasPosition = lat !== null && lng !== null;
  const photo = await uploadPhoto(
    deps,
    bookingId,
    {
      photo: input.photo,
      thumbnail: input.thumbnail,
      photoType: input.photoType,
      step: null,
      description: null,
      proof: {
        takenAt: parseTakenAt(input.takenAt, now),
        lat: hasPosition ? lat : null,
        lng: hasPosition ? lng : null,
        accuracyM: hasPosition ? accuracyM : null,
        workerId: session.worker.id,
        clientUploadId: input.clientUploadId,
        photoTypes: CREW_PHOTO_TYPES,
      },
    },
    { userId: `crew:${session.worker.id}`, now },
  );
  if (!photo.replayed) await deps.db.transaction((tx) => advanceStop(tx, session, bookingId, 'started', now));
  return { id: photo.id, photoType: photo.photoType, takenAt: photo.takenAt, replayed: photo.replayed === true };
}

/**
 * Done: the project moves to step 4 (On-Site Installation) with today's date and a progress note
 * naming the worker; the stop shows done. Idempotent: a project already at step 4 or later keeps
 * its step and dates, and a second Done writes nothing.
 */
export async function markDone(deps: CrewDeps, session: CrewSession, bookingId: number): Promise<CrewDay> {
  await requireStop(deps.db, session, bookingId);
  const now = deps.now();
  const step = findProjectStep(4)!;
  await deps.db.transaction(async (tx) => {
    const before = await advanceStop(tx, session, bookingId, 'done', now);
    if (before?.status === 'done') return;
    const [booking] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    const notes = `Installed by ${session.worker.name} (crew), marked done at ${londonTime(now)}`;
    const moves = booking!.currentStep < step.step;
    await tx
      .update(bookings)
      .set({
        statusNotes: notes,
        updatedAt: now,
        ...(moves ? { currentStep: step.step, status: step.status, installationDate: now } : {}),
      })
      .where(eq(bookings.id, bookingId));
    await tx.insert(progressLogs).values({
      bookingId,
      step: moves ? step.step : booking!.currentStep,
      stepName: moves ? step.name : (findProjectStep(booking!.currentStep)?.name ?? step.name),
      status: moves ? step.status : booking!.status,
      notes,
      createdAt: now,
    });
    await writeChannelLog(tx, {
      channel: 'admin',
      action: moves ? 'progress_updated' : 'progress_note_added',
      entityType: 'booking',
      entityId: bookingId,
      userId: `crew:${session.worker.id}`,
      details: moves
        ? `Booking #${bookingId} moved from step ${booking!.currentStep} to step 4: ${step.name} by ${session.worker.name} (crew)`
        : `${session.worker.name} (crew) marked booking #${bookingId} done`,
      metadata: { fromStep: booking!.currentStep, toStep: moves ? step.step : booking!.currentStep, crew: true },
    });
  });
  return crewDay(deps.db, session);
}

/** Crew status per booking (its latest day), for the admin's project list and the tracking page. */
export async function crewStatusByBooking(db: Database, bookingIds: readonly number[]) {
  if (bookingIds.length === 0) return new Map<number, CrewStatus>();
  const rows = await db
    .selectDistinctOn([crewStops.bookingId])
    .from(crewStops)
    .where(inArray(crewStops.bookingId, [...bookingIds]))
    .orderBy(crewStops.bookingId, sql`${crewStops.day} desc`);
  return new Map(rows.map((row) => [row.bookingId, toCrewStatus(row)]));
}

export interface CrewStatus {
  day: string;
  status: CrewStopStatus;
  /** When it reached the status (ISO). */
  at: string | null;
  workerName: string;
}

export function toCrewStatus(row: StopRow): CrewStatus {
  return { day: row.day, status: row.status, at: statusAt(row), workerName: row.workerName };
}

/**
 * What the customer's tracking page shows of the crew: the status and its time on the latest day
 * a crew worked on the booking; never the worker or any position.
 */
export async function customerCrewStatus(db: Database, bookingId: number): Promise<{ status: CrewStopStatus; at: string | null } | null> {
  const status = (await crewStatusByBooking(db, [bookingId])).get(bookingId);
  return status ? { status: status.status, at: status.at } : null;
}
