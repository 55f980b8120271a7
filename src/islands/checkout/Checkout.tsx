import { useCallback, useEffect, useState } from 'react';
import { penceFromPounds } from '../../domain/pricing.ts';
import { api } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { ICON_PROPS } from '../shared/icon-props.ts';
import { CheckoutSummary } from './CheckoutSummary.tsx';
import { NoBooking, SettingUp, Unavailable } from './CheckoutNotices.tsx';
import { setUpPayment, type Setup } from './payment-setup.ts';
import { PENDING_BOOKING_KEY, checkoutLinkFrom, parsePendingBooking, readStoredBooking, type PendingBooking } from './pending-booking.ts';

// /checkout (public-site.md §2 "Checkout", §4, §8). The summary comes from the
// pendingBooking the form stored; the amount charged comes from the server. Where online
// payment cannot happen, the page says so and how to pay instead, rather than spinning.

interface Props {
  /** PUBLIC_STRIPE_PUBLISHABLE_KEY, read at build time by the page; null when payments are off. */
  publishableKey: string | null;
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
      {booking && <CheckoutSummary booking={booking} amountPence={amountPence} />}
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
          <Unavailable setup={setup} booking={booking} onRetry={() => setAttempt((n) => n + 1)} onDateChosen={setBooking} />
        )}
      </section>
    </div>
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
