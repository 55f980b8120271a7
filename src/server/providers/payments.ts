import * as z from 'zod';

/**
 * Card payments (conventions: "providers at the edge"). The app talks to this interface; the one
 * implementation is Stripe, pointed at Stripe itself or, with STRIPE_API_URL, at a
 * Stripe-compatible local API (tests, offline work). With no STRIPE_SECRET_KEY there is no
 * provider at all and the payment routes answer 503: nothing pretends to take money.
 */

export type PaymentIntentStatus =
  | 'requires_payment_method'
  | 'requires_confirmation'
  | 'requires_action'
  | 'processing'
  | 'requires_capture'
  | 'canceled'
  | 'succeeded';

export interface PaymentIntentInfo {
  id: string;
  clientSecret: string | null;
  /** Pence. */
  amount: number;
  currency: string;
  status: PaymentIntentStatus | (string & {});
  metadata: Record<string, string>;
  livemode: boolean;
}

export interface IntentRequest {
  bookingId: number;
  /**
   * The booking's reference across environments (`{id}:{createdAt epoch ms}`): ids repeat when a
   * database is reset or another environment shares the Stripe account, this pair does not.
   */
  bookingRef: string;
  /** The booking's own price in pence: the only amount this provider is ever asked to charge. */
  amountPence: number;
  currency: 'gbp';
  /** Shown to whoever holds the client secret (Stripe.js): no personal data. */
  description: string;
  /** The intent already stored on the booking, if any: reused rather than duplicated. */
  existingIntentId: string | null;
  /** More metadata, e-mail-free: `kind` routes a stencil change's webhook events (services/proofs/stencil-changes.ts). */
  metadata?: Record<string, string>;
}

/** The few event kinds the webhook acts on, reduced to the fields it reads. */
export interface PaymentEvent {
  id: string;
  type: string;
  /** When Stripe created the event. */
  created: Date;
  /** false for Stripe test mode. */
  livemode: boolean;
  /** Present for payment_intent.* events. */
  intent: {
    id: string;
    amount: number;
    amountReceived: number;
    currency: string;
    status: string;
    metadata: Record<string, string>;
    lastPaymentErrorMessage: string | null;
  } | null;
}

export interface PaymentsProvider {
  /**
   * Returns the booking's PaymentIntent: the stored one when it can still take this payment
   * (its amount brought in line with the booking's), otherwise a new one. Creation carries an
   * idempotency key, so a double click or a retried request never makes a second intent.
   */
  createOrReuseIntent(request: IntentRequest): Promise<PaymentIntentInfo>;
  /** null when Stripe has no such intent. */
  retrieveIntent(id: string): Promise<PaymentIntentInfo | null>;
  /**
   * Cancels an intent so that nobody holding its client secret can pay it any more, unless money
   * is already taken or on its way ('succeeded', 'processing'): such an intent is left as it is.
   * Returns the intent as it now stands ('canceled' when cancelled), null when Stripe has no such
   * intent.
   */
  cancelIntent(id: string): Promise<PaymentIntentInfo | null>;
  /** Verifies Stripe-Signature on the raw body; throws InvalidSignatureError when it does not hold. */
  constructWebhookEvent(payload: string, signature: string, secret: string, receivedAt: Date): Promise<PaymentEvent>;
}

/** Stripe could not be reached or answered with a server-side failure. */
export class PaymentsUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentsUnavailableError';
  }
}

/** The webhook's Stripe-Signature does not match its body, is stale, or the body is not an event. */
export class InvalidSignatureError extends Error {
  constructor(
    message: string,
    readonly reason: 'signature' | 'payload',
  ) {
    super(message);
    this.name = 'InvalidSignatureError';
  }
}

/**
 * Stripe's idempotency key for creating a booking's intent (a retried create returns the same
 * intent). Keyed by the booking's reference, not its bare id, so that booking #7 of a reset dev
 * database or of another environment on the same Stripe account never gets this one's intent.
 */
export function intentIdempotencyKey(bookingRef: string, amountPence: number, replacing?: string): string {
  const key = `booking-${bookingRef}-pi-${amountPence}`;
  // A canceled intent cannot be revived; its replacement needs a key of its own, or Stripe
  // would hand back the canceled one for the next 24 hours.
  return replacing ? `${key}-after-${replacing}` : key;
}

/**
 * A signature proves Stripe (or whoever holds the secret) sent the bytes, not that they are a
 * well-formed event: the shape is checked before anything reads it, so a signed `[]` or an id
 * with a NUL in it is a 400 instead of a 500 in the database.
 */
const visibleText = z.string().regex(/^[\x21-\x7e]{1,255}$/);
const storableText = z.string().refine((value) => !value.includes('\u0000'));
const eventShape = z.object({
  id: visibleText,
  type: visibleText,
  created: z.number().int().nonnegative(),
  livemode: z.boolean(),
  data: z.object({ object: z.unknown() }).optional(),
});
const intentShape = z.object({
  object: z.literal('payment_intent'),
  id: visibleText,
  amount: z.number().int().nullish(),
  amount_received: z.number().int().nullish(),
  currency: storableText.nullish(),
  status: storableText.nullish(),
  metadata: z.record(z.string(), storableText).nullish(),
  last_payment_error: z.object({ message: storableText.nullish() }).nullish(),
});

function describeShapeError(error: z.ZodError): string {
  const issue = error.issues[0];
  return `malformed event: ${issue?.path.join('.') || 'body'} ${issue?.message ?? ''}`.trim();
}

export function toPaymentEvent(raw: unknown): PaymentEvent {
  const event = eventShape.safeParse(raw);
  if (!event.success) throw new InvalidSignatureError(describeShapeError(event.error), 'payload');
  const { id, type, created, livemode, data } = event.data;
  let intent: PaymentEvent['intent'] = null;
  const object = data?.object as { object?: unknown } | undefined;
  if (type.startsWith('payment_intent.') && object?.object === 'payment_intent') {
    const parsed = intentShape.safeParse(object);
    if (!parsed.success) {
      throw new InvalidSignatureError(describeShapeError(parsed.error).replace('event: ', 'event: data.object.'), 'payload');
    }
    intent = {
      id: parsed.data.id,
      amount: parsed.data.amount ?? 0,
      amountReceived: parsed.data.amount_received ?? 0,
      currency: (parsed.data.currency ?? '').toLowerCase(),
      status: parsed.data.status ?? '',
      metadata: { ...(parsed.data.metadata ?? {}) },
      lastPaymentErrorMessage: parsed.data.last_payment_error?.message ?? null,
    };
  }
  return { id, type, created: new Date(created * 1000), livemode, intent };
}
