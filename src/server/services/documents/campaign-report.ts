import { and, asc, eq } from 'drizzle-orm';
import { bookingLocations, bookings, crewStops, photos } from '../../../../db/schema.ts';
import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { haversineKm } from '../../../domain/routing.ts';
import type { AppDeps } from '../../app/deps.ts';
import { makeThumbnail, THUMBNAIL_LONG_SIDE } from '../files/image-clean.ts';
import { shownToCustomer } from '../projects/photo-visibility.ts';
import { sellerFromSettings } from './invoices.ts';
import { downloadName, INK, MUTED, PAGE, renderPdf, type Pdf } from './pdf.ts';

// The campaign report (api.md "Documents for business customers"): once the project is complete
// (step 5), a PDF for the customer's own client or manager. A cover (business, campaign dates,
// patches, locations), then each location with its address, the installation day and time and
// the after photos taken there, each with when and where the phone took it. Each photo is the
// server's own thumbnail of it (made from the cleaned pixels at upload: a JPEG with no EXIF), or,
// for a photo stored without one, a copy encoded here the same way; a few at a time.

/**
 * The long side of a photo encoded here, in pixels: the thumbnails' own size (THUMBNAIL_LONG_SIDE,
 * about 140 dpi at the width printed), so every photo in a report is alike and a report of 80
 * photos stays fast and small.
 */
export const REPORT_PHOTO_LONG_SIDE = THUMBNAIL_LONG_SIDE;
const PARALLEL_PHOTOS = 4;

type Deps = Pick<AppDeps, 'db' | 'files' | 'env' | 'log'>;

interface ReportPhoto {
  id: number;
  fileName: string;
  thumbnailFileName: string | null;
  description: string | null;
  takenAt: Date | null;
  lat: number | null;
  lng: number | null;
  accuracyM: number | null;
}

const TIME_IN_LONDON = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  weekday: 'short',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});

function when(instant: Date): string {
  return TIME_IN_LONDON.format(instant);
}

function where(photo: ReportPhoto): string {
  if (photo.lat === null || photo.lng === null) return 'Place not recorded';
  const accuracy = photo.accuracyM !== null ? ` (within ${Math.round(photo.accuracyM)} m)` : '';
  return `${photo.lat.toFixed(5)}, ${photo.lng.toFixed(5)}${accuracy}`;
}

/**
 * The report's photos: the 'after' photos the customer's tracking page shows (services/projects/
 * tracking.ts), so none staff hid from the customer, whoever downloads it.
 */
async function reportPhotos(deps: Deps, bookingId: number): Promise<ReportPhoto[]> {
  return deps.db
    .select({
      id: photos.id,
      fileName: photos.fileName,
      thumbnailFileName: photos.thumbnailFileName,
      description: photos.description,
      takenAt: photos.takenAt,
      lat: photos.lat,
      lng: photos.lng,
      accuracyM: photos.accuracyM,
    })
    .from(photos)
    .where(and(eq(photos.bookingId, bookingId), eq(photos.photoType, 'after'), shownToCustomer()))
    .orderBy(asc(photos.takenAt), asc(photos.createdAt), asc(photos.id));
}

/** Each photo re-encoded for the page; a file missing or unreadable is left out (and logged), not the report. */
async function encodePhotos(deps: Deps, rows: ReportPhoto[]): Promise<Map<number, Uint8Array>> {
  const encoded = new Map<number, Uint8Array>();
  let next = 0;
  const worker = async () => {
    while (next < rows.length) {
      const row = rows[next++]!;
      try {
        const thumbnail = row.thumbnailFileName ? await deps.files.get(row.thumbnailFileName) : null;
        if (thumbnail) {
          encoded.set(row.id, thumbnail.body);
          continue;
        }
        const stored = await deps.files.get(row.fileName);
        if (!stored) throw new Error('file missing');
        encoded.set(row.id, (await makeThumbnail(stored.body, 'photo', REPORT_PHOTO_LONG_SIDE)).bytes);
      } catch (error) {
        deps.log.warn('A photo was left out of a campaign report', { photoId: row.id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: PARALLEL_PHOTOS }, worker));
  return encoded;
}

/** The report's PDF and file name, or null before the project is complete (the route's 404). */
export async function campaignReport(deps: Deps, bookingId: number): Promise<{ bytes: Uint8Array; fileName: string } | null> {
  const [booking] = await deps.db.select().from(bookings).where(eq(bookings.id, bookingId));
  if (!booking || booking.currentStep < 5) return null;
  const locations = await deps.db.select().from(bookingLocations).where(eq(bookingLocations.bookingId, bookingId)).orderBy(asc(bookingLocations.position));
  const [stop] = await deps.db.select().from(crewStops).where(eq(crewStops.bookingId, bookingId)).orderBy(asc(crewStops.day)).limit(1);
  const rows = await reportPhotos(deps, bookingId);
  const images = await encodePhotos(deps, rows);

  // Locations as listed; a booking from before locations were kept has its joined address only.
  const places = locations.length
    ? locations.map((row) => ({ address: row.address, lat: row.lat, lng: row.lng }))
    : booking.locationAddress.split(';').map((address) => ({ address: address.trim(), lat: null as number | null, lng: null as number | null }));
  const byPlace = places.map(() => [] as ReportPhoto[]);
  // Each photo goes under the location nearest where it was taken.
  for (const photo of rows.filter((row) => images.has(row.id))) {
    let best = 0;
    if (photo.lat !== null && photo.lng !== null) {
      let bestDistance = Infinity;
      places.forEach((place, index) => {
        if (place.lat === null || place.lng === null) return;
        const distance = haversineKm({ lat: photo.lat!, lng: photo.lng! }, { lat: place.lat, lng: place.lng });
        if (distance < bestDistance) [best, bestDistance] = [index, distance];
      });
    }
    byPlace[best]!.push(photo);
  }

  const installed = stop?.doneAt ?? stop?.startedAt ?? booking.installationDate;
  const customer = booking.businessName ?? `${booking.firstName} ${booking.lastName}`;
  const seller = sellerFromSettings(deps.env);
  const bytes = await renderPdf({ title: `Campaign report, booking #${booking.id}`, author: seller.legalName }, (doc) => {
    drawCover(doc, {
      customer,
      bookingId: booking.id,
      patches: booking.quantity,
      installed,
      completed: booking.completionDate,
      places: places.map((place) => place.address),
      photoCount: images.size,
    });
    places.forEach((place, index) => {
      doc.addPage();
      doc.font('bold').fontSize(16).fillColor(INK).text(`Location ${index + 1} of ${places.length}`, PAGE.margin, PAGE.margin);
      doc.font('regular').fontSize(11).text(place.address, { width: PAGE.width - 2 * PAGE.margin });
      doc.fontSize(10).fillColor(MUTED).text(installed ? `Installed ${when(installed)}` : 'Installation time not recorded');
      drawPhotos(doc, byPlace[index]!, images);
    });
  });
  return { bytes, fileName: downloadName(`campaign-report-booking-${booking.id}.pdf`) };
}

function drawCover(
  doc: Pdf,
  facts: { customer: string; bookingId: number; patches: number; installed: Date | null; completed: Date | null; places: string[]; photoCount: number },
): void {
  const width = PAGE.width - 2 * PAGE.margin;
  doc.font('bold').fontSize(26).fillColor(INK).text('Campaign report', PAGE.margin, 120, { width });
  doc.font('regular').fontSize(14).fillColor(MUTED).text(`${BUSINESS.name} reverse graffiti for ${facts.customer}`, { width });
  doc.moveDown(2).fontSize(11).fillColor(INK);
  const line = (label: string, value: string) => {
    doc.font('bold').text(`${label}: `, { continued: true }).font('regular').text(value);
  };
  line('Booking', `#${facts.bookingId}`);
  line('Patches', String(facts.patches));
  line('Installed', facts.installed ? formatLongDate(facts.installed.toISOString()) : 'not recorded');
  line('Completed', facts.completed ? formatLongDate(facts.completed.toISOString()) : 'not recorded');
  line('Photos', String(facts.photoCount));
  doc.moveDown().font('bold').text(`Locations (${facts.places.length})`);
  doc.font('regular');
  facts.places.forEach((place, index) => doc.text(`${index + 1}. ${place}`, { width }));
}

/** Two photos a row, each with when and where it was taken beneath it. */
function drawPhotos(doc: Pdf, rows: ReportPhoto[], images: Map<number, Uint8Array>): void {
  if (!rows.length) {
    doc.moveDown().fontSize(10).fillColor(MUTED).text('No photos were taken at this location.');
    return;
  }
  const gap = 15;
  const cell = (PAGE.width - 2 * PAGE.margin - gap) / 2;
  const imageHeight = cell * 0.75;
  const blockHeight = imageHeight + 42;
  let y = doc.y + 14;
  rows.forEach((photo, index) => {
    const column = index % 2;
    if (column === 0 && y + blockHeight > PAGE.height - PAGE.margin) {
      doc.addPage();
      y = PAGE.margin;
    }
    const x = PAGE.margin + column * (cell + gap);
    doc.image(Buffer.from(images.get(photo.id)!), x, y, { fit: [cell, imageHeight], align: 'center', valign: 'center' });
    doc.font('regular').fontSize(8).fillColor(INK).text(photo.takenAt ? `Taken ${when(photo.takenAt)}` : 'Time not recorded', x, y + imageHeight + 4, {
      width: cell,
    });
    doc.fillColor(MUTED).text(where(photo), x, doc.y, { width: cell });
    if (column === 1 || index === rows.length - 1) y += blockHeight;
  });
  doc.x = PAGE.margin;
  doc.y = y;
}
