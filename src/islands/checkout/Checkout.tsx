import { useCallback, useEffect, useState, type ReactNode } from 'react';
import type { Stripe } from '@stripe/stripe-js';
import { formatLongDate, isIsoDate } from '../../domain/format.ts';
import { formatPounds, penceFromPounds } from '../../domain/pricing.ts';
import { api, ApiError } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { PAYMENT_MESSAGES } from '../../content/payment-messages.ts';
import { ContactLines } from './ContactLines.tsx';
import {
  PENDING_BOOKING_KEY,
  WORK_TYPE_LABEL,
  checkoutLinkFrom,
  parsePendingBooking,
  readStoredBooking,
  serverBookingId,
  serviceName,
  type PendingBooking,
} from './pending-booking.ts';
import { ICON_PROPS } from '../shared/icon-props.ts';

// /checkout (public-site.md §2 "Checkout", §4, §8). The summary comes from the
// pendingBooking the form stored; the amount charged comes from the server. Where online
// payment cannot happen, the page says so and how to pay instead, rather than spinning.

type StripeFormModule = typeof import('./StripePaymentForm.tsx');

/** The server's 409s that mean the money is already in or on its way: nothing left to pay. */
const NOTHING_TO_PAY: readonly string[] = [PAYMENT_MESSAGES.alreadyPaid, PAYMENT_MESSAGES.alreadyProcessing];

interface PaymentAnswer {
  clientSecret: string;
  amount: number;
  amountPence: number;
}

type Setup =
  | { kind: 'loading' }
  | { kind: 'ready'; payment: PaymentAnswer; stripe: Stripe; form: StripeFormModule }
  | { kind: 'not-configured' }
  | { kind: 'not-found' }
  | { kind: 'conflict'; message: string }
  | { kind: 'error'; message: string };

interface Props {
  /** PUBLIC_STRIPE_PUBLISHABLE_KEY, read at build time by the page; null when payments are off. */
  publishableKey: string | null;
}

async function setUpPayment(booking: PendingBooking, publishableKey: string | null): Promise<Setup> {
  if (!publishableKey) return { kind: 'not-configured' };
  const bookingId = serverBookingId(booking);
  if (bookingId === null) return { kind: 'not-found' };

  // Stripe.js downloads while the server prepares the intent.
  const stripeLoad = import('./StripePaymentForm.tsx').then(async (form) => ({
    form,
    stripe: await form.loadStripeOnce(publishableKey),
  }));
  stripeLoad.catch(() => undefined); // handled below; avoids an unhandled rejection if the API fails first
  try {
    const payment = await api<PaymentAnswer>('/api/create-payment-intent', {
      body: { bookingId, checkoutToken: booking.checkoutToken, amount: booking.totalPrice },
    });
    const { form, stripe } = await stripeLoad;
    if (!stripe) throw new Error('Stripe.js is not available in this browser');
    return { kind: 'ready', payment, stripe, form };
  } catch (error) {
    // The spec only logs this failure (§8); the page also says what happened.
    console.error('Payment setup failed', error);
    if (error instanceof ApiError) {
      // 503 with Retry-After: Stripe is unreachable for now (try again); without: not configured.
      if (error.status === 503 && error.retryAfterSeconds === null) return { kind: 'not-configured' };
      if (error.status === 404) return { kind: 'not-found' };
      if (error.status === 409) return { kind: 'conflict', message: error.message };
      return { kind: 'error', message: error.message };
    }
    return { kind: 'error', message: 'The secure payment form could not be loaded.' };
  }
}

function Checkout({ publishableKey }: Props) {
  // undefined until the browser's storage has been read (the server render knows nothing of it).
  const [booking, setBooking] = useState<PendingBooking | null | undefined>(undefined);
  const [setup, setSetup] = useState<Setup>({ kind: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const link = checkoutLinkFrom(window.location.search);
    if (!link) {
      setBooking(readStoredBooking(PENDING_BOOKING_KEY));
      return;
    }
    // The e-mail's link: the token leaves the address bar (and so the history and any shared
    // screenshot) at once; the booking is kept where the booking form keeps it, for the success page.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    void api<Omit<PendingBooking, 'checkoutToken'>>('/api/checkout-booking', { body: link })
      .then((summary) => {
        const stored = JSON.stringify({ ...summary, checkoutToken: link.checkoutToken });
        try {
          localStorage.setItem(PENDING_BOOKING_KEY, stored);
        } catch {
          /* storage unavailable: this visit still pays; the success page then shows less */
        }
        setBooking(parsePendingBooking(stored));
      })
      .catch(() => setBooking(readStoredBooking(PENDING_BOOKING_KEY)));
  }, []);

  useEffect(() => {
    if (!booking) return;
    let isCurrent = true;
    setSetup({ kind: 'loading' });
    void setUpPayment(booking, publishableKey).then((next) => {
      if (isCurrent) setSetup(next);
    });
    return () => {
      isCurrent = false;
    };
  }, [booking, publishableKey, attempt]);

  const onLoadError = useCallback((message: string) => setSetup({ kind: 'error', message }), []);

  if (booking === null) return <NoBooking />;

  const amountPence = setup.kind === 'ready' ? setup.payment.amountPence : booking ? penceFromPounds(booking.totalPrice) : 0;

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:items-start lg:gap-8">
      <Toaster />
      {booking && <Summary booking={booking} amountPence={amountPence} />}
      <section aria-labelledby="payment-heading" className="card p-6 sm:p-8" data-testid="payment-panel">
        {setup.kind === 'loading' || !booking ? (
          <SettingUp />
        ) : setup.kind === 'ready' ? (
          <>
            <h2 id="payment-heading" className="text-2xl">
              Payment details
            </h2>
            <p className="mt-1 mb-6 flex items-center gap-2 text-sm text-concrete-600">
              <LockIcon />
              Card details go straight to Stripe over an encrypted connection; we never see them.
            </p>
            <setup.form.StripePaymentForm
              stripe={setup.stripe}
              clientSecret={setup.payment.clientSecret}
              amountPence={setup.payment.amountPence}
              onLoadError={onLoadError}
            />
          </>
        ) : (
          <Unavailable setup={setup} booking={booking} onRetry={() => setAttempt((n) => n + 1)} />
        )}
      </section>
    </div>
  );
}

function SettingUp() {
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

function Summary({ booking, amountPence }: { booking: PendingBooking; amountPence: number }) {
  const date = isIsoDate(booking.preferredDate) ? formatLongDate(booking.preferredDate) : booking.preferredDate || '—';
  return (
    <section aria-labelledby="summary-heading" className="card p-6 sm:p-8 lg:sticky lg:top-28">
      <p className="eyebrow">Booking summary</p>
      <h2 id="summary-heading" className="mt-2 text-2xl">
        {serviceName(booking.quantity)}
      </h2>
      <dl className="mt-5 divide-y divide-concrete-100 border-y border-concrete-100">
        <SummaryRow label="Booking ID">#{String(booking.bookingId)}</SummaryRow>
        <SummaryRow label="Patches">{booking.quantity}</SummaryRow>
        <SummaryRow label="Work type">{WORK_TYPE_LABEL[booking.workType]}</SummaryRow>
        <SummaryRow label="Date">{date}</SummaryRow>
        <SummaryRow label="Location" stacked>
          {booking.locationAddress || '—'}
        </SummaryRow>
      </dl>
      <div className="mt-5 flex items-baseline justify-between gap-4">
        <span className="text-lg font-semibold">Total</span>
        <span className="text-3xl font-semibold tracking-tight" data-testid="checkout-total">
          {formatPounds(amountPence)}
        </span>
      </div>
    </section>
  );
}

function SummaryRow({ label, stacked = false, children }: { label: string; stacked?: boolean; children: ReactNode }) {
  return (
    <div className={stacked ? 'py-3' : 'flex items-baseline justify-between gap-4 py-3'}>
      <dt className="text-concrete-600">{label}</dt>
      <dd className={stacked ? 'mt-1 break-words text-ink' : 'text-right font-semibold text-ink'}>{children}</dd>
    </div>
  );
}

export function Unavailable({
  setup,
  booking,
  onRetry,
}: {
  setup: Exclude<Setup, { kind: 'loading' } | { kind: 'ready' }>;
  booking: PendingBooking;
  onRetry(): void;
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
    // The unpaid hold lapsed and the date was taken (or passed): nothing to pay until a new date is agreed.
    return (
      <Notice heading={setup.message} tone="warning">
        <p>
          Your booking ({id}) has not been paid, and nothing has been charged. Call or e-mail us with your booking ID and we'll
          find another date with you.
        </p>
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

function NoBooking() {
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

function LockIcon() {
  return (
    <svg {...ICON_PROPS} width={16} height={16} className="shrink-0">
      <rect x="5" y="11" width="14" height="9" rx="2" />
      <path d="M8 11V8a4 4 0 0 1 8 0v3" />
    </svg>
  );
}
export default withErrorBoundary(Checkout);
