import { and, count, eq, gte, isNotNull, lt } from 'drizzle-orm';
import { photos } from '../../../../db/schema.ts';
import { CREW_MESSAGES, CREW_PHOTO_TYPES, crewLinkOpensAt, crewPhotoCapMessage } from '../../../domain/crew.ts';
import { addDays } from '../../../domain/format.ts';
import type { AppDeps } from '../../app/deps.ts';
import { badRequest, conflict } from '../../app/errors.ts';
import { uploadPhoto } from '../projects/project-photos.ts';
import type { CrewSession } from './crew-links.ts';
import { parsePhoneTime } from './phone-clock.ts';
import { advanceStop, requireStop } from './crew-stops.ts';

// A crew's proof photos (api.md "Crew day"): stored as the admin's photos are, with when and
// where they were taken kept for staff only.

type CrewDeps = Pick<AppDeps, 'db' | 'env' | 'mailer' | 'log' | 'now' | 'files'>;

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

/** Crew photos of one booking sent on the link's London day. */
async function photosOnStop(db: CrewDeps['db'], session: CrewSession, bookingId: number): Promise<number> {
  const from = crewLinkOpensAt(session.day);
  const to = crewLinkOpensAt(addDays(session.day, 1));
  const [row] = await db
    .select({ count: count() })
    .from(photos)
    .where(and(eq(photos.bookingId, bookingId), isNotNull(photos.workerId), gte(photos.createdAt, from), lt(photos.createdAt, to)));
  return row?.count ?? 0;
}

/**
 * A stop takes at most CREW_PHOTOS_PER_STOP photos a day: 409 past it. A retry of a photo already
 * stored is no new photo and still gets its first answer.
 */
async function checkPhotoCap(deps: CrewDeps, session: CrewSession, bookingId: number, clientUploadId: string): Promise<void> {
  const cap = deps.env.CREW_PHOTOS_PER_STOP;
  if ((await photosOnStop(deps.db, session, bookingId)) < cap) return;
  const [earlier] = await deps.db
    .select({ id: photos.id })
    .from(photos)
    .where(and(eq(photos.bookingId, bookingId), eq(photos.clientUploadId, clientUploadId)));
  if (!earlier) throw conflict(crewPhotoCapMessage(cap));
}

/** When the phone took it: an ISO instant, not in the future by more than a clock's drift. */
const parseTakenAt = (value: unknown, now: Date) => parsePhoneTime(value, now, 'takenAt', CREW_MESSAGES.takenAt);

/**
 * A proof photo from the crew, stored as the admin's photos are (sniffed, size-checked, JPEG
 * metadata removed, its thumbnail beside it) at the project's current step, with when and where
 * it was taken. The first photo starts the stop. Retried with the same key, it answers the photo
 * stored the first time and stores nothing.
 */
export async function addCrewPhoto(deps: CrewDeps, session: CrewSession, bookingId: number, input: CrewPhotoInput) {
  await requireStop(deps.db, session, bookingId);
  const now = deps.now();
  await checkPhotoCap(deps, session, bookingId, input.clientUploadId);
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
