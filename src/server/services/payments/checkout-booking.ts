import { eq } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings } from '../../../../db/schema.ts';
import { PAYMENT_MESSAGES } from '../../../content/payment-messages.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';
import { badRequest, conflict, notFound } from '../../app/errors.ts';
import { BOOKING_MESSAGES, isFromJulyOnwards } from '../../../domain/booking-schema.ts';
import { BOOKING_HORIZON_MESSAGE, isBeyondBookingHorizon } from '../../../domain/booking-horizon.ts';
import { moveBookingToDay, validateMoveDate } from '../schedule/move-booking.ts';
import { checkDateAvailability, lockDate } from '../bookings/availability.ts';
import { installationDay, londonDate } from '../../../domain/schedule.ts';
import { checkoutTokenMatches } from './checkout-token.ts';
import { isBookingId, type BookingRow } from './payments.ts';

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
  return checkoutSummary(await tokenHolders(db, bookingId, checkoutToken));
}

async function tokenHolders(db: Database, bookingId: number, checkoutToken: string): Promise<BookingRow> {
  const [booking] = isBookingId(bookingId) ? await db.select().from(bookings).where(eq(bookings.id, bookingId)).limit(1) : [];
  if (!booking || !checkoutTokenMatches(booking.checkoutTokenHash, checkoutToken)) throw notFound(PAYMENT_MESSAGES.bookingNotFound);
  return booking;
}

function checkoutSummary(booking: BookingRow): CheckoutBooking {
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

/**
 * Checkout's "choose another date" (the date was taken by a customer who paid first): the holder
 * of the checkout token moves their unpaid booking to `date`, under the same rule and date lock as
 * booking creation (moveBookingToDay: 409 when the day is closed or lacks room), with the updated
 * invite. A booking paid, being paid or cancelled keeps its date (409). Returns the new summary
 * and the invite e-mail to deliver after the commit.
 */
export async function changeCheckoutDate(
  db: Database,
  { bookingId, checkoutToken, date }: { bookingId: number; checkoutToken: string; date: unknown },
  context: { now: Date; capacity: number; siteUrl: string },
): Promise<{ booking: CheckoutBooking; mailKey: string | null }> {
  await tokenHolders(db, bookingId, checkoutToken);
  const day = validateMoveDate(date, context.now);
  // The customer chooses here as on the booking form, so the form's date rules hold too (a staff
  // move may place a booking anywhere from today; a customer may not reach past them this way).
  if (!isFromJulyOnwards(day)) throw badRequest(BOOKING_MESSAGES.preferredDateBeforeJuly, { date: BOOKING_MESSAGES.preferredDateBeforeJuly });
  if (isBeyondBookingHorizon(day, londonDate(context.now))) throw badRequest(BOOKING_HORIZON_MESSAGE, { date: BOOKING_HORIZON_MESSAGE });
  return db.transaction(async (tx) => {
    // The date's lock before the row's, the order every move keeps (moveBookingToDay).
    await lockDate(tx as unknown as Database, day);
    const [locked] = await tx.select().from(bookings).where(eq(bookings.id, bookingId)).for('update');
    if (locked!.paymentStatus === 'paid') throw conflict(PAYMENT_MESSAGES.alreadyPaid);
    if (locked!.paymentStatus === 'processing') throw conflict(PAYMENT_MESSAGES.alreadyProcessing);
    if (locked!.status === 'cancelled') throw conflict(PAYMENT_MESSAGES.cancelled);
    // The same date again moves nothing, so it is judged here: still taken is still a 409.
    if (installationDay(locked!) === day) {
      const room = await checkDateAvailability(tx as unknown as Database, { date: day, region: locked!.region, quantity: locked!.quantity, now: context.now, capacity: context.capacity, excludeBookingId: locked!.id });
      if (!room.available) throw conflict(PAYMENT_MESSAGES.dateNoLongerAvailable);
    }
    const moved = await moveBookingToDay(tx, bookingId, day, { ...context, actor: 'customer', cause: 'customer' });
    return { booking: checkoutSummary(moved.booking), mailKey: moved.mailKey };
  });
}
