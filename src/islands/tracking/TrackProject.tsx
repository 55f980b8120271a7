import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useStore } from '@nanostores/react';
import { $checking, CHECKING_LABEL, CHECKING_TOAST } from '../shared/challenge.ts';
import { ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { useEarlyInput } from '../shared/early-input.ts';
import { INPUT_CLASS, LABEL_CLASS } from '../shared/FormField.tsx';
import { ProjectResult } from './ProjectResult.tsx';
import {
  TRACKING_LINK_EXPIRED,
  TRACKING_NOT_FOUND,
  readLinkToken,
  sendTrackingViewed,
  trackProject,
  withoutLinkToken,
  type TrackRequest,
  type TrackedBooking,
} from './tracking-api.ts';

// /track-project (public-site.md §2 "Track project", §5): the e-mail + Booking ID form, or the
// magic link from the customer's e-mail (?t=...), then the booking, its five steps and photos.

type State =
  | { view: 'form'; isSubmitting: boolean; error: string | null }
  | { view: 'result'; booking: TrackedBooking };

/** What the person reads when tracking fails: the spec's message, or how long to wait. */
export function trackingErrorMessage(error: unknown, isLink = false): string {
  if (error instanceof ApiError && error.status === 429) {
    const minutes = Math.max(1, Math.ceil((error.retryAfterSeconds ?? 600) / 60));
    return `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`;
  }
  if (error instanceof ApiError && error.status < 500) return isLink ? TRACKING_LINK_EXPIRED : TRACKING_NOT_FOUND;
  return 'We could not reach our server. Please check your connection and try again.';
}

/**
 * publishableKey: PUBLIC_STRIPE_PUBLISHABLE_KEY read at build time, to start loading Stripe.js for a
 * paid stencil change early; the stencil-change answer's key, when it has one, is the one used.
 */
function TrackProject({ publishableKey = null }: { publishableKey?: string | null }) {
  const [email, setEmail] = useState('');
  const [bookingId, setBookingId] = useState('');
  const [state, setState] = useState<State>({ view: 'form', isSubmitting: false, error: null });
  const isChecking = useStore($checking);
  const emailInput = useRef<HTMLInputElement>(null);
  const errorRegion = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLFormElement>(null);
  useEarlyInput(form, (typed) => {
    if (typed.email !== undefined) setEmail(typed.email);
    if (typed.bookingId !== undefined) setBookingId(typed.bookingId);
  });

  const track = async (request: TrackRequest) => {
    setState({ view: 'form', isSubmitting: true, error: null });
    try {
      const booking = await trackProject(request);
      setState({ view: 'result', booking });
      sendTrackingViewed();
    } catch (error) {
      setState({ view: 'form', isSubmitting: false, error: trackingErrorMessage(error, 'token' in request) });
    }
  };

  // A magic link tracks with nothing typed; the token then leaves the address bar.
  useEffect(() => {
    const token = readLinkToken(window.location.search);
    if (!token) return;
    window.history.replaceState(window.history.state, '', withoutLinkToken(window.location.href));
    void track({ token });
  }, []);

  useEffect(() => {
    if (state.view === 'form' && state.error) errorRegion.current?.focus();
  }, [state]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const id = Number.parseInt(bookingId.trim(), 10);
    // Not a number cannot be anyone's booking: the same answer the server gives, without asking.
    if (!Number.isSafeInteger(id)) {
      setState({ view: 'form', isSubmitting: false, error: TRACKING_NOT_FOUND });
      return;
    }
    void track({ email: email.trim(), bookingId: id });
  };

  const reset = () => {
    setEmail('');
    setBookingId('');
    setState({ view: 'form', isSubmitting: false, error: null });
    requestAnimationFrame(() => emailInput.current?.focus());
  };

  if (state.view === 'result') return <ProjectResult booking={state.booking} onReset={reset} publishableKey={publishableKey} />;

  const canSubmit = email.trim() !== '' && bookingId.trim() !== '' && !state.isSubmitting;
  return (
    <section aria-labelledby="track-form-heading" className="card max-w-xl p-6 sm:p-8">
      <h2 id="track-form-heading" className="text-2xl">
        Find your booking
      </h2>
      <p className="mt-2 text-concrete-700">
        Use the e-mail address you booked with and the booking ID from your confirmation e-mail, or open the tracking link in that e-mail.
      </p>
      <div
        ref={errorRegion}
        tabIndex={-1}
        role="alert"
        className={state.error ? 'mt-5 rounded-xl border-2 border-danger-600 bg-danger-50 p-4 font-semibold text-danger-600 focus:outline-none' : 'sr-only'}
      >
        {state.error}
      </div>
      <form ref={form} className="mt-6 space-y-5" onSubmit={onSubmit} noValidate aria-busy={state.isSubmitting}>
        <div>
          <label htmlFor="track-email" className={LABEL_CLASS}>
            Email
          </label>
          <input
            ref={emailInput}
            id="track-email"
            name="email"
            type="email"
            autoComplete="email"
            className={`${INPUT_CLASS} mt-2`}
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor="track-booking-id" className={LABEL_CLASS}>
            Booking ID
          </label>
          <input
            id="track-booking-id"
            name="bookingId"
            type="text"
            inputMode="numeric"
            autoComplete="off"
            className={`${INPUT_CLASS} mt-2`}
            value={bookingId}
            onChange={(event) => setBookingId(event.target.value)}
          />
        </div>
        <button type="submit" className="btn-primary w-full disabled:cursor-not-allowed disabled:opacity-50 sm:w-auto" disabled={!canSubmit}>
          {state.isSubmitting ? (isChecking ? CHECKING_LABEL : 'Tracking...') : 'Track Project'}
        </button>
        {/* This page has no toast: the check is announced here (shared/challenge.ts). */}
        <p role="status" className="sr-only">
          {isChecking ? CHECKING_TOAST.description : ''}
        </p>
      </form>
    </section>
  );
}

export default withErrorBoundary(TrackProject);
