import { asc, eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookingLocations, bookings } from '../../../../db/schema.ts';
import { notFound } from '../../app/errors.ts';
import { filesOfBookings } from '../bookings/booking-files.ts';

// GET /api/bookings/{id}/rebook: "Book again" fills the booking form with this booking's
// business, contact, locations and brand files. Only a date is chosen again, and the price is
// the server's when the new booking is made, as always. The brand files are named by reference
// (their stored names): the new booking points at the same files, never a second copy, and only
// a browser holding this booking's grant may attach them (bookings/booking-files.ts).

export async function rebookData(db: Database, bookingId: number) {
  const [booking] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
  if (!booking) throw notFound();
  const locations = await db
    .select({ address: bookingLocations.address, lat: bookingLocations.lat, lng: bookingLocations.lng })
    .from(bookingLocations)
    .where(eq(bookingLocations.bookingId, bookingId))
    .orderBy(asc(bookingLocations.position));
  const files = await filesOfBookings(db, [bookingId]);
  return {
    businessName: booking.businessName ?? '',
    firstName: booking.firstName,
    lastName: booking.lastName,
    email: booking.email,
    phone: booking.phone,
    quantity: booking.quantity,
    workType: booking.workType,
    locations,
    uploadedFiles: files.map((file) => ({ filename: file.fileName, originalName: file.originalName, fileSize: file.fileSize, mimeType: file.mimeType })),
  };
}
