import type Stripe from 'stripe';
import type { Env } from '../env.ts';
import {
  InvalidSignatureError,
  PaymentsUnavailableError,
  intentIdempotencyKey,
  toPaymentEvent,
  type IntentRequest,
  type PaymentIntentInfo,
  type PaymentsProvider,
} from './payments.ts';

/**
 * The one payments provider: Stripe itself or, with STRIPE_API_URL, a Stripe-compatible local API
 * (tests, offline work). payments.ts holds the interface the app talks to and the event shape.
 */

/** Intents Stripe still lets us change the amount of. */
const UPDATABLE_STATUSES = new Set(['requires_payment_method', 'requires_confirmation', 'requires_action']);
/**
 * Intents that have taken no money and can be cancelled ('requires_capture' holds an authorisation
 * that cancelling releases). Stripe also cancels some 'processing' intents: never asked here.
 */
const CANCELABLE_STATUSES = new Set([...UPDATABLE_STATUSES, 'requires_capture']);

export function createPaymentsProvider(env: Env): PaymentsProvider | null {
  if (!env.STRIPE_SECRET_KEY) return null;
  return new StripePayments(env.STRIPE_SECRET_KEY, stripeConfig(env));
}

type StripeClass = typeof Stripe;
type StripeErrors = StripeClass['errors'];

// Stripe's library is the largest part of the function's bundle and takes a few hundred
// milliseconds to evaluate: loaded on the first payment call, not on every cold start. A load
// that fails is forgotten, so the next payment tries again instead of failing for the
// instance's whole life.
let stripeLibrary: Promise<StripeClass> | undefined;
function loadStripe(): Promise<StripeClass> {
  stripeLibrary ??= import('stripe').then(
    (module) => module.default,
    (error: unknown) => {
      stripeLibrary = undefined;
      throw error;
    },
  );
  return stripeLibrary;
}

function stripeConfig(env: Env): ConstructorParameters<StripeClass>[1] {
  const config: NonNullable<ConstructorParameters<StripeClass>[1]> = {
    // One retry against Stripe (it has idempotency keys, so a retry is safe); none against a
    // local test API, where a retry would only hide a failure and slow the tests down.
    maxNetworkRetries: env.STRIPE_API_URL ? 0 : 1,
    // A checkout page waits on this call; better a clear error than a minute of spinner.
    timeout: 15_000,
    appInfo: { name: 'clean-patch' },
  };
  if (env.STRIPE_API_URL) {
    const url = new URL(env.STRIPE_API_URL);
    const protocol = url.protocol.replace(':', '');
    if (protocol !== 'http' && protocol !== 'https') {
      throw new Error(`STRIPE_API_URL must be an http:// or https:// URL, got ${env.STRIPE_API_URL}`);
    }
    config.protocol = protocol;
    config.host = url.hostname;
    config.port = url.port || (protocol === 'https' ? 443 : 80);
  }
  return config;
}

class StripePayments implements PaymentsProvider {
  private client: Promise<{ stripe: Stripe; errors: StripeErrors }> | undefined;

  constructor(
    private readonly secretKey: string,
    private readonly config: ConstructorParameters<StripeClass>[1],
  ) {}

  private sdk() {
    this.client ??= loadStripe().then(
      (StripeLibrary) => ({ stripe: new StripeLibrary(this.secretKey, this.config), errors: StripeLibrary.errors }),
      (error: unknown) => {
        this.client = undefined;
        throw error;
      },
    );
    return this.client;
  }

  async createOrReuseIntent(request: IntentRequest): Promise<PaymentIntentInfo> {
    let replacing: string | undefined;
    if (request.existingIntentId) {
      const existing = await this.retrieveIntent(request.existingIntentId);
      if (existing && existing.status !== 'canceled') {
        if (existing.amount !== request.amountPence && UPDATABLE_STATUSES.has(existing.status)) {
          return this.call(async ({ stripe }) =>
            toIntentInfo(await stripe.paymentIntents.update(existing.id, { amount: request.amountPence })),
          );
        }
        return existing;
      }
      if (existing) replacing = existing.id;
    }
    return this.call(async ({ stripe }) =>
      toIntentInfo(
        await stripe.paymentIntents.create(
          {
            amount: request.amountPence,
            currency: request.currency,
            automatic_payment_methods: { enabled: true },
            metadata: { ...request.metadata, bookingId: String(request.bookingId), bookingRef: request.bookingRef },
            description: request.description,
          },
          { idempotencyKey: intentIdempotencyKey(request.bookingRef, request.amountPence, replacing) },
        ),
      ),
    );
  }

  async retrieveIntent(id: string): Promise<PaymentIntentInfo | null> {
    try {
      return await this.call(async ({ stripe }) => toIntentInfo(await stripe.paymentIntents.retrieve(id)));
    } catch (error) {
      if (isMissingResource(error, (await this.sdk()).errors)) return null;
      throw error;
    }
  }

  async cancelIntent(id: string): Promise<PaymentIntentInfo | null> {
    const intent = await this.retrieveIntent(id);
    if (!intent || !CANCELABLE_STATUSES.has(intent.status)) return intent;
    try {
      return await this.call(async ({ stripe }) =>
        toIntentInfo(await stripe.paymentIntents.cancel(id, { cancellation_reason: 'abandoned' })),
      );
    } catch (error) {
      // Confirmed by the customer since we looked: Stripe refuses, and the intent stays as it is.
      if (error instanceof (await this.sdk()).errors.StripeInvalidRequestError && error.code === 'payment_intent_unexpected_state') {
        return this.retrieveIntent(id);
      }
      throw error;
    }
  }

  async constructWebhookEvent(payload: string, signature: string, secret: string, receivedAt: Date) {
    const { stripe, errors } = await this.sdk();
    let event: Stripe.Event;
    try {
      event = await stripe.webhooks.constructEventAsync(
        payload,
        signature,
        secret,
        undefined,
        undefined,
        receivedAt.getTime(),
      );
    } catch (error) {
      const reason = error instanceof errors.StripeSignatureVerificationError ? 'signature' : 'payload';
      throw new InvalidSignatureError(error instanceof Error ? error.message : String(error), reason);
    }
    return toPaymentEvent(event);
  }

  /** Connection failures and Stripe's own 5xx become PaymentsUnavailableError (a 503 for the client). */
  private async call<T>(work: (sdk: { stripe: Stripe }) => Promise<T>): Promise<T> {
    const { stripe, errors } = await this.sdk();
    try {
      return await work({ stripe });
    } catch (error) {
      if (error instanceof errors.StripeConnectionError || error instanceof errors.StripeAPIError) {
        throw new PaymentsUnavailableError(`Stripe could not be reached: ${error.message}`, { cause: error });
      }
      if (error instanceof errors.StripeRateLimitError) {
        throw new PaymentsUnavailableError('Stripe is rate limiting requests', { cause: error });
      }
      // A wrong or revoked key is the operator's problem, not the customer's: same answer, logged.
      if (error instanceof errors.StripeAuthenticationError || error instanceof errors.StripePermissionError) {
        throw new PaymentsUnavailableError(`Stripe refused the API key: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }
}

function isMissingResource(error: unknown, errors: StripeErrors): boolean {
  return error instanceof errors.StripeInvalidRequestError && (error.code === 'resource_missing' || error.statusCode === 404);
}

function toIntentInfo(intent: Stripe.PaymentIntent): PaymentIntentInfo {
  return {
    id: intent.id,
    clientSecret: intent.client_secret,
    amount: intent.amount,
    currency: intent.currency,
    status: intent.status,
    metadata: { ...(intent.metadata ?? {}) },
    livemode: intent.livemode,
  };
}
