import { useEffect, useRef, useState } from 'react';
import { BUSINESS } from '../../content/business.ts';
import { addDays, formatLongDate, isIsoDate } from '../../domain/format.ts';
import { PROJECT_STEPS } from '../../domain/project-steps.ts';
import { api } from '../shared/api.ts';
import { withErrorBoundary } from '../shared/ErrorBoundary.tsx';
import { Toaster } from '../shared/Toaster.tsx';
import { showToast } from '../shared/toast-store.ts';
import { sendEventOnce } from '../../client/analytics.ts';
import { ContactLines } from './ContactLines.tsx';
import { WORK_TYPE_LABEL, formatTotal, restorePendingBooking, takePendingBooking, type PendingBooking } from './pending-booking.ts';
import { DetailRow } from '../shared/DetailRow.tsx';

// /payment-success (public-site.md §2 "Payment success", §3). Stripe's redirect is not
// proof of payment, so the page asks our server what the verified webhook recorded and says so
// honestly. It removes pendingBooking as the spec says, keeping a copy under lastBooking so a
// reload still shows the booking, and puts it back when the payment failed so /checkout can
// take it again.

/** Estimated completion is the preferred date plus 7 days (public-site.md §9, "Times"). */
export const COMPLETION_DAYS_AFTER_PREFERRED_DATE = 7;

/**
 * Stripe redirects here as soon as the card is accepted; its webhook usually reaches us a second
 * or two later. So while our answer is 'processing' the page asks again after each of these
 * waits (six questions over about half a minute), then stops and leaves the processing message.
 */
export const STATUS_RECHECK_DELAYS_MS = [1_000, 2_000, 4_000, 8_000, 16_000];

type PaymentStatus = 'unpaid' | 'processing' | 'paid' | 'failed';
/** GET /api/payments/status: our database's state and figures for the booking. */
interface StatusAnswer {
  bookingId: number;
  paymentStatus: PaymentStatus;
  /** Pounds: received when paid, otherwise the booking's price. */
  amountPaid?: number;
  preferredDate?: string;
  quantity?: number;
  workType?: 'day' | 'night';
  /**
   * The server's own words for a payment that staff must check (it arrived, but not as the
   * booking expected): shown instead of the page's text, and the page stops asking again.
   */
  message?: string;
}
type Check = { state: 'checking' } | { state: 'known'; status: PaymentStatus; bookingId: number; answer: StatusAnswer } | { state: 'unknown' };

/** What the page shows: the server's figures where it gave them, this browser's copy otherwise. */
export interface ShownBooking {
  quantity: string;
  preferredDate: string;
  workType: 'day' | 'night';
  totalPrice: number;
}

export function shownBooking(stored: PendingBooking | null, answer: StatusAnswer | null): ShownBooking | null {
  if (!stored && !answer) return null;
  return {
    quantity: typeof answer?.quantity === 'number' ? String(answer.quantity) : (stored?.quantity ?? ''),
    preferredDate: typeof answer?.preferredDate === 'string' ? answer.preferredDate : (stored?.preferredDate ?? ''),
    workType: answer?.workType === 'day' || answer?.workType === 'night' ? answer.workType : (stored?.workType ?? 'day'),
    totalPrice: typeof answer?.amountPaid === 'number' ? answer.amountPaid : (stored?.totalPrice ?? 0),
  };
}

const HEADINGS: Record<PaymentStatus | 'checking' | 'unknown', { title: string; lead: string }> = {
  checking: { title: 'Checking your payment...', lead: 'One moment while we confirm your payment with our records.' },
  paid: {
    title: 'Payment received',
    lead: `Thank you. Your booking is confirmed, a receipt is on its way by e-mail, and we'll contact you within ${BUSINESS.responseTime} to start your design.`,
  },
  processing: {
    title: 'Your payment is processing',
    lead: "Your bank is still confirming the payment. You don't need to pay again: we'll e-mail your receipt as soon as it clears.",
  },
  failed: {
    title: 'Your payment did not go through',
    lead: 'No money was taken. You can try again with another card or payment method, or contact us to pay by invoice.',
  },
  unpaid: {
    title: "Your payment hasn't been completed",
    lead: 'We have no payment for this booking yet. You can return to checkout to finish it, or contact us to pay by invoice.',
  },
  unknown: {
    title: "We couldn't check your payment here",
    lead: "If you completed the payment, we'll e-mail your receipt once it's confirmed. If you're unsure, contact us with your booking ID.",
  },
};

function readRedirect(): { paymentIntent: string; clientSecret: string } | null {
  const params = new URLSearchParams(window.location.search);
  const paymentIntent = params.get('payment_intent');
  const clientSecret = params.get('payment_intent_client_secret');
  return paymentIntent && clientSecret ? { paymentIntent, clientSecret } : null;
}

function PaymentSuccess() {
  const [booking, setBooking] = useState<PendingBooking | null>(null);
  const [check, setCheck] = useState<Check>({ state: 'checking' });
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    setBooking(takePendingBooking());
    const redirect = readRedirect();
    if (!redirect) {
      setCheck({ state: 'unknown' });
      return;
    }
    const query = new URLSearchParams({ payment_intent: redirect.paymentIntent, client_secret: redirect.clientSecret });
    let isStopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const askAgainLater = (attempt: number) => {
      const delay = STATUS_RECHECK_DELAYS_MS[attempt];
      if (delay !== undefined) timer = setTimeout(() => ask(attempt + 1), delay);
    };
    const ask = (attempt: number) => {
      api<StatusAnswer>(`/api/payments/status?${query}`, { cache: 'no-store' })
        .then((answer) => {
          if (isStopped) return;
          // The same status and message again change nothing on screen (and do not move focus).
          setCheck((shown) =>
            shown.state === 'known' && shown.status === answer.paymentStatus && shown.answer.message === answer.message
              ? shown
              : { state: 'known', status: answer.paymentStatus, bookingId: answer.bookingId, answer },
          );
          // A payment under review is settled by staff, not in the next half minute.
          if (answer.paymentStatus === 'processing' && !answer.message) askAgainLater(attempt);
        })
        .catch((error: unknown) => {
          if (isStopped) return;
          console.error('Payment status check failed', error);
          // Only the first answer decides "unknown": a failed re-check keeps "processing" and tries on.
          if (attempt === 0) setCheck({ state: 'unknown' });
          else askAgainLater(attempt);
        });
    };
    ask(0);
    return () => {
      isStopped = true;
      clearTimeout(timer);
    };
  }, []);

  useEffect(() => {
    if (check.state !== 'known') return;
    if (check.status === 'failed' || check.status === 'unpaid') restorePendingBooking();
    // The spec's success toast, shown once our records (the signed webhook) say paid.
    if (check.status === 'paid') {
      showToast({ title: 'Payment Successful', description: 'Your booking has been confirmed!', variant: 'success' });
      sendEventOnce('payment_succeeded');
    }
    heading.current?.focus();
  }, [check]);

  const key = check.state === 'known' ? check.status : check.state;
  const { title } = HEADINGS[key];
  const lead = (check.state === 'known' && check.answer.message) || HEADINGS[key].lead;
  const isPaid = key === 'paid';
  const canRetry = key === 'failed' || key === 'unpaid';
  const bookingId = check.state === 'known' ? check.bookingId : booking?.bookingId;

  return (
    <div className="space-y-8 lg:space-y-10">
      <Toaster />
      <header className="max-w-3xl" aria-live="polite">
        <StatusBadge state={key} />
        <h1 ref={heading} tabIndex={-1} className="mt-4 text-4xl focus:outline-none sm:text-5xl">
          {title}
        </h1>
        <p className="mt-4 text-lg text-concrete-700">{lead}</p>
        {canRetry && (
          <div className="mt-6 flex flex-col gap-3 sm:flex-row">
            <a href="/checkout" className="btn-primary">
              Try the payment again
            </a>
            <a href="/contact" className="btn-secondary">
              Contact us
            </a>
          </div>
        )}
      </header>

      {/* Phones read booking → next steps → help; wide screens put the steps beside the other two. */}
      <div className="grid gap-6 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)] lg:grid-rows-[auto_1fr] lg:items-start lg:gap-8">
        <BookingDetails booking={shownBooking(booking, check.state === 'known' ? check.answer : null)} bookingId={bookingId} isPaid={isPaid} />
        <Timeline />
        <Support />
      </div>

      <nav aria-label="Where next" className="flex flex-col gap-3 border-t border-concrete-100 pt-8 sm:flex-row">
        <a href="/" className="btn-primary">
          Return to Home
        </a>
        <a href="/gallery" className="btn-secondary">
          See our work
        </a>
        <a href="/booking" className="btn-secondary">
          Book more patches
        </a>
      </nav>
    </div>
  );
}

function StatusBadge({ state }: { state: keyof typeof HEADINGS }) {
  const styles: Record<keyof typeof HEADINGS, { label: string; className: string }> = {
    checking: { label: 'Checking', className: 'bg-concrete-50 text-concrete-700' },
    paid: { label: 'Paid', className: 'bg-accent-100 text-accent-800' },
    processing: { label: 'Processing', className: 'bg-warning-50 text-warning-700' },
    failed: { label: 'Not paid', className: 'bg-danger-50 text-danger-600' },
    unpaid: { label: 'Not paid', className: 'bg-danger-50 text-danger-600' },
    unknown: { label: 'Status unknown', className: 'bg-concrete-50 text-concrete-700' },
  };
  const { label, className } = styles[state];
  return (
    <span className={`inline-flex items-center gap-2 rounded-full px-3 py-1 text-sm font-semibold ${className}`} data-testid="payment-status">
      <span className="size-2 rounded-full bg-current" aria-hidden="true" />
      {label}
    </span>
  );
}

function BookingDetails({ booking, bookingId, isPaid }: { booking: ShownBooking | null; bookingId: number | string | undefined; isPaid: boolean }) {
  const hasDate = booking ? isIsoDate(booking.preferredDate) : false;
  return (
    <section aria-labelledby="details-heading" className="card p-6 sm:p-8 lg:col-start-1 lg:row-start-1">
      <h2 id="details-heading" className="text-2xl">
        Your booking
      </h2>
      <dl className="mt-5 divide-y divide-concrete-100 border-y border-concrete-100">
        <DetailRow label="Booking ID">{bookingId === undefined ? '—' : `#${String(bookingId)}`}</DetailRow>
        {booking && (
          <>
            <DetailRow label="Patches">{booking.quantity}</DetailRow>
            <DetailRow label="Preferred date">{hasDate ? formatLongDate(booking.preferredDate) : booking.preferredDate || '—'}</DetailRow>
            <DetailRow label="Work type">{WORK_TYPE_LABEL[booking.workType]}</DetailRow>
            <DetailRow label={isPaid ? 'Amount paid' : 'Amount due'}>{formatTotal(booking.totalPrice)}</DetailRow>
            <DetailRow label="Estimated completion">
              {hasDate ? formatLongDate(addDays(booking.preferredDate, COMPLETION_DAYS_AFTER_PREFERRED_DATE)) : '—'}
            </DetailRow>
          </>
        )}
      </dl>
      {!booking && (
        <p className="mt-4 text-sm text-concrete-600">The rest of your booking's details are in your confirmation e-mail.</p>
      )}
    </section>
  );
}

function Timeline() {
  return (
    <section aria-labelledby="next-heading" className="card p-6 sm:p-8 lg:col-start-2 lg:row-span-2 lg:row-start-1">
      <h2 id="next-heading" className="text-2xl">
        What happens next
      </h2>
      <ol className="mt-6 space-y-6">
        {PROJECT_STEPS.map((step) => (
          <li key={step.step} className="relative flex gap-4">
            {step.step < PROJECT_STEPS.length && (
              <span className="absolute top-11 bottom-[-1.25rem] left-[1.1875rem] w-0.5 bg-concrete-100" aria-hidden="true" />
            )}
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-100 font-semibold text-accent-800" aria-hidden="true">
              {step.step}
            </span>
            <div className="min-w-0 pt-1.5">
              <h3 className="text-lg leading-snug">
                <span className="sr-only">Step {step.step}: </span>
                {step.name}
              </h3>
              <p className="mt-0.5 text-sm font-semibold text-accent-700">{step.timeframe}</p>
              <p className="mt-1 text-concrete-700">{step.description}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}

function Support() {
  return (
    <section aria-labelledby="support-heading" className="card p-6 sm:p-8 lg:col-start-1 lg:row-start-2">
      <h2 id="support-heading" className="text-2xl">
        Need help?
      </h2>
      <p className="mt-2 text-concrete-700">Quote your booking ID and we'll help straight away.</p>
      <ContactLines />
    </section>
  );
}

export default withErrorBoundary(PaymentSuccess);
