import { afterAll, describe, expect, it } from 'vitest';
import Stripe from 'stripe';
import { channelLogs } from '../../db/schema.ts';
import { createApp } from '../../src/server/api/app.ts';
import type { Logger } from '../../src/server/app/logger.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { startFakeStripe } from '../setup/fake-stripe.ts';
import { createTestContext, jsonRequest, TEST_ADMIN_PASSWORD, TEST_ORIGIN } from '../setup/test-app.ts';

/**
 * A whole day of the site: a booking, its payment (with a card number in the event, as a careless
 * integration might send), tracking by e-mail and by link, an admin session with mistakes and
 * actions. Then every log line the process wrote and every stored channel log is searched for
 * the secrets that passed through: none may appear.
 */
const WEBHOOK_SECRET = 'whsec_scan';
const fake = await startFakeStripe();
afterAll(() => fake.close());
const ctx = await createTestContext({ STRIPE_SECRET_KEY: 'sk_test_scan', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url });

const lines: string[] = [];
const capture: Logger = {
  info: (message, extra) => lines.push(JSON.stringify({ message, ...extra })),
  warn: (message, extra) => lines.push(JSON.stringify({ message, ...extra })),
  error: (message, extra) => lines.push(JSON.stringify({ message, ...extra })),
};
const app = createApp({ ...ctx.deps, log: capture });
const CARD = '4242424242424242';

describe('secrets never reach the logs', () => {
  it('after a booking, a payment, tracking and an admin session, no log holds a password, token or card number', async () => {
    const client = freshClient();
    const created = await app.request('/api/bookings', jsonRequest(bookingPayload({ specialInstructions: `Call me; card ${CARD} expires 12/30` })), client);
    expect(created.status).toBe(201);
    const booking = (await created.json()) as { id: number; checkoutToken: string };

    const intent = await app.request('/api/create-payment-intent', jsonRequest({ bookingId: booking.id, checkoutToken: booking.checkoutToken }), client);
    expect(intent.status).toBe(200);
    const { clientSecret } = (await intent.json()) as { clientSecret: string };
    const stored = [...fake.intents.values()].at(-1)!;
    const event = JSON.stringify({
      id: 'evt_scan_1', object: 'event', created: Math.floor(ctx.deps.now().getTime() / 1000), livemode: false, type: 'payment_intent.succeeded',
      data: { object: { ...stored, status: 'succeeded', amount_received: stored.amount, payment_method_details: { card: { number: CARD } } } },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: event, secret: WEBHOOK_SECRET, timestamp: Math.floor(ctx.deps.now().getTime() / 1000) });
    const webhook = await app.request('/api/stripe/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: event });
    expect(webhook.status).toBe(200);

    const tracked = await app.request('/api/track-project', jsonRequest({ email: 'amira@northernroasters.co.uk', bookingId: booking.id }), client);
    expect(tracked.status).toBe(200);
    const grant = tracked.headers.get('set-cookie')!.split(';')[0]!.split('=')[1]!;

    const wrong = await app.request('/api/admin/login', jsonRequest({ password: `${TEST_ADMIN_PASSWORD}-typo` }), client);
    expect(wrong.status).toBe(401);
    const login = await app.request('/api/admin/login', jsonRequest({ password: TEST_ADMIN_PASSWORD }), client);
    expect(login.status).toBe(204);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    const session = cookie.split('=')[1]!;
    const admin = { headers: { Cookie: cookie, Origin: TEST_ORIGIN, 'Content-Type': 'application/json' } };
    expect((await app.request(`/api/bookings/${booking.id}/status`, { ...admin, method: 'PATCH', body: JSON.stringify({ status: 'confirmed' }) }, client)).status).toBe(200);
    expect((await app.request('/api/bookings?archived=false', admin, client)).status).toBe(200);
    expect((await app.request('/api/admin/logout', { ...admin, method: 'POST' }, client)).status).toBe(204);

    const stored_logs = JSON.stringify(await ctx.deps.db.select().from(channelLogs));
    const everything = `${lines.join('\n')}\n${stored_logs}`;
    expect(stored_logs.length).toBeGreaterThan(100);
    for (const secret of [TEST_ADMIN_PASSWORD, `${TEST_ADMIN_PASSWORD}-typo`, session, booking.checkoutToken, clientSecret, grant, CARD, 'sk_test_scan', WEBHOOK_SECRET]) {
      expect(everything, `a log holds ${secret.slice(0, 6)}…`).not.toContain(secret);
    }
    expect(everything).not.toMatch(/\b(?:\d[ -]?){13,19}\b/);
  });
});
