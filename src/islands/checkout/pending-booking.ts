import * as z from '../../domain/zod.ts';
import { MAX_BOOKING_ID } from '../../domain/booking-limits.ts';
import { BUSINESS_PATCHES, STARTER_PATCHES, formatPounds, penceFromPounds } from '../../domain/pricing.ts';
import { LAST_BOOKING_KEY, PENDING_BOOKING_KEY } from '../shared/storage-keys.ts';

// The booking the browser carries from /booking to /checkout and /payment-success
// (public-site.md §3, "Pending booking"): the form values, totalPrice in pounds, the server's
// bookingId (or a timestamp when the server gave none) and the joined location addresses.

export { LAST_BOOKING_KEY, PENDING_BOOKING_KEY };

const text = z.string().trim().max(2000);

export const pendingBookingSchema = z.object({
  bookingId: z.union([z.number(), z.string().trim().min(1)]),
  firstName: text.optional(),
  lastName: text.optional(),
  businessName: text.optional(),
  email: text.optional(),
  // The form keeps the quantity as text; accept a number too.
  quantity: z.union([z.string().trim(), z.number()]).transform(String),
  preferredDate: text.optional().default(''),
  locationAddress: text.optional().default(''),
  workType: z.enum(['day', 'night']).catch('day').default('day'),
  totalPrice: z.coerce.number().nonnegative().catch(0),
  // The server's checkout token (POST /api/bookings): required to start the payment.
  checkoutToken: z.string().trim().min(1).max(200).optional().catch(undefined),
});

export type PendingBooking = z.infer<typeof pendingBookingSchema>;

/**
 * The booking id and checkout token a confirmation e-mail's link carries
 * (`/checkout?booking=12&t=…`), or null when the address has none.
 */
export function checkoutLinkFrom(search: string): { bookingId: number; checkoutToken: string } | null {
  const params = new URLSearchParams(search);
  const bookingId = Number(params.get('booking'));
  const checkoutToken = params.get('t')?.trim() ?? '';
  if (!Number.isSafeInteger(bookingId) || bookingId < 1 || bookingId > MAX_BOOKING_ID) return null;
  if (checkoutToken.length === 0 || checkoutToken.length > 200) return null;
  return { bookingId, checkoutToken };
}

/** Reads and validates a stored booking; anything unreadable counts as no booking. */
export function parsePendingBooking(raw: string | null): PendingBooking | null {
  if (!raw) return null;
  try {
    const parsed = pendingBookingSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export function readStoredBooking(key: string, storage: Pick<Storage, 'getItem'> = localStorage): PendingBooking | null {
  try {
    return parsePendingBooking(storage.getItem(key));
  } catch {
    // Storage can be switched off (private modes, policies): the page then says there is no booking.
    return null;
  }
}

/** The id the server can look up, or null for the timestamp the form stores when it had none. */
export function serverBookingId(booking: PendingBooking): number | null {
  const id = Number(booking.bookingId);
  return Number.isSafeInteger(id) && id > 0 && id <= MAX_BOOKING_ID ? id : null;
}

/**
 * The checkout's service name (public-site.md §2, "Checkout"): 'Test Item' for quantity '1',
 * otherwise '{product} Reverse Graffiti'. The spec leaves {product} open; it is the plan whose
 * price band the quantity falls in (section 9): 5 → Starter Pack, 6-10 → Business Pack, more
 * than 10 → Custom. Any other count (2-4, which the form does not allow) is priced per patch
 * like Custom, so it is named Custom too.
 */
export function serviceName(quantity: string): string {
  if (quantity.trim() === '1') return 'Test Item';
  return `${productName(Number(quantity))} Reverse Graffiti`;
}

export function productName(patches: number): 'Starter Pack' | 'Business Pack' | 'Custom' {
  if (patches === STARTER_PATCHES) return 'Starter Pack';
  if (patches > STARTER_PATCHES && patches <= BUSINESS_PATCHES) return 'Business Pack';
  return 'Custom';
}

export const WORK_TYPE_LABEL = { day: 'Day', night: 'Night' } as const;

/** '£799' from the stored total in pounds. */
export function formatTotal(pounds: number): string {
  return formatPounds(penceFromPounds(pounds));
}

/**
 * The success page's hand-over (§3: it "removes" pendingBooking): the booking moves to
 * lastBooking, so a reload still shows it. Returns what was stored, from either key.
 */
export function takePendingBooking(storage: Storage = localStorage): PendingBooking | null {
  try {
    const raw = storage.getItem(PENDING_BOOKING_KEY);
    if (raw !== null) {
      storage.setItem(LAST_BOOKING_KEY, raw);
      storage.removeItem(PENDING_BOOKING_KEY);
      return parsePendingBooking(raw);
    }
    return parsePendingBooking(storage.getItem(LAST_BOOKING_KEY));
  } catch {
    return null;
  }
}

/** After a failed payment: puts the booking back so /checkout can take the payment again. */
export function restorePendingBooking(storage: Storage = localStorage): void {
  try {
    const raw = storage.getItem(LAST_BOOKING_KEY);
    if (raw !== null) storage.setItem(PENDING_BOOKING_KEY, raw);
  } catch {
    /* storage unavailable: the checkout link then explains there is no booking */
  }
}
