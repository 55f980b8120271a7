import { Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { api, ApiError } from '../shared/api.ts';
import { useEarlyInput } from '../shared/early-input.ts';
import { showToast } from '../shared/toast-store.ts';
import { Toaster } from '../shared/Toaster.tsx';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { PENDING_BOOKING_KEY } from '../shared/storage-keys.ts';
import { sendEvent, sendEventOnce } from '../../client/analytics.ts';
import {
  $isCustom,
  $locations,
  $uploads,
  $values,
  FILES_KEY,
  BOOKING_FAILED,
  BOOKING_FAILED_FALLBACK,
  DATE_UNAVAILABLE,
  LOCATION_REQUIRED,
  UPLOADS_RUNNING,
  attemptFor,
  buildPayload,
  buildPendingBooking,
  isDateUnavailable,
  isOnlyLocationMissing,
  pickKnown,
  reconcileErrors,
  setField,
  standingRefusal,
  uploadedFilesOf,
  withLocationCheck,
  type BookingAnswer,
  type FieldName,
  type FormErrors,
  type FormValues,
  type IdempotencyAttempt,
  type Refusal,
} from './booking-store.ts';
import { FormSection } from './Field.tsx';
import { QuantityPicker } from './QuantityPicker.tsx';
import { UploadField } from './UploadField.tsx';
import { BookingSummaryPanel, MobileTotalBar } from './BookingSummaryPanel.tsx';
import { ErrorSummary } from './ErrorSummary.tsx';
import { LocationFields } from './LocationFields.tsx';
import { WorkTypeChoice } from './WorkTypeChoice.tsx';
import { PersonalFields } from './PersonalFields.tsx';
import { DateField } from './DateField.tsx';
import { BookingConfirmation, adoptEarlyInput, loadValidation, loadedValidation } from './form-loading.ts';
import { RebookNote, useRebook } from './RebookNote.tsx';
import { useBookingDates } from './use-booking-dates.ts';

// The booking form island (public-site.md §2 "Booking", §4-§8): six numbered sections, the
// Booking Summary, errors beside each field and in a summary at the top (GOV.UK pattern), the
// spec's toasts, then the confirmation screen and /checkout.

export interface BookingFormProps {
  tileUrl: string;
  attribution: string;
  /** Set at build time when files go straight to Uploadcare (production on Netlify). */
  uploadcarePublicKey?: string;
  /** How long the confirmation shows before /checkout opens. */
  redirectDelayMs?: number;
}

function BookingForm({ tileUrl, attribution, uploadcarePublicKey, redirectDelayMs = 1200 }: BookingFormProps) {
  const values = useStore($values);
  const isCustom = useStore($isCustom);
  const uploads = useStore($uploads);
  const locations = useStore($locations);
  const [errors, setErrors] = useState<FormErrors>({});
  const [focusSummary, setFocusSummary] = useState(0);
  const [isSubmitting, setIsSubmitting] = useState(false);
  const [confirmedId, setConfirmedId] = useState<number | string | null>(null);
  const attempt = useRef<IdempotencyAttempt | null>(null);
  const isSubmittingRef = useRef(false);
  const refusal = useRef<Refusal | null>(null);
  // The server refused the date as full and the form emptied it: the field says why it is empty.
  const clearedFullDate = useRef(false);
  const { unavailableDates, setUnavailableDates, minDate, maxDate } = useBookingDates(clearedFullDate);
  const form = useRef<HTMLFormElement>(null);
  useEarlyInput(form, adoptEarlyInput);

  const rebooked = useRebook();

  // After a failed submit, errors disappear as they are fixed.
  useEffect(() => {
    setErrors((shown) => (Object.keys(shown).length ? reconcileErrors(shown, liveErrors()) : shown));
  }, [values, uploads, locations, unavailableDates]);

  /** Everything that stops a submit: the §5 table, the map, running uploads, the server's last word on the date. */
  function liveErrors(): FormErrors {
    const current = $values.get();
    // Errors are only shown after a submit, which waits for the checks, so they are here by then.
    const found = { ...standingRefusal(refusal.current, current), ...(loadedValidation()?.validateForm(current) ?? {}) };
    // Only a date the server refused can still be in the field: choosing one clears it.
    if (!found.preferredDate && isDateUnavailable(current.preferredDate, unavailableDates)) {
      found.preferredDate = DATE_UNAVAILABLE.description;
    }
    if (!current.preferredDate && clearedFullDate.current) found.preferredDate = DATE_UNAVAILABLE.description;
    if ($uploads.get().some((item) => item.status === 'uploading')) found[FILES_KEY] = UPLOADS_RUNNING;
    return withLocationCheck(found, $locations.get().length);
  }

  function change<K extends FieldName>(name: K) {
    return (event: { target: { value: string } }) => setField(name, event.target.value as (typeof values)[K]);
  }

  function onDateChange(date: string) {
    if (isDateUnavailable(date, unavailableDates)) {
      setField('preferredDate', '');
      showToast({ ...DATE_UNAVAILABLE, variant: 'destructive' });
      return;
    }
    clearedFullDate.current = false;
    setField('preferredDate', date);
  }

  function showErrors(found: FormErrors) {
    setErrors(found);
    setFocusSummary((count) => count + 1);
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (isSubmittingRef.current) return;
    if (!loadedValidation()) {
      try {
        await loadValidation();
      } catch {
        showToast({ title: BOOKING_FAILED, description: BOOKING_FAILED_FALLBACK, variant: 'destructive' });
        return;
      }
      // A second press while the checks loaded: the first submit goes ahead, this one stops.
      if (isSubmittingRef.current) return;
    }

    const found = liveErrors();
    if (Object.keys(found).length) {
      // The spec's toast (§5) when the map is all that is missing; the summary lists it either way.
      if (isOnlyLocationMissing(found)) showToast({ ...LOCATION_REQUIRED, variant: 'destructive' });
      return showErrors(found);
    }

    setErrors({});
    const locations = $locations.get();
    const formValues = $values.get();
    const payload = buildPayload(formValues, locations, uploadedFilesOf($uploads.get()));
    attempt.current = attemptFor(attempt.current, JSON.stringify(payload), () => crypto.randomUUID());
    isSubmittingRef.current = true;
    setIsSubmitting(true);
    try {
      const answer = await api<BookingAnswer>('/api/bookings', {
        body: payload,
        headers: { 'Idempotency-Key': attempt.current.key },
      });
      sendEvent('booking_submitted');
      const pending = buildPendingBooking(formValues, locations, answer ?? {});
      localStorage.setItem(PENDING_BOOKING_KEY, JSON.stringify(pending));
      showToast({
        title: 'Booking Submitted Successfully!',
        description: "We'll send you a confirmation email shortly.",
        variant: 'success',
      });
      setConfirmedId(pending.bookingId);
      window.scrollTo({ top: 0 });
      setTimeout(() => window.location.assign('/checkout'), redirectDelayMs);
    } catch (failure) {
      isSubmittingRef.current = false;
      setIsSubmitting(false);
      handleFailure(failure, formValues);
    }
  }

  function handleFailure(failure: unknown, { preferredDate: date, quantity }: FormValues) {
    // Only the server's 'Date Unavailable' marks the date; other 409s (an Idempotency-Key
    // reused or still in progress) say nothing about the calendar. A date booked up while the
    // form was open gets the same toast and the same cleared field as a date known to be full
    // (public-site.md §8, "Date fully booked").
    if (failure instanceof ApiError && failure.status === 409 && failure.message === DATE_UNAVAILABLE.title && date) {
      showToast({ ...DATE_UNAVAILABLE, variant: 'destructive' });
      setUnavailableDates((dates) => (dates.includes(date) ? dates : [...dates, date]));
      clearedFullDate.current = true;
      setField('preferredDate', '');
      showErrors({ preferredDate: DATE_UNAVAILABLE.description });
      return;
    }
    const message = failure instanceof ApiError ? failure.message : BOOKING_FAILED_FALLBACK;
    showToast({ title: BOOKING_FAILED, description: message || BOOKING_FAILED_FALLBACK, variant: 'destructive' });
    if (!(failure instanceof ApiError)) return;
    const fields = pickKnown(failure.fields);
    if (!Object.keys(fields).length) return;
    // A day with too little room, or more patches than any day takes: said beside the date or
    // the quantity, and the date stays choosable.
    if (failure.status === 409) refusal.current = { preferredDate: date, quantity, errors: fields };
    showErrors(fields);
  }

  if (confirmedId !== null) {
    return (
      <>
        <Suspense fallback={null}>
          <BookingConfirmation bookingId={confirmedId} />
        </Suspense>
        <Toaster />
      </>
    );
  }

  return (
    <>
      <ErrorSummary errors={errors} isCustom={isCustom} focusRequest={focusSummary} />

      <RebookNote rebooked={rebooked} />

      <form ref={form} noValidate onSubmit={onSubmit} onInputCapture={() => sendEventOnce('booking_started')}
        onFocusCapture={() => void loadValidation().catch(() => {})} aria-label="Booking form" className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="min-w-0 space-y-6">
          <FormSection number={1} title="Personal Information">
            <PersonalFields values={values} errors={errors} change={change} />
          </FormSection>

          <FormSection number={2} title="Select Date">
            <DateField value={values.preferredDate} min={minDate} max={maxDate} error={errors.preferredDate} onChange={onDateChange} />
          </FormSection>

          <FormSection number={3} title="Work Type">
            <WorkTypeChoice value={values.workType} error={errors.workType} />
          </FormSection>

          <FormSection number={4} title="Patch Quantity">
            <QuantityPicker error={errors.quantity} />
          </FormSection>

          <FormSection number={5} title="Upload Branding Assets">
            <UploadField uploadcarePublicKey={uploadcarePublicKey} error={errors[FILES_KEY]} />
          </FormSection>

          <FormSection number={6} title="Location and Instructions">
            <LocationFields
              tileUrl={tileUrl}
              attribution={attribution}
              errors={errors}
              address={values.locationAddress}
              instructions={values.specialInstructions ?? ''}
              onAddressChange={change('locationAddress')}
              onInstructionsChange={change('specialInstructions')}
            />
          </FormSection>
        </div>

        <div className="lg:sticky lg:top-24">
          <BookingSummaryPanel isSubmitting={isSubmitting} />
        </div>
      </form>
      <MobileTotalBar />
      <Toaster />
    </>
  );
}

export default withErrorBoundary(BookingForm);
