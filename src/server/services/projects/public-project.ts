import { and, asc, eq, isNull } from 'drizzle-orm';
import { bookings, photos } from '../../../../db/schema.ts';
import { townForOutwardCode } from '../../../domain/postcode-towns.ts';
import { regionForOutwardCode } from '../../../domain/postcodes.ts';
import type { Database } from '../../../../db/client.ts';
import { notFound } from '../../app/errors.ts';
import { londonToday } from '../bookings/availability.ts';
import { shownToCustomer } from './photo-visibility.ts';

/**
 * The public view of a completed project (api.md, GET /api/gallery/{id}). Built field by field
 * from an allow-list: no name, e-mail, phone, street address or price can reach it, whatever
 * columns the booking gains later. Only 'after' photos are shown: they are the finished work.
 */
export interface PublicProject {
  id: number;
  /** The Europe/London calendar day the project was completed, YYYY-MM-DD; null if not recorded. */
  completionDate: string | null;
  patches: number;
  area: { town: string | null; region: string | null };
  /** No captions: staff write them for the customer, and they may name streets or people. */
  photos: Array<{ id: number; fileName: string }>;
}

export const PUBLIC_PROJECT_NOT_FOUND = 'Project not found';

/** Completed projects only; archived completed ones stay public. Anything else is the same 404. */
export async function findPublicProject(db: Database, id: number): Promise<PublicProject> {
  const [booking] = await db
    .select({
      id: bookings.id,
      quantity: bookings.quantity,
      postcode: bookings.postcode,
      region: bookings.region,
      completionDate: bookings.completionDate,
    })
    .from(bookings)
    .where(and(eq(bookings.id, id), eq(bookings.status, 'completed')));
  if (!booking) throw notFound(PUBLIC_PROJECT_NOT_FOUND);

  const afterPhotos = await db
    .select({ id: photos.id, fileName: photos.fileName })
    .from(photos)
    // Staff's after photos only, and none staff hid: a crew's photos are proof of the work, for staff.
    .where(and(eq(photos.bookingId, booking.id), eq(photos.photoType, 'after'), isNull(photos.workerId), shownToCustomer()))
    .orderBy(asc(photos.createdAt), asc(photos.id));

  return {
    id: booking.id,
    completionDate: booking.completionDate ? londonToday(booking.completionDate) : null,
    patches: booking.quantity,
    area: {
      town: townForOutwardCode(booking.postcode),
      region: booking.region ?? (booking.postcode ? regionForOutwardCode(booking.postcode) : null),
    },
    photos: afterPhotos,
  };
}
