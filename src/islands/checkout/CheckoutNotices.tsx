import type { ReactNode } from 'react';
import { PAYMENT_MESSAGES } from '../../content/payment-messages.ts';
import { ChooseAnotherDate } from './ChooseAnotherDate.tsx';
import { ContactLines } from './ContactLines.tsx';
import type { PendingBooking } from './pending-booking.ts';
import type { Setup } from './payment-setup.ts';

// The checkout page's states other than the payment form: setting up, no booking, and every way
// online payment cannot happen now, each saying what to do instead.

/** The server's 409s that mean the money is already in or on its way: nothing left to pay. */
const NOTHING_TO_PAY: readonly string[] = [PAYMENT_MESSAGES.alreadyPaid, PAYMENT_MESSAGES.alreadyProcessing];

export function SettingUp() {
  return (
    <div role="status" className="flex min-h-64 flex-col items-center justify-center gap-4 text-center">
      <h2 id="payment-heading" className="sr-only">
        Payment details
      </h2>
      <span className="size-10 animate-spin rounded-full border-4 border-concrete-200 border-t-accent-600 motion-reduce:animate-none" aria-hidden="true" />
      <p className="text-lg font-semibold">Setting up secure payment...</p>
    </div>
  );
}

export function Unavailable({
  setup,
  booking,
  onRetry,
  onDateChosen,
}: {
  setup: Exclude<Setup, { kind: 'loading' } | { kind: 'ready' }>;
  booking: PendingBooking;
  onRetry(): void;
  /** The booking moved to another date: checkout carries on with it. */
  onDateChosen?(next: PendingBooking): void;
}) {
  const id = `#${String(booking.bookingId)}`;
  if (setup.kind === 'not-found') {
    return (
      <Notice heading="We couldn't find this booking">
        <p>
          This booking ({id}) is not on our system, so it can't be paid online. Please get in touch and we'll sort it out,
          or make the booking again.
        </p>
        <ContactLines />
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <a href="/booking" className="btn-primary">
            Book again
          </a>
          <a href="/contact" className="btn-secondary">
            Contact us
          </a>
        </div>
      </Notice>
    );
  }
  if (setup.kind === 'conflict' && setup.message === PAYMENT_MESSAGES.dateNoLongerAvailable) {
    // Paid bookings filled the date first (or it closed): nothing to pay until another date is agreed.
    return (
      <Notice heading={setup.message} tone="warning">
        <p>
          Your booking ({id}) has not been paid, and nothing has been charged. We have kept everything you entered: your
          patches, locations, files and details. Choose another date and carry on paying, or call or e-mail us with your
          booking ID and we'll move it to a free date with you.
        </p>
        {onDateChosen && booking.checkoutToken && <ChooseAnotherDate booking={booking} onChosen={onDateChosen} />}
        <ContactLines />
      </Notice>
    );
  }
  if (setup.kind === 'conflict' && !NOTHING_TO_PAY.includes(setup.message)) {
    // A cancelled booking, or a payment we could not set up: nothing was charged; a person sorts it out.
    return (
      <Notice heading={setup.message} tone="warning">
        <p>Nothing has been charged for booking {id}. Call or e-mail us with your booking ID and we'll sort it out.</p>
        <ContactLines />
      </Notice>
    );
  }
  if (setup.kind === 'conflict') {
    return (
      <Notice heading={setup.message}>
        <p>There is nothing more to pay for booking {id}. You can follow its progress with your e-mail address and booking ID.</p>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row">
          <a href="/track-project" className="btn-primary">
            Track your project
          </a>
          <a href="/" className="btn-secondary">
            Return to Home
          </a>
        </div>
      </Notice>
    );
  }
  return (
    <Notice heading="Online payment isn't available right now" tone="warning">
      {setup.kind === 'error' && <p className="font-semibold text-ink">{setup.message}</p>}
      <p>
        Your booking is saved with booking ID <strong className="text-ink">{id}</strong>. To pay by invoice instead, call or
        e-mail us and quote your booking ID:
      </p>
      <ContactLines />
      {setup.kind === 'error' && (
        <button type="button" className="btn-primary mt-6" onClick={onRetry}>
          Try again
        </button>
      )}
    </Notice>
  );
}

function Notice({ heading, tone = 'neutral', children }: { heading: string; tone?: 'neutral' | 'warning'; children: ReactNode }) {
  return (
    <div role={tone === 'warning' ? 'alert' : undefined} className="space-y-3 text-concrete-700">
      <h2 id="payment-heading" className="flex items-start gap-3 text-2xl text-ink">
        {tone === 'warning' && (
          <span className="mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-full bg-warning-50 text-warning-700" aria-hidden="true">
            <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round">
              <path d="M12 7v6M12 16.5v.5" />
            </svg>
          </span>
        )}
        {heading}
      </h2>
      {children}
    </div>
  );
}

export function NoBooking() {
  return (
    <section aria-labelledby="no-booking-heading" className="card mx-auto max-w-xl p-8 text-center sm:p-10">
      <h2 id="no-booking-heading" className="text-2xl">
        There's no booking to pay for yet
      </h2>
      <p className="mt-3 text-concrete-700">
        We couldn't find a booking in progress in this browser. Choose your date, patches and locations first; you'll come back
        here to pay.
      </p>
      <a href="/booking" className="btn-primary mt-6">
        Start your booking
      </a>
    </section>
  );
}
