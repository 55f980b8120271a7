import { Suspense, lazy, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useStore } from '@nanostores/react';
import { api, ApiError } from '../shared/api.ts';
import { useEarlyInput } from '../shared/early-input.ts';
import { showToast } from '../shared/toast-store.ts';
import { Toaster } from '../shared/Toaster.tsx';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { PENDING_BOOKING_KEY } from '../shared/storage-keys.ts';
import { sendEvent, sendEventOnce } from '../../client/analytics.ts';
import { NIGHT_SURCHARGE_PER_PATCH_PENCE, WORK_TYPES, formatPounds } from '../../domain/pricing.ts';
import { latestBookingDate } from '../../domain/booking-horizon.ts';
import {
  $isCustom,
  $locations,
  $uploads,
  $values,
  FILES_KEY,
  LOCATIONS_KEY,
  LOCATION_REQUIRED,
  WORK_TYPE_LABELS,
  attemptFor,
  buildPayload,
  chooseTile,
  buildPendingBooking,
  earliestBookingDate,
  isDateUnavailable,
  isOnlyLocationMissing,
  localIsoDate,
  orderedErrors,
  parseUnavailableDates,
  pickKnown,
  reconcileErrors,
  setField,
  standingRefusal,
  uploadedFilesOf,
  withLocationCheck,
  type BookingAnswer,
  type ErrorKey,
  type FieldName,
  type FormErrors,
  type FormValues,
  type IdempotencyAttempt,
  type Refusal,
} from './booking-store.ts';
import { Field, FieldError, INPUT_CLASS, SectionHeading, controlId } from './Field.tsx';
import { QuantityPicker, tileControlId } from './QuantityPicker.tsx';
import { UploadField } from './UploadField.tsx';
import { LocationPicker } from './LocationPicker.tsx';
import { BookingSummaryPanel, MobileTotalBar } from './BookingSummaryPanel.tsx';

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

const DATE_UNAVAILABLE = { title: 'Date Unavailable', description: 'This date is fully booked. Please select another date.' };
const BOOKING_FAILED = 'Booking Failed';
const BOOKING_FAILED_FALLBACK = 'There was an error submitting your booking.';
const UPLOADS_RUNNING = 'Please wait until your files have finished uploading';

// The confirmation screen shows after a successful submit; it comes with the checks.
const loadConfirmation = () => import('./BookingConfirmation.tsx');
const BookingConfirmation = lazy(() => loadConfirmation().then((module) => ({ default: module.BookingConfirmation })));

type Validation = typeof import('./form-validation.ts');
let validation: Validation | undefined;
let validationLoad: Promise<Validation> | undefined;

/**
 * The field checks need zod, a fifth of the form's code: they load when someone first focuses the
 * form (long before they can submit it) rather than with the page. A failed load is tried again.
 */
function loadValidation(): Promise<Validation> {
  void loadConfirmation().catch(() => {});
  validationLoad ??= import('./form-validation.ts').then(
    (module) => (validation = module),
    (error: unknown) => {
      validationLoad = undefined;
      throw error;
    },
  );
  return validationLoad;
}

const TEXT_FIELDS = ['firstName', 'lastName', 'businessName', 'email', 'phone', 'preferredDate', 'locationAddress', 'specialInstructions'] as const;

/**
 * What was typed or chosen before the form hydrated goes into the stores, so the summary, the
 * checks and the next render know it (shared/early-input.ts). The date is checked against the
 * fully booked days when their list arrives, as a restored one is.
 */
function adoptEarlyInput(typed: Record<string, string>): void {
  for (const name of TEXT_FIELDS) if (typed[name] !== undefined) setField(name, typed[name]);
  const workType = typed.workType;
  if (workType && (WORK_TYPES as readonly string[]).includes(workType)) setField('workType', workType as FormValues['workType']);
  const tile = typed['quantity-tile'];
  if (tile === '5' || tile === '10' || tile === 'custom') chooseTile(tile);
}

/** Where each error in the summary takes the person. */
function targetIdFor(key: ErrorKey, isCustom: boolean): string {
  if (key === 'workType') return controlId('workType-day');
  if (key === 'quantity') return isCustom ? controlId('quantity') : tileControlId('5');
  if (key === LOCATIONS_KEY) return controlId('location-search');
  if (key === FILES_KEY) return controlId('files');
  return controlId(key);
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
  const [unavailableDates, setUnavailableDates] = useState<string[]>([]);
  // Computed after hydration so the server-rendered HTML never carries a stale build-day date.
  const [minDate, setMinDate] = useState<string | undefined>(undefined);
  const [maxDate, setMaxDate] = useState<string | undefined>(undefined);
  const attempt = useRef<IdempotencyAttempt | null>(null);
  const isSubmittingRef = useRef(false);
  const refusal = useRef<Refusal | null>(null);
  // The server refused the date as full and the form emptied it: the field says why it is empty.
  const clearedFullDate = useRef(false);
  const errorSummary = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEarlyInput(form, adoptEarlyInput);

  useEffect(() => {
    setMinDate(earliestBookingDate(new Date()));
    setMaxDate(latestBookingDate(localIsoDate(new Date())));
    const controller = new AbortController();
    api<unknown>('/api/bookings/unavailable-dates', { signal: controller.signal })
      .then((answer) => {
        const dates = parseUnavailableDates(answer);
        setUnavailableDates(dates);
        // A date typed (or restored from a draft) before the list arrived is treated as if it
        // had just been picked: emptied, with the same toast and the field saying why.
        if (isDateUnavailable($values.get().preferredDate, dates)) {
          clearedFullDate.current = true;
          setField('preferredDate', '');
          showToast({ ...DATE_UNAVAILABLE, variant: 'destructive' });
        }
      })
      .catch(() => {
        /* The list defaults to empty (§7); the server still refuses a full date with 409. */
      });
    return () => controller.abort();
  }, []);

  // After a failed submit, errors disappear as they are fixed.
  useEffect(() => {
    setErrors((shown) => (Object.keys(shown).length ? reconcileErrors(shown, liveErrors()) : shown));
  }, [values, uploads, locations, unavailableDates]);

  useEffect(() => {
    if (focusSummary) errorSummary.current?.focus();
  }, [focusSummary]);

  /** Everything that stops a submit: the §5 table, the map, running uploads, the server's last word on the date. */
  function liveErrors(): FormErrors {
    const current = $values.get();
    // Errors are only shown after a submit, which waits for the checks, so they are here by then.
    const found = { ...standingRefusal(refusal.current, current), ...(validation?.validateForm(current) ?? {}) };
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
    if (!validation) {
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

  const listed = orderedErrors(errors);

  return (
    <>
      {listed.length > 0 && (
        <div
          ref={errorSummary}
          tabIndex={-1}
          aria-labelledby="booking-error-summary-title"
          className="mb-8 rounded-2xl border-4 border-danger-600 bg-white p-5 focus:outline-3 focus:outline-offset-3 focus:outline-ink sm:p-6"
        >
          <h2 id="booking-error-summary-title" className="text-xl">
            There is a problem
          </h2>
          <ul className="mt-3 space-y-1.5">
            {listed.map(({ key, message }) => (
              <li key={key}>
                <a
                  href={`#${targetIdFor(key, isCustom)}`}
                  className="inline-flex min-h-8 items-center font-semibold text-danger-600 underline underline-offset-4 hover:decoration-2"
                  onClick={(event) => {
                    const target = document.getElementById(targetIdFor(key, isCustom));
                    if (!target) return;
                    event.preventDefault();
                    target.focus({ preventScroll: true });
                    (target.closest('[data-field]') ?? target).scrollIntoView({ block: 'start' });
                  }}
                >
                  {message}
                </a>
              </li>
            ))}
          </ul>
        </div>
      )}

      <form ref={form} noValidate onSubmit={onSubmit} onInputCapture={() => sendEventOnce('booking_started')}
        onFocusCapture={() => void loadValidation().catch(() => {})} aria-label="Booking form" className="grid gap-8 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="min-w-0 space-y-6">
          <FormSection number={1} title="Personal Information">
            <div className="grid gap-5 sm:grid-cols-2">
              <Field name="firstName" label="First name" error={errors.firstName}>
                {(control) => <input {...control} className={INPUT_CLASS} autoComplete="given-name" value={values.firstName} onChange={change('firstName')} />}
              </Field>
              <Field name="lastName" label="Last name" error={errors.lastName}>
                {(control) => <input {...control} className={INPUT_CLASS} autoComplete="family-name" value={values.lastName} onChange={change('lastName')} />}
              </Field>
              <Field name="businessName" label="Business name" error={errors.businessName} className="sm:col-span-2">
                {(control) => <input {...control} className={INPUT_CLASS} autoComplete="organization" value={values.businessName} onChange={change('businessName')} />}
              </Field>
              <Field name="email" label="Email" hint="We send your booking confirmation here." error={errors.email}>
                {(control) => (
                  <input {...control} type="email" className={INPUT_CLASS} autoComplete="email" spellCheck={false} value={values.email} onChange={change('email')} />
                )}
              </Field>
              <Field name="phone" label="Phone number" hint="So the crew can reach you on the day." error={errors.phone}>
                {(control) => <input {...control} type="tel" className={INPUT_CLASS} autoComplete="tel" value={values.phone} onChange={change('phone')} />}
              </Field>
            </div>
          </FormSection>

          <FormSection number={2} title="Select Date">
            <Field
              name="preferredDate"
              label="Preferred date"
              hint="Bookings are available from 1 July. Fully booked dates cannot be chosen."
              error={errors.preferredDate}
              className="max-w-sm"
            >
              {(control) => (
                <input
                  {...control}
                  type="date"
                  className={INPUT_CLASS}
                  min={minDate}
                  max={maxDate}
                  value={values.preferredDate}
                  onChange={(event) => onDateChange(event.target.value)}
                />
              )}
            </Field>
          </FormSection>

          <FormSection number={3} title="Work Type">
            <FieldError name="workType" error={errors.workType} />
            <div
              role="radiogroup"
              aria-labelledby="booking-section-3"
              aria-describedby={errors.workType ? 'booking-workType-error' : undefined}
              className="grid gap-3 sm:grid-cols-2"
            >
              {WORK_TYPES.map((type) => {
                const label = WORK_TYPE_LABELS[type];
                const isChecked = values.workType === type;
                return (
                  <label
                    key={type}
                    className={`flex min-h-11 cursor-pointer items-start gap-3 rounded-2xl border-2 p-4 transition-colors ${
                      isChecked ? 'border-ink bg-accent-50' : 'border-concrete-200 bg-white hover:border-concrete-400'
                    }`}
                  >
                    <input
                      type="radio"
                      name="workType"
                      id={controlId(`workType-${type}`)}
                      value={type}
                      checked={isChecked}
                      onChange={() => setField('workType', type)}
                      className="mt-1 size-5 shrink-0 accent-ink"
                    />
                    <span className="flex flex-col">
                      <span className="text-lg font-semibold">
                        {label.name} work <span className="font-normal text-concrete-700">{label.hours}</span>
                      </span>
                      <span className="text-sm text-concrete-600">
                        {type === 'night'
                          ? `+${formatPounds(NIGHT_SURCHARGE_PER_PATCH_PENCE)} per patch`
                          : 'Included in the price'}
                      </span>
                    </span>
                  </label>
                );
              })}
            </div>
          </FormSection>

          <FormSection number={4} title="Patch Quantity">
            <QuantityPicker error={errors.quantity} />
          </FormSection>

          <FormSection number={5} title="Upload Branding Assets">
            <UploadField uploadcarePublicKey={uploadcarePublicKey} error={errors[FILES_KEY]} />
          </FormSection>

          <FormSection number={6} title="Location and Instructions">
            <div className="rounded-2xl bg-accent-50 p-4 text-[0.95rem] text-concrete-800">
              <p className="font-semibold text-ink">How to choose your locations</p>
              <ul className="mt-2 list-disc space-y-1 pl-5">
                <li>Add a pin for each place you would like a patch: search above the map, click the map, or move the map and add a pin at its centre.</li>
                <li>The minimum order is 5 patches, so up to 5 locations are covered by the 5-patch pack.</li>
                <li>Pick busy, naturally dirty pavements; sealed or freshly cleaned paving will not show the design.</li>
              </ul>
            </div>
            <div className="mt-5">
              <LocationPicker tileUrl={tileUrl} attribution={attribution} error={errors[LOCATIONS_KEY]} />
            </div>
            <div className="mt-6 grid gap-5">
              <Field
                name="locationAddress"
                label="Location address"
                hint="Filled in from your pins, and rewritten whenever you add, move or remove one. Put directions for the crew in Special instructions."
                error={errors.locationAddress}
              >
                {(control) => (
                  <textarea {...control} rows={3} className={INPUT_CLASS} value={values.locationAddress} onChange={change('locationAddress')} />
                )}
              </Field>
              <Field
                name="specialInstructions"
                label="Special instructions (optional)"
                hint="Directions to the spot, access, timing, or anything else the crew should know."
                error={errors.specialInstructions}
              >
                {(control) => (
                  <textarea {...control} rows={4} className={INPUT_CLASS} value={values.specialInstructions ?? ''} onChange={change('specialInstructions')} />
                )}
              </Field>
            </div>
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

function FormSection({ number, title, children }: { number: number; title: string; children: ReactNode }) {
  const id = `booking-section-${number}`;
  return (
    <section aria-labelledby={id} className="card p-5 sm:p-7">
      <SectionHeading number={number} id={id}>
        {title}
      </SectionHeading>
      <div className="mt-5">{children}</div>
    </section>
  );
}

export default withErrorBoundary(BookingForm);
