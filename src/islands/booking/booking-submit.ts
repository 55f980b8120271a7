import type { BookingFormValues, BookingPayloadInput, UploadedFile } from '../../domain/booking-schema.ts';
import { ERROR_ORDER, LOCATIONS_KEY, type ErrorKey, type FormErrors } from './booking-fields.ts';
import { type SelectedLocation, joinAddresses, toCoordinates } from './booking-locations.ts';
import { displayTotalPence } from './booking-summary.ts';

// Errors shown on submit, the payload sent and what the answer becomes.
// Part of the booking form's client state (booking-store.ts).

// validateForm lives in form-validation.ts: it needs zod, which the form loads on first use.

/** Maps a 400 answer's `fields` onto the form's own keys, ignoring anything the form cannot show. */
export function pickKnown(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const key of ERROR_ORDER) {
    const message = fields[key];
    if (message) errors[key] = message;
  }
  return errors;
}

export function orderedErrors(errors: FormErrors): { key: ErrorKey; message: string }[] {
  return ERROR_ORDER.flatMap((key) => {
    const message = errors[key];
    return message ? [{ key, message }] : [];
  });
}

/** The spec's words for a date that is full (§8), a refused submit and files still uploading. */
export const DATE_UNAVAILABLE = { title: 'Date Unavailable', description: 'This date is fully booked. Please select another date.' };
export const BOOKING_FAILED = 'Booking Failed';
export const BOOKING_FAILED_FALLBACK = 'There was an error submitting your booking.';
export const UPLOADS_RUNNING = 'Please wait until your files have finished uploading';

/** The spec's words when no pin is placed (§5, §8). */
export const LOCATION_REQUIRED = { title: 'Location Required', description: 'Please select at least one location on the map.' };

/**
 * Adds the map to the form's errors when no pin is placed. The pins fill the location field, so
 * without one that field is empty too; one pin fixes both, and the summary lists the map once.
 */
export function withLocationCheck(errors: FormErrors, locationCount: number): FormErrors {
  if (locationCount > 0) return errors;
  const found: FormErrors = { ...errors, [LOCATIONS_KEY]: LOCATION_REQUIRED.description };
  delete found.locationAddress;
  return found;
}

/** True when a missing pin is the only thing stopping the booking. */
export function isOnlyLocationMissing(errors: FormErrors): boolean {
  const keys = Object.keys(errors);
  return keys.length === 1 && keys[0] === LOCATIONS_KEY;
}

/** A 409 whose fields say how to fit the booking (a day with too little room), and what it judged. */
export interface Refusal {
  preferredDate: string;
  quantity: string;
  errors: FormErrors;
}

/**
 * Only the server knows a day's room, so its answer stands while the date and quantity it judged
 * are unchanged, and goes as soon as either changes.
 */
export function standingRefusal(refusal: Refusal | null, values: Pick<BookingFormValues, 'preferredDate' | 'quantity'>): FormErrors {
  if (!refusal || refusal.preferredDate !== values.preferredDate || refusal.quantity !== values.quantity) return {};
  return refusal.errors;
}

/**
 * After a failed submit, fixing a field removes its error at once, but new errors only appear on
 * the next submit (the GOV.UK pattern: the summary does not grow while someone types).
 */
export function reconcileErrors(shown: FormErrors, current: FormErrors): FormErrors {
  const next: FormErrors = {};
  for (const key of Object.keys(shown) as ErrorKey[]) {
    const message = current[key];
    if (message) next[key] = message;
  }
  return next;
}

export function buildPayload(
  values: BookingFormValues,
  locations: readonly SelectedLocation[],
  files: readonly UploadedFile[],
): BookingPayloadInput & { businessName: string } {
  const quantity = Number(values.quantity);
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    businessName: values.businessName.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    preferredDate: values.preferredDate,
    quantity,
    locationAddress: values.locationAddress.trim(),
    specialInstructions: values.specialInstructions?.trim() ?? '',
    // Display only: the server prices the booking itself (api.md).
    totalPrice: displayTotalPence(values) / 100,
    locationCoordinates: toCoordinates(locations),
    workType: values.workType,
    uploadedFiles: [...files],
  };
}

export interface IdempotencyAttempt {
  key: string;
  body: string;
}

/**
 * One Idempotency-Key per booking attempt: a retry or a double click of the same booking reuses
 * it; a changed booking (after fixing an error) is a new attempt with a new key.
 */
export function attemptFor(previous: IdempotencyAttempt | null, body: string, newKey: () => string): IdempotencyAttempt {
  return previous && previous.body === body ? previous : { key: newKey(), body };
}

export interface BookingAnswer {
  id?: number | string;
  totalPrice?: number;
  /** Proves to POST /api/create-payment-intent that this browser made the booking. */
  checkoutToken?: string;
}

/** localStorage `pendingBooking` (§3): the form values, the server's price and id, the joined addresses. */
export function buildPendingBooking(
  values: BookingFormValues,
  locations: readonly SelectedLocation[],
  answer: BookingAnswer,
  now: () => number = Date.now,
) {
  return {
    ...values,
    totalPrice: typeof answer.totalPrice === 'number' ? answer.totalPrice : displayTotalPence(values) / 100,
    bookingId: answer.id ?? now(),
    ...(typeof answer.checkoutToken === 'string' ? { checkoutToken: answer.checkoutToken } : {}),
    locationAddress: joinAddresses(locations),
  };
}
