import { bookingFormSchema, fieldErrors, type BookingFormValues } from '../../domain/booking-schema.ts';
import { pickKnown, type FormErrors } from './booking-store.ts';

// The booking form's field checks: the shared zod schema (public-site.md §5 messages). Kept out of
// the form's first bundle (zod is about 24 KB compressed); BookingForm loads it when someone
// first focuses the form, and a submit waits for it.

/** The form's errors, one message per field, in page order (§5 messages come from the schema). */
export function validateForm(values: BookingFormValues): FormErrors {
  const parsed = bookingFormSchema.safeParse(values);
  if (parsed.success) return {};
  return pickKnown(fieldErrors(parsed.error));
}
