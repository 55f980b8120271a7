// localStorage keys shared by the booking and checkout islands (public-site.md §3).

/** The booking the browser carries from /booking to /checkout and /payment-success. */
export const PENDING_BOOKING_KEY = 'pendingBooking';
/**
 * The success page removes pendingBooking (§3) but keeps this copy, so a reload still shows the
 * booking and a failed payment can be retried from /checkout.
 */
export const LAST_BOOKING_KEY = 'lastBooking';

/**
 * /crew: the worker's crew link (taken from the address, which is then cleaned) and the last day
 * it showed, so a reload or a page opened without signal still shows the stops. The link ends by
 * itself at noon the next day (the server answers 410) and staff can revoke it.
 */
export const CREW_LINK_KEY = 'crewLink';
export const CREW_DAY_KEY = 'crewDay';
