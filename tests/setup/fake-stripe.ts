/**
 * A Stripe-compatible API on a free local port, implementing just what our payments provider
 * calls (stripe-mock is not on the npm registry; toolchain notes). The real `stripe` client talks
 * to it over HTTP through STRIPE_API_URL, so the request encoding, idempotency keys and error
 * handling under test are the real ones.
 *
 *   POST /v1/payment_intents        create (form-encoded; Idempotency-Key: same key → same intent)
 *   GET  /v1/payment_intents/:id    retrieve
 *   POST /v1/payment_intents/:id    update (amount)
 *   POST /v1/payment_intents/:id/cancel   cancel (refused, as Stripe does, once the money is taken)
 *   POST /v1/payment_intents/:id/confirm  confirm, as Stripe.js does in the browser: the publishable
 *        key (`key`) and the intent's `client_secret` in the form; `payment_method` is one of Stripe's
 *        test methods (pm_card_visa succeeds, pm_card_chargeDeclined is declined). Answers carry
 *        CORS headers, as Stripe's do, so a page's script may call it.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

export interface FakeIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status: string;
  client_secret: string;
  metadata: Record<string, string>;
  livemode: false;
  created: number;
  description: string | null;
  receipt_email: string | null;
  automatic_payment_methods: { enabled: boolean } | null;
  last_payment_error: null | { message: string };
  cancellation_reason: string | null;
}

export interface FakeRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
  params: Record<string, unknown>;
}

export interface FakeStripe {
  url: string;
  intents: Map<string, FakeIntent>;
  requests: FakeRequest[];
  /** Requests that created an intent (an idempotent replay is not counted). */
  creates(): number;
  /** Moves an intent along as Stripe would after a confirmation (e.g. 'succeeded', 'canceled'). */
  setStatus(id: string, status: string): FakeIntent;
  close(): Promise<void>;
}

const CANCELABLE = ['requires_payment_method', 'requires_capture', 'requires_confirmation', 'requires_action'];

const KEY_REUSED =
  'Keys for idempotent requests can only be used with the same parameters they were first used with.';

export async function startFakeStripe(): Promise<FakeStripe> {
  const intents = new Map<string, FakeIntent>();
  const requests: FakeRequest[] = [];
  const byIdempotencyKey = new Map<string, { body: string; id: string }>();
  let created = 0;

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const body = await readBody(request);
    const params = parseForm(body);
    const idempotencyKey = header(request, 'idempotency-key');
    requests.push({
      method: request.method ?? 'GET',
      path: url.pathname,
      idempotencyKey,
      authorization: header(request, 'authorization'),
      params,
    });

    if (request.method === 'OPTIONS') return send(response, 204, null);

    const confirm = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)\/confirm$/.exec(url.pathname);
    if (confirm && request.method === 'POST') return confirmIntent(response, confirm[1]!, params);

    if (!header(request, 'authorization')?.startsWith('Bearer sk_')) {
      return send(response, 401, stripeError('invalid_request_error', 'Invalid API Key provided', 'api_key_invalid'));
    }

    if (request.method === 'POST' && url.pathname === '/v1/payment_intents') {
      if (idempotencyKey) {
        const earlier = byIdempotencyKey.get(idempotencyKey);
        if (earlier && earlier.body !== body) {
          return send(response, 400, stripeError('idempotency_error', KEY_REUSED));
        }
        if (earlier) return send(response, 200, intents.get(earlier.id), { 'Idempotent-Replayed': 'true' });
      }
      const amount = Number(params.amount);
      if (!Number.isInteger(amount) || amount < 1) {
        return send(response, 400, stripeError('invalid_request_error', 'Missing required param: amount.', 'parameter_missing'));
      }
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const automatic = params.automatic_payment_methods as { enabled?: string } | undefined;
      const intent: FakeIntent = {
        id,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: String(params.currency ?? ''),
        status: 'requires_payment_method',
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        metadata: (params.metadata as Record<string, string> | undefined) ?? {},
        livemode: false,
        created: Math.floor(Date.now() / 1000),
        description: (params.description as string | undefined) ?? null,
        receipt_email: (params.receipt_email as string | undefined) ?? null,
        automatic_payment_methods: automatic ? { enabled: automatic.enabled === 'true' } : null,
        last_payment_error: null,
        cancellation_reason: null,
      };
      intents.set(id, intent);
      created += 1;
      if (idempotencyKey) byIdempotencyKey.set(idempotencyKey, { body, id });
      return send(response, 200, intent);
    }

    const cancel = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)\/cancel$/.exec(url.pathname);
    if (cancel && request.method === 'POST') {
      const intent = intents.get(cancel[1]!);
      if (!intent) {
        return send(response, 404, stripeError('invalid_request_error', `No such payment_intent: '${cancel[1]}'`, 'resource_missing'));
      }
      // Stripe cancels some 'processing' intents too; cards (all this site takes) never.
      if (!CANCELABLE.includes(intent.status)) {
        return send(
          response,
          400,
          stripeError(
            'invalid_request_error',
            `You cannot cancel this PaymentIntent because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be canceled: ${CANCELABLE.join(', ')}.`,
            'payment_intent_unexpected_state',
          ),
        );
      }
      intent.status = 'canceled';
      intent.cancellation_reason = (params.cancellation_reason as string | undefined) ?? null;
      return send(response, 200, intent);
    }

    const match = /^\/v1\/payment_intents\/([A-Za-z0-9_]+)$/.exec(url.pathname);
    if (match) {
      const intent = intents.get(match[1]!);
      if (!intent) {
        return send(
          response,
          404,
          stripeError('invalid_request_error', `No such payment_intent: '${match[1]}'`, 'resource_missing'),
        );
      }
      if (request.method === 'GET') return send(response, 200, intent);
      if (request.method === 'POST') {
        if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
          return send(
            response,
            400,
            stripeError('invalid_request_error', `This PaymentIntent's amount could not be updated because it has a status of ${intent.status}.`, 'payment_intent_unexpected_state'),
          );
        }
        if (params.amount !== undefined) intent.amount = Number(params.amount);
        return send(response, 200, intent);
      }
    }
    return send(response, 404, stripeError('invalid_request_error', `Unrecognized request URL (${request.method}: ${url.pathname}).`));
  }

  /** A browser's confirmation: allowed with a publishable key only for the intent whose client secret it holds. */
  function confirmIntent(response: ServerResponse, id: string, params: Record<string, unknown>) {
    const intent = intents.get(id);
    const key = String(params.key ?? '');
    if (!key.startsWith('pk_')) return send(response, 401, stripeError('invalid_request_error', 'Invalid API Key provided', 'api_key_invalid'));
    if (!intent || params.client_secret !== intent.client_secret) {
      return send(response, 404, stripeError('invalid_request_error', `No such payment_intent: '${id}'`, 'resource_missing'));
    }
    if (!['requires_payment_method', 'requires_confirmation', 'requires_action'].includes(intent.status)) {
      return send(
        response,
        400,
        stripeError('invalid_request_error', `This PaymentIntent's status is ${intent.status}, so it cannot be confirmed.`, 'payment_intent_unexpected_state'),
      );
    }
    if (params.payment_method === 'pm_card_chargeDeclined') {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { message: 'Your card was declined.' };
      return send(response, 402, stripeError('card_error', 'Your card was declined.', 'card_declined'));
    }
    if (params.payment_method !== 'pm_card_visa') {
      return send(response, 400, stripeError('invalid_request_error', 'Missing required param: payment_method.', 'parameter_missing'));
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.last_payment_error = null;
    return send(response, 200, intent);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      send(response, 500, stripeError('api_error', error instanceof Error ? error.message : String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    intents,
    requests,
    creates: () => created,
    setStatus(id, status) {
      const intent = intents.get(id);
      if (!intent) throw new Error(`No fake intent ${id}`);
      intent.status = status;
      if (status === 'succeeded') intent.amount_received = intent.amount;
      return intent;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** Stripe's form encoding: `metadata[bookingId]=7&automatic_payment_methods[enabled]=true`. */
export function parseForm(body: string): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.split(/\[|\]\[|\]/).filter(Boolean);
    let target = result;
    for (const [index, part] of path.entries()) {
      if (index === path.length - 1) {
        target[part] = value;
      } else {
        target[part] ??= {};
        target = target[part] as Record<string, unknown>;
      }
    }
  }
  return result;
}

function stripeError(type: string, message: string, code?: string) {
  return { error: { type, message, ...(code ? { code } : {}) } };
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  response.writeHead(status, {
    'Content-Type': 'application/json',
    'Request-Id': `req_${randomBytes(8).toString('hex')}`,
    // As Stripe's API: Stripe.js calls it from the shop's own pages.
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key, Stripe-Version',
    ...headers,
  });
  response.end(body === null ? undefined : JSON.stringify(body));
}
