import { Hono } from 'hono';
import * as z from 'zod';
import type { AppEnv } from '../../app/request.ts';
import { AppError, badRequest, notConfigured } from '../../app/errors.ts';
import { limitBody, readJson, validate } from '../middleware/body.ts';
import { rateLimit } from '../../services/limits/rate-limit.ts';
import { changeCheckoutDate, findCheckoutBooking } from '../../services/payments/checkout-booking.ts';
import { deliverInviteMail } from '../../services/bookings/installation-invites.ts';
import { afterResponse } from '../background.ts';
import { InvalidSignatureError } from '../../providers/payments.ts';
import { PAYMENT_MESSAGES } from '../../services/payments/payments.ts';
import { preparePayment } from '../../services/payments/payment-intent.ts';
import { readPaymentStatus } from '../../services/payments/payment-status.ts';
import { applyPaymentEvent } from '../../services/payments/payment-webhook.ts';

// POST /api/create-payment-intent, GET /api/payments/status, POST /api/stripe/webhook (api.md).

export const createIntentSchema = z.object({
  // The browser keeps the id from POST /api/bookings; it may arrive as a number or numeric text.
  bookingId: z.coerce
    .number({ error: 'A booking ID is required' })
    .int({ error: 'A booking ID is required' })
    .positive({ error: 'A booking ID is required' }),
  // Handed out once by POST /api/bookings: proves the caller made the booking (ids are guessable).
  checkoutToken: z
    .string({ error: PAYMENT_MESSAGES.checkoutTokenMissing })
    .min(1, { error: PAYMENT_MESSAGES.checkoutTokenMissing })
    .max(200, { error: PAYMENT_MESSAGES.checkoutTokenMissing }),
  // Accepted for the spec's payload and ignored: the booking's own price is charged.
  amount: z.unknown().optional(),
});

const changeDateSchema = createIntentSchema.extend({ date: z.string().max(10) });

const statusQuerySchema = z.object({
  payment_intent: z
    .string({ error: 'payment_intent is required' })
    .regex(/^pi_[A-Za-z0-9_]{1,250}$/, { error: 'payment_intent is not a PaymentIntent id' }),
  client_secret: z
    .string({ error: 'client_secret is required' })
    .min(1, { error: 'client_secret is required' })
    .max(500, { error: 'client_secret is too long' }),
});

// A person pays once or twice; a script creating intents in a loop is stopped.
const INTENT_LIMIT = { name: 'payment-intent', limit: 20, windowSeconds: 600 };
// The success page asks up to six times per visit while a payment is processing.
const STATUS_LIMIT = { name: 'payment-status', limit: 60, windowSeconds: 60 };
// Stripe's events are a few KB; anything near this is not one.
export const WEBHOOK_BODY_LIMIT_BYTES = 512 * 1024;

export const paymentRoutes = new Hono<AppEnv>()
  .post('/create-payment-intent', rateLimit(INTENT_LIMIT), async (c) => {
    const deps = c.get('deps');
    if (!deps.payments) throw notConfigured(PAYMENT_MESSAGES.notConfigured);
    const { bookingId, checkoutToken } = await readJson(c, createIntentSchema);
    const payment = await preparePayment(deps, bookingId, checkoutToken);
    return c.json(payment);
  })
  // The confirmation e-mail's checkout link opens /checkout on any device: the page loads the
  // booking's summary with the id and token the link carries.
  .post('/checkout-booking', rateLimit(INTENT_LIMIT), async (c) => {
    const { bookingId, checkoutToken } = await readJson(c, createIntentSchema);
    return c.json(await findCheckoutBooking(c.get('deps').db, bookingId, checkoutToken));
  })
  // Checkout's other date, when the booking's was taken by a customer who paid first.
  .post('/checkout-booking/date', rateLimit(INTENT_LIMIT), async (c) => {
    const { bookingId, checkoutToken, date } = await readJson(c, changeDateSchema);
    const deps = c.get('deps');
    const changed = await changeCheckoutDate(deps.db, { bookingId, checkoutToken, date }, {
      now: deps.now(),
      capacity: deps.env.DAILY_PATCH_CAPACITY,
      siteUrl: deps.env.SITE_URL,
    });
    if (changed.mailKey) afterResponse(c, () => deliverInviteMail(deps, [changed.mailKey]));
    return c.json(changed.booking);
  })
  .get('/payments/status', rateLimit(STATUS_LIMIT), async (c) => {
    const deps = c.get('deps');
    if (!deps.payments) throw notConfigured(PAYMENT_MESSAGES.notConfigured);
    const query = validate(statusQuerySchema, {
      payment_intent: c.req.query('payment_intent'),
      client_secret: c.req.query('client_secret'),
    });
    return c.json(await readPaymentStatus(deps, query.payment_intent, query.client_secret));
  })
  .post('/stripe/webhook', limitBody(WEBHOOK_BODY_LIMIT_BYTES), async (c) => {
    const deps = c.get('deps');
    const secret = deps.env.STRIPE_WEBHOOK_SECRET;
    if (!deps.payments) throw notConfigured(PAYMENT_MESSAGES.notConfigured);
    if (!secret) throw notConfigured(PAYMENT_MESSAGES.webhookNotConfigured);
    const signature = c.req.header('stripe-signature');
    // The signature covers the exact bytes Stripe sent: read them raw, never re-serialise JSON.
    const payload = await c.req.text();
    if (!signature) throw badRequest(PAYMENT_MESSAGES.invalidSignature);

    let event;
    try {
      event = await deps.payments.constructWebhookEvent(payload, signature, secret, deps.now());
    } catch (error) {
      if (error instanceof InvalidSignatureError) {
        deps.log.warn('Stripe webhook refused', { reason: error.reason, error: error.message });
        throw new AppError(
          400,
          error.reason === 'signature' ? PAYMENT_MESSAGES.invalidSignature : PAYMENT_MESSAGES.invalidPayload,
        );
      }
      throw error;
    }

    const outcome = await applyPaymentEvent(deps, event);
    if (outcome === 'duplicate') return c.json({ received: true, duplicate: true });
    // Stale: older than the payment event already applied to the booking (events arrive in any order).
    if (outcome === 'ignored' || outcome === 'stale') return c.json({ received: true, ignored: true });
    return c.json({ received: true });
  });
