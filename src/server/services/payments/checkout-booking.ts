import { eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings } from '../../../../db/schema.ts';
import { PAYMENT_MESSAGES } from '../../../content/payment-messages.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';
import { notFound } from '../../api/errors.ts';
import { checkoutTokenMatches } from './checkout-token.ts';
import { isBookingId } from './payments.ts';

/** What /checkout shows beside the payment form: the fields the booking form would have stored. */
export interface CheckoutBooking {
  bookingId: number;
  firstName: string;
  lastName: string;
  businessName: string;
  quantity: string;
  preferredDate: string;
  locationAddress: string;
  workType: 'day' | 'night';
  /** Pounds, as the booking form stores it. */
  totalPrice: number;
}

/**
 * The booking a checkout link names, for the holder of its checkout token only: an unknown id,
 * a wrong token and a booking without a token all answer the same 404 as the payment call.
 */
export async function findCheckoutBooking(db: Database, bookingId: number, checkoutToken: string): Promise<CheckoutBooking> {
  const [booking] = isBookingId(bookingId) ? await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1) : [];
  if (!booking || !checkoutTokenMatches(booking.checkoutTokenHash, checkoutToken)) throw notFound(PAYMENT_MESSAGES.bookingNotFound);
  return {
    bookingId: booking.id,
    firstName: booking.firstName,
    lastName: booking.lastName,
    businessName: booking.businessName ?? '',
    quantity: String(booking.quantity),
    preferredDate: booking.preferredDate,
    locationAddress: booking.locationAddress,
    workType: booking.workType === 'night' ? 'night' : 'day',
    totalPrice: poundsFromPence(booking.totalPricePence),
  };
}
