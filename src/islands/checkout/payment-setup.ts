import type { Stripe } from '@stripe/stripe-js';
import { api, ApiError } from '../shared/api.ts';
import { serverBookingId, type PendingBooking } from './pending-booking.ts';

// What the checkout page can show once it has asked for a payment: the form (Stripe.js and the
// server's intent, fetched side by side), or why online payment cannot happen now.

export type StripeFormModule = typeof import('./StripePaymentForm.tsx');

export interface PaymentAnswer {
  clientSecret: string;
  amount: number;
  amountPence: number;
}

export type Setup =
  | { kind: 'loading' }
  | { kind: 'ready'; payment: PaymentAnswer; stripe: Stripe; form: StripeFormModule }
  | { kind: 'not-configured' }
  | { kind: 'not-found' }
  | { kind: 'conflict'; message: string }
  | { kind: 'error'; message: string };

export async function setUpPayment(booking: PendingBooking, publishableKey: string | null): Promise<Setup> {
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
