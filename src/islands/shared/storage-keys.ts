// localStorage keys shared by the booking and checkout islands (public-site.md §3).

/** The booking the browser carries from /booking to /checkout and /payment-success. */
export const PENDING_BOOKING_KEY = 'pendingBooking';
/**
 * The success page removes pendingBooking (§3) but keeps this copy, so a reload still shows the
 * booking and a failed payment can be retried from /checkout.
 */
export const LAST_BOOKING_KEY = 'lastBooking';
