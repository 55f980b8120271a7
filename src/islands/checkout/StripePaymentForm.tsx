import { useState, type FormEvent } from 'react';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { formatPounds } from '../../domain/pricing.ts';
import { showToast } from '../shared/toast-store.ts';
import { siteAppearance } from './stripe-appearance.ts';

// Everything that touches Stripe.js lives in this module, which Checkout.tsx imports dynamically:
// no other page downloads it (conventions habit 7), and /checkout only does when payments are on.

const stripeLoads = new Map<string, Promise<Stripe | null>>();

/** Stripe.js is fetched from js.stripe.com once per page (one instance per key); a failed load can be retried. */
export function loadStripeOnce(publishableKey: string): Promise<Stripe | null> {
  let load = stripeLoads.get(publishableKey);
  if (!load) {
    load = loadStripe(publishableKey).catch((error: unknown) => {
      stripeLoads.delete(publishableKey);
      throw error;
    });
    stripeLoads.set(publishableKey, load);
  }
  return load;
}

interface Props {
  stripe: Stripe;
  clientSecret: string;
  amountPence: number;
  /** The Payment Element itself failed to load (e.g. Stripe unreachable). */
  onLoadError(message: string): void;
  /**
   * Stay on the page when the card needs no redirect (a stencil change on the tracking page), and
   * say so here; the verified webhook still decides. Without it, success goes to /payment-success.
   */
  onPaid?: () => void;
}

export function StripePaymentForm({ stripe, clientSecret, amountPence, onLoadError, onPaid }: Props) {
  return (
    <Elements stripe={stripe} options={{ clientSecret, appearance: siteAppearance(), loader: 'auto' }}>
      <PaymentForm amountPence={amountPence} onLoadError={onLoadError} onPaid={onPaid} />
    </Elements>
  );
}

function PaymentForm({ amountPence, onLoadError, onPaid }: Pick<Props, 'amountPence' | 'onLoadError' | 'onPaid'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [isReady, setReady] = useState(false);
  const [isProcessing, setProcessing] = useState(false);

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements || isProcessing) return;
    setProcessing(true);
    // On success Stripe sends the browser to /payment-success (with payment_intent and its
    // client secret), which asks our server what the verified webhook recorded.
    if (onPaid) {
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: { return_url: window.location.href },
        redirect: 'if_required',
      });
      if (!error) {
        onPaid();
        return;
      }
      showToast({ title: 'Payment Failed', description: error.message ?? 'Your payment could not be completed. Please try again.', variant: 'destructive' });
      setProcessing(false);
      return;
    }
    const { error } = await stripe.confirmPayment({
      elements,
      confirmParams: { return_url: `${window.location.origin}/payment-success` },
    });
    // Reached only when the payment did not go ahead (declined card, incomplete details...).
    showToast({
      title: 'Payment Failed',
      description: error.message ?? 'Your payment could not be completed. Please try again.',
      variant: 'destructive',
    });
    setProcessing(false);
  }

  return (
    <form onSubmit={pay} noValidate>
      <PaymentElement
        options={{ layout: 'tabs' }}
        onReady={() => setReady(true)}
        onLoadError={(event) => onLoadError(event.error.message ?? 'The secure payment form could not be loaded.')}
      />
      <button
        type="submit"
        className="btn-primary mt-6 w-full text-lg disabled:cursor-not-allowed disabled:opacity-60"
        disabled={!stripe || !elements || !isReady || isProcessing}
        aria-busy={isProcessing}
      >
        {isProcessing ? 'Processing...' : `Pay ${formatPounds(amountPence)}`}
      </button>
    </form>
  );
}
