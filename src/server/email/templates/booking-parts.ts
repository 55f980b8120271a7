import { BUSINESS } from '../../../content/business.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { splitAddresses } from '../../../domain/booking-limits.ts';

// Pieces of a booking that several customer and staff e-mails show the same way.

export interface BookingEmailContext {
  booking: BookingRow;
  /** The addresses of the selected map locations, in order. */
  addresses: string[];
  /** Original names of the attached files. */
  fileNames: string[];
  siteUrl: string;
  /** The booking's own magic link to its tracking page, when one was issued. */
  trackingUrl?: string;
  /** The booking's checkout link (services/payments/checkout-token.ts), when the plain token is at hand. */
  checkoutUrl?: string;
}

export function workTypeLabel(workType: BookingRow['workType']): string {
  return workType === 'night' ? `Night (${BUSINESS.workingHours.night})` : `Day (${BUSINESS.workingHours.day})`;
}

/** The booking's addresses as stored. */
export function storedAddresses(booking: Pick<BookingRow, 'locationAddress'>): string[] {
  return splitAddresses(booking.locationAddress);
}

export function addressesOf({ booking, addresses }: Pick<BookingEmailContext, 'booking' | 'addresses'>): string[] {
  return addresses.length > 0 ? addresses : storedAddresses(booking);
}

/** When the crew works, as a phrase: 'during the day, 9am - 5pm'. */
export function installationHours(workType: BookingRow['workType']): string {
  return workType === 'night' ? `overnight, ${BUSINESS.workingHours.night}` : `during the day, ${BUSINESS.workingHours.day}`;
}

/**
 * How to reach the tracking page: the booking's own magic link first when it has one, and the
 * spec's e-mail + booking ID way always (the link may be lost, and it ends if the data is erased).
 */
export function trackingLines(booking: Pick<BookingRow, 'id' | 'email'>, trackUrl: string, trackingUrl?: string): string[] {
  const byForm = `visit ${trackUrl} and enter your e-mail address (${booking.email}) and your booking ID (${booking.id}).`;
  return trackingUrl
    ? [`Follow your project and see its photos (this link is yours: please do not share it):`, trackingUrl, `Or ${byForm}`]
    : [`${byForm.charAt(0).toUpperCase()}${byForm.slice(1)}`];
}
