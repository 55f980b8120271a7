import { afterAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { and, eq, inArray } from 'drizzle-orm';
import Stripe from 'stripe';
import { scheduleDays, bookings, channelLogs, emailOutbox, stripeEvents } from '../../db/schema.ts';
import { computeTotalPricePence, type WorkType } from '../../src/domain/pricing.ts';
import { createApp } from '../../src/server/api/app.ts';
import type { PaymentsProvider } from '../../src/server/providers/payments.ts';
import { toBookingJson, toCreatedBookingJson } from '../../src/server/services/bookings/booking-view.ts';
import { hashCheckoutToken } from '../../src/server/services/payments/checkout-token.ts';
import { createTestContext, jsonRequest, type TestContext } from '../setup/test-app.ts';
import { startFakeStripe, type FakeIntent } from '../setup/fake-stripe.ts';
import { bookingPayload } from '../fixtures/bookings.ts';
import { addDays } from '../../src/domain/format.ts';
import { PAYMENT_MESSAGES } from '../../src/content/payment-messages.ts';

const WEBHOOK_SECRET = 'whsec_test';
const fake = await startFakeStripe();
afterAll(() => fake.close());

const ctx = await createTestContext({
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: fake.url,
});
const db = ctx.deps.db;
// Another environment's database on the same Stripe account and webhook secret.
const otherDatabase = await createTestContext({
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: fake.url,
});

// ---------------------------------------------------------------- helpers

// Every request in this file comes from its own client address, so the rate limiter (one
// counter per client) only bites in the test that is about it.
let clientNumber = 0;
const newClient = () => ({ incoming: { socket: { remoteAddress: `10.0.${Math.floor(++clientNumber / 250)}.${clientNumber % 250}` } } });

/**
 * A booking row written directly, as POST /api/bookings would leave it: pending, unpaid, and
 * with the hash of its checkout token (returned beside the row, as the creator would hold it).
 */
let tokenNumber = 0;
let dateNumber = 0;
async function insertBooking(
  overrides: Partial<typeof bookings.$inferInsert> & { quantity?: number; workType?: WorkType } = {},
  database: typeof db = db,
) {
  const checkoutToken = `test-checkout-token-${++tokenNumber}-${Date.now()}`;
  const quantity = overrides.quantity ?? 10;
  const workType = overrides.workType ?? 'night';
  const [booking] = await database
    .insert(bookings)
    .values({
      firstName: 'Ada',
      lastName: 'Lovelace',
      businessName: 'Engines Ltd',
      email: 'ada@example.org',
      phone: '0161 496 0000',
      quantity,
      workType,
      locationAddress: '1 Market Street, Manchester M1 1AA',
      // A date of its own, so paid bookings of other tests never fill it.
      preferredDate: addDays('2028-01-01', ++dateNumber),
      totalPricePence: computeTotalPricePence(quantity, workType),
      checkoutTokenHash: hashCheckoutToken(checkoutToken),
      createdAt: ctx.deps.now(),
      ...overrides,
    })
    .returning();
  return { ...booking!, checkoutToken };
}

async function bookingById(id: number) {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row!;
}

async function createIntent(body: unknown, context: TestContext = ctx) {
  const response = await context.app.request('/api/create-payment-intent', jsonRequest(body), newClient());
  return { status: response.status, body: await response.json() };
}

/** A booking with its PaymentIntent created through the API. */
async function bookingWithIntent(overrides: Parameters<typeof insertBooking>[0] = {}) {
  const booking = await insertBooking(overrides);
  const { body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
  const intentId = (await bookingById(booking.id)).stripePaymentIntentId!;
  return { booking, intentId, clientSecret: body.clientSecret as string, intent: fake.intents.get(intentId)! };
}

/** A booking made more than a day ago and never paid: its one-hour hold on the date has lapsed. */
function lapsedBooking(overrides: Parameters<typeof insertBooking>[0] = {}) {
  return insertBooking({ createdAt: new Date(ctx.deps.now().getTime() - 25 * 3_600_000), ...overrides });
}

/** Paid bookings (only they hold a date, availability.ts) that leave `free` patches of `date`'s capacity. */
function fillDate(date: string, free: number) {
  return insertBooking({ preferredDate: date, quantity: ctx.deps.env.DAILY_PATCH_CAPACITY - free, totalPricePence: 100, paymentStatus: 'paid' });
}

const cancelRequestsFor = (intentId: string) =>
  fake.requests.filter((request) => request.method === 'POST' && request.path === `/v1/payment_intents/${intentId}/cancel`);

const nowSeconds = () => Math.floor(ctx.deps.now().getTime() / 1000);
let eventNumber = 0;

function paymentEvent(
  type: string,
  intent: FakeIntent,
  options: { id?: string; livemode?: boolean; created?: number; amountReceived?: number; currency?: string; metadata?: Record<string, string>; failure?: string } = {},
) {
  const succeeded = type === 'payment_intent.succeeded';
  return JSON.stringify({
    id: options.id ?? `evt_${Date.now()}_${++eventNumber}`,
    object: 'event',
    api_version: '2026-10-28',
    created: options.created ?? nowSeconds(),
    livemode: options.livemode ?? false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object: {
        ...intent,
        livemode: options.livemode ?? false,
        status: succeeded ? 'succeeded' : type === 'payment_intent.processing' ? 'processing' : 'requires_payment_method',
        amount_received: succeeded ? (options.amountReceived ?? intent.amount) : 0,
        currency: options.currency ?? intent.currency,
        metadata: options.metadata ?? intent.metadata,
        last_payment_error: options.failure ? { message: options.failure, type: 'card_error' } : null,
      },
    },
  });
}

function sign(payload: string, options: { timestamp?: number; secret?: string } = {}) {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WEBHOOK_SECRET,
    timestamp: options.timestamp ?? nowSeconds(),
  });
}

async function deliver(payload: string, signature: string | null = sign(payload), context: TestContext = ctx) {
  const response = await context.app.request('/api/stripe/webhook', {
    method: 'POST',
    // Stripe sends no Origin; the route is exempt from the same-origin check.
    headers: { 'Content-Type': 'application/json; charset=utf-8', ...(signature ? { 'Stripe-Signature': signature } : {}) },
    body: payload,
  });
  return { status: response.status, body: await response.json() };
}

async function logsFor(bookingId: number, action: string) {
  return db
    .select()
    .from(channelLogs)
    .where(and(eq(channelLogs.entityId, String(bookingId)), eq(channelLogs.action, action)));
}

async function receiptsFor(bookingId: number) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `payment-receipt:${bookingId}`));
}

async function statusOf(paymentIntent: string, clientSecret: string, context: TestContext = ctx) {
  const query = new URLSearchParams({ payment_intent: paymentIntent, client_secret: clientSecret });
  const response = await context.app.request(`/api/payments/status?${query}`, {}, newClient());
  return { status: response.status, body: await response.json() };
}

// ---------------------------------------------------------------- POST /api/create-payment-intent

describe('POST /api/create-payment-intent', () => {
  it('charges the booking’s own price in pence, whatever amount the body sends', async () => {
    const booking = await insertBooking({ quantity: 10, workType: 'night' });
    const creates = fake.creates();

    const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken, amount: 1 });

    expect(status).toBe(200);
    expect(body).toEqual({ clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/), amount: 799, amountPence: 79900, currency: 'gbp' });
    expect(fake.creates()).toBe(creates + 1);
    const stored = await bookingById(booking.id);
    const intent = fake.intents.get(stored.stripePaymentIntentId!)!;
    expect(intent).toMatchObject({
      amount: 79900,
      currency: 'gbp',
      // The booking's id with its creation instant: ids alone repeat in other databases.
      metadata: { bookingId: String(booking.id), bookingRef: `${booking.id}:${booking.createdAt.getTime()}` },
      automatic_payment_methods: { enabled: true },
      receipt_email: null,
      description: `Clean Patch booking #${booking.id}`,
      client_secret: body.clientSecret,
    });
    const createRequest = fake.requests.findLast((request) => request.method === 'POST' && request.path === '/v1/payment_intents');
    // Stripe.js shows the intent to the client secret's holder: no e-mail, no names sent at all.
    expect(createRequest?.params).not.toHaveProperty('receipt_email');
    expect(JSON.stringify(createRequest?.params)).not.toMatch(/\bada\b|lovelace|engines|market street|example\.org/i);
    expect(createRequest?.idempotencyKey).toBe(`booking-${booking.id}:${booking.createdAt.getTime()}-pi-79900`);
    expect(createRequest?.authorization).toBe('Bearer sk_test_x');
    // Creating the intent is not a payment: only the webhook changes the payment state.
    expect(stored.paymentStatus).toBe('unpaid');
  });

  it('reuses the booking’s one intent on repeat calls and on a double click', async () => {
    const booking = await insertBooking({ quantity: 5, workType: 'day' });
    const creates = fake.creates();

    const first = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken, amount: 349 });
    const again = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken, amount: 349 });
    const [clickA, clickB] = await Promise.all([
      createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken }),
      createIntent({ bookingId: String(booking.id), checkoutToken: booking.checkoutToken }),
    ]);

    expect(fake.creates()).toBe(creates + 1);
    for (const answer of [again, clickA, clickB]) {
      expect(answer.status).toBe(200);
      expect(answer.body.clientSecret).toBe(first.body.clientSecret);
    }
    expect(first.body.amountPence).toBe(34900);
  });

  it('brings a reused intent’s amount in line when the booking’s price has changed', async () => {
    const { booking, intentId } = await bookingWithIntent({ quantity: 5, workType: 'day' });
    await db.update(bookings).set({ quantity: 10, totalPricePence: 59900 }).where(eq(bookings.id, booking.id));

    const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken, amount: 349 });

    expect(status).toBe(200);
    expect(body.amountPence).toBe(59900);
    expect((await bookingById(booking.id)).stripePaymentIntentId).toBe(intentId);
    expect(fake.intents.get(intentId)!.amount).toBe(59900);
  });

  it('replaces a canceled intent with a new one', async () => {
    const { booking, intentId } = await bookingWithIntent();
    fake.setStatus(intentId, 'canceled');

    const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });

    expect(status).toBe(200);
    const replacement = (await bookingById(booking.id)).stripePaymentIntentId!;
    expect(replacement).not.toBe(intentId);
    expect(body.clientSecret).toBe(fake.intents.get(replacement)!.client_secret);
    expect(fake.requests.findLast((request) => request.path === '/v1/payment_intents')?.idempotencyKey).toBe(
      `booking-${booking.id}:${booking.createdAt.getTime()}-pi-79900-after-${intentId}`,
    );
  });

  it('answers 409 (our data, not Stripe, is at fault) and logs it for staff when Stripe hands back an intent stored on another booking', async () => {
    const holder = await bookingWithIntent();
    const booking = await insertBooking();
    // Stripe answers with the other booking's intent (a copied row, a reused idempotency key).
    const real = ctx.deps.payments!;
    const payments: PaymentsProvider = {
      createOrReuseIntent: async () => (await real.retrieveIntent(holder.intentId))!,
      retrieveIntent: (id) => real.retrieveIntent(id),
      cancelIntent: (id) => real.cancelIntent(id),
      constructWebhookEvent: (...args) => real.constructWebhookEvent(...args),
    };
    const app = createApp({ ...ctx.deps, payments });

    const response = await app.request('/api/create-payment-intent', jsonRequest({ bookingId: booking.id, checkoutToken: booking.checkoutToken }), newClient());

    expect(response.status).toBe(409);
    const body = await response.json();
    expect(body.error).toBe(
      'We could not set up the payment for this booking. Please contact us on 0161 496 0123 or hello@cleanpatch.example and quote your booking ID.',
    );
    expect(body).not.toHaveProperty('clientSecret');
    expect((await bookingById(booking.id)).stripePaymentIntentId).toBeNull();
    expect((await bookingById(holder.booking.id)).stripePaymentIntentId).toBe(holder.intentId);
    const logs = await logsFor(booking.id, 'payment_intent_conflict');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ channel: 'booking', severity: 'error' });
    expect(logs[0]!.details).toContain(holder.intentId);
    expect(logs[0]!.details).toContain(`booking #${holder.booking.id}`);
  });

  it('answers 404 for an unknown booking, including a browser timestamp used as an id', async () => {
    for (const bookingId of [999_999, 1_732_270_000_000]) {
      const { status, body } = await createIntent({ bookingId, checkoutToken: 'some-token', amount: 349 });
      expect(status).toBe(404);
      expect(body.error).toBe('Booking not found');
    }
  });

  it('requires the booking’s checkout token: missing is 400, wrong is the same 404 as an unknown booking', async () => {
    const booking = await insertBooking();
    const other = await insertBooking();
    const creates = fake.creates();

    const missing = await createIntent({ bookingId: booking.id, amount: 799 });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ error: 'Checkout link is missing or invalid', fields: { checkoutToken: 'Checkout link is missing or invalid' } });
    expect((await createIntent({ bookingId: booking.id, checkoutToken: '' })).body.fields).toHaveProperty('checkoutToken');

    const answers = [await createIntent({ bookingId: 999_998, checkoutToken: booking.checkoutToken })];
    for (const token of [`${booking.checkoutToken}x`, other.checkoutToken, 'guess']) {
      answers.push(await createIntent({ bookingId: booking.id, checkoutToken: token }));
    }
    // Identical apart from each response's own request id: nothing tells a real id from a made-up one.
    for (const { status, body } of answers) {
      expect(status).toBe(404);
      expect(Object.keys(body).sort()).toEqual(['error', 'requestId']);
      expect(body.error).toBe('Booking not found');
    }
    expect(fake.creates()).toBe(creates);

    const right = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
    expect(right.status).toBe(200);
    expect(fake.creates()).toBe(creates + 1);
  });

  it('takes the payment for a booking made through POST /api/bookings with the token from its answer or its replay', async () => {
    // One browser: a key's stored answer replays only to the client that made it.
    const browser = newClient();
    const book = () =>
      ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: '2027-09-01' }), { headers: { 'Idempotency-Key': 'pay-me' } }), browser);
    const created = await (await book()).json();
    const replayed = await (await book()).json();
    expect(replayed.checkoutToken).toBe(created.checkoutToken);

    const first = await createIntent({ bookingId: created.id, checkoutToken: created.checkoutToken, amount: created.totalPrice });
    const again = await createIntent({ bookingId: replayed.id, checkoutToken: replayed.checkoutToken, amount: replayed.totalPrice });
    expect([first.status, again.status]).toEqual([200, 200]);
    expect(again.body.clientSecret).toBe(first.body.clientSecret);
    expect((await createIntent({ bookingId: created.id + 1, checkoutToken: created.checkoutToken })).status).toBe(404);
  });

  it('answers 404 for a booking that has no checkout token (seeded or older bookings)', async () => {
    const booking = await insertBooking({ checkoutTokenHash: null });
    const creates = fake.creates();
    const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
    expect(status).toBe(404);
    expect(body.error).toBe('Booking not found');
    expect(fake.creates()).toBe(creates);
  });

  describe('the customer who pays first gets the day', () => {
    const GONE = PAYMENT_MESSAGES.dateNoLongerAvailable;

    it('a stranger’s unpaid booking of a whole day turns nobody away: the next customer books and pays, the stranger is told at checkout', async () => {
      const date = '2027-09-30';
      const capacity = ctx.deps.env.DAILY_PATCH_CAPACITY;
      const make = async (quantity: number) => {
        const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: date, quantity })), newClient());
        expect(response.status).toBe(201);
        return (await response.json()) as { id: number; checkoutToken: string };
      };
      const stranger = await make(capacity);
      const unavailable = await (await ctx.app.request('/api/bookings/unavailable-dates')).json();
      expect(unavailable.unavailableDates).not.toContain(date);
      const customer = await make(capacity);
      const customerIntent = await createIntent({ bookingId: customer.id, checkoutToken: customer.checkoutToken });
      expect(customerIntent.status).toBe(200);
      // The stranger opens checkout too; the customer's payment lands first.
      expect((await createIntent({ bookingId: stranger.id, checkoutToken: stranger.checkoutToken })).status).toBe(200);
      const intent = fake.intents.get((await bookingById(customer.id)).stripePaymentIntentId!)!;
      fake.setStatus(intent.id, 'succeeded');
      expect((await deliver(paymentEvent('payment_intent.succeeded', intent))).status).toBe(200);
      expect((await bookingById(customer.id)).paymentStatus).toBe('paid');

      const late = await createIntent({ bookingId: stranger.id, checkoutToken: stranger.checkoutToken });
      expect(late.status).toBe(409);
      expect(late.body.error).toBe(GONE);
      // Nothing of theirs is lost: the booking stays, unpaid, with what they typed.
      expect(await bookingById(stranger.id)).toMatchObject({ paymentStatus: 'unpaid', status: 'pending', quantity: capacity, preferredDate: date });
    });

    it('the customer told at checkout picks another date with room there and pays, everything else kept', async () => {
      const date = '2027-09-28';
      const other = '2027-09-27';
      const capacity = ctx.deps.env.DAILY_PATCH_CAPACITY;
      const make = async () => {
        const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: date, quantity: capacity })), newClient());
        return (await response.json()) as { id: number; checkoutToken: string };
      };
      const late = await make();
      const first = await make();
      expect((await createIntent({ bookingId: first.id, checkoutToken: first.checkoutToken })).status).toBe(200);
      const intent = fake.intents.get((await bookingById(first.id)).stripePaymentIntentId!)!;
      fake.setStatus(intent.id, 'succeeded');
      expect((await deliver(paymentEvent('payment_intent.succeeded', intent))).status).toBe(200);
      expect((await createIntent({ bookingId: late.id, checkoutToken: late.checkoutToken })).status).toBe(409);

      const change = (body: Record<string, unknown>) => ctx.app.request('/api/checkout-booking/date', jsonRequest(body), newClient());
      // Only the checkout token's holder, only a date with room, never the past.
      expect((await change({ bookingId: late.id, checkoutToken: 'guess', date: other })).status).toBe(404);
      expect((await change({ bookingId: late.id, checkoutToken: late.checkoutToken, date })).status).toBe(409);
      expect((await change({ bookingId: late.id, checkoutToken: late.checkoutToken, date: '2020-01-01' })).status).toBe(400);
      // The booking form's rules hold here too: from July only, and not years ahead.
      const beforeJuly = await change({ bookingId: late.id, checkoutToken: late.checkoutToken, date: '2028-03-14' });
      expect(beforeJuly.status).toBe(400);
      expect((await beforeJuly.json()).error).toBe('Bookings are only available from July onwards');
      const yearsAhead = await change({ bookingId: late.id, checkoutToken: late.checkoutToken, date: '2099-07-14' });
      expect(yearsAhead.status).toBe(400);
      expect((await yearsAhead.json()).error).toBe('Preferred date must be within 2 years of today');
      expect((await bookingById(late.id)).preferredDate).toBe(date);
      // The paid booking keeps its day.
      expect((await change({ bookingId: first.id, checkoutToken: first.checkoutToken, date: other })).status).toBe(409);
      expect((await bookingById(first.id)).preferredDate).toBe(date);

      const moved = await change({ bookingId: late.id, checkoutToken: late.checkoutToken, date: other });
      expect(moved.status).toBe(200);
      expect(await moved.json()).toMatchObject({ bookingId: late.id, preferredDate: other, quantity: String(capacity), firstName: 'Amira' });
      expect(await bookingById(late.id)).toMatchObject({ preferredDate: other, paymentStatus: 'unpaid', quantity: capacity });
      expect((await createIntent({ bookingId: late.id, checkoutToken: late.checkoutToken })).status).toBe(200);
    });

    it('still takes the payment when the date is free', async () => {
      const booking = await lapsedBooking({ preferredDate: '2027-07-20', quantity: 5, workType: 'day' });
      const { status } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
      expect(status).toBe(200);
    });

    it('answers 409 when others have filled the date since, without creating an intent', async () => {
      const date = '2027-07-21';
      const booking = await lapsedBooking({ preferredDate: date, quantity: 10 });
      // Fresh bookings that fill the day's capacity around the lapsed one.
      await fillDate(date, 5);
      const creates = fake.creates();

      const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });

      expect(status).toBe(409);
      expect(body.error).toBe(GONE);
      expect(fake.creates()).toBe(creates);
      // A booking made a minute ago is told the same: an unpaid booking holds nothing.
      const fresh = await insertBooking({ preferredDate: date, quantity: 10 });
      expect((await createIntent({ bookingId: fresh.id, checkoutToken: fresh.checkoutToken })).status).toBe(409);
    });

    it('cancels the intent it handed out earlier, so a tab still holding it can no longer pay', async () => {
      const date = '2027-07-23';
      const booking = await lapsedBooking({ preferredDate: date, quantity: 10 });
      const first = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
      expect(first.status).toBe(200);
      const intentId = (await bookingById(booking.id)).stripePaymentIntentId!;
      await fillDate(date, 5);
      const creates = fake.creates();

      const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });

      expect(status).toBe(409);
      expect(body.error).toBe(GONE);
      expect(fake.intents.get(intentId)).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
      expect(fake.creates()).toBe(creates);
      expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'unpaid', stripePaymentIntentId: intentId });
    });

    it.each(['succeeded', 'processing'])('leaves an intent that is already %s alone and answers as before', async (stripeStatus) => {
      const date = stripeStatus === 'succeeded' ? '2027-07-24' : '2027-07-25';
      const booking = await lapsedBooking({ preferredDate: date, quantity: 10 });
      await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
      const intentId = (await bookingById(booking.id)).stripePaymentIntentId!;
      await fillDate(date, 5);
      // The customer paid in the other tab; the webhook has not landed yet.
      fake.setStatus(intentId, stripeStatus);

      const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });

      expect(status).toBe(409);
      expect(body.error).toBe(GONE);
      expect(fake.intents.get(intentId)!.status).toBe(stripeStatus);
      expect(cancelRequestsFor(intentId)).toHaveLength(0);
    });

    it('answers 409 when the date has been blocked or has passed (UK date)', async () => {
      const blockedDay = '2027-07-22';
      await db.insert(scheduleDays).values({ date: blockedDay, capacity: 0, reason: 'Test' });
      const blocked = await lapsedBooking({ preferredDate: blockedDay, quantity: 5, workType: 'day' });
      // 10:00 UTC on 22 November 2026: the 21st is yesterday in London.
      const past = await lapsedBooking({ preferredDate: '2026-11-21', quantity: 5, workType: 'day' });
      for (const booking of [blocked, past]) {
        const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
        expect(status).toBe(409);
        expect(body.error).toBe(GONE);
      }
    });
  });

  it('answers 400 without a booking id', async () => {
    const { status, body } = await createIntent({ amount: 349 });
    expect(status).toBe(400);
    expect(body.fields).toHaveProperty('bookingId');
  });

  it('answers 409 for a booking that is already paid', async () => {
    const booking = await insertBooking({ paymentStatus: 'paid', amountPaidPence: 79900 });
    const creates = fake.creates();
    const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
    expect(status).toBe(409);
    expect(body.error).toBe('This booking has already been paid');
    expect(fake.creates()).toBe(creates);
  });

  it('answers 409 when Stripe already took the payment but the webhook has not arrived', async () => {
    const { booking, intentId } = await bookingWithIntent();
    fake.setStatus(intentId, 'succeeded');
    const { status, body } = await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
    expect(status).toBe(409);
    expect(body.error).toBe('This booking has already been paid');
  });

  it('refuses a cross-site request', async () => {
    const booking = await insertBooking();
    const response = await ctx.app.request(
      '/api/create-payment-intent',
      jsonRequest({ bookingId: booking.id, checkoutToken: booking.checkoutToken }, { headers: { Origin: 'https://evil.example' } }),
      newClient(),
    );
    expect(response.status).toBe(403);
  });

  it('is rate limited per client', async () => {
    const booking = await insertBooking();
    const client = { incoming: { socket: { remoteAddress: '192.0.2.77' } } };
    const statuses: number[] = [];
    for (let i = 0; i < 21; i += 1) {
      const response = await ctx.app.request('/api/create-payment-intent', jsonRequest({ bookingId: booking.id, checkoutToken: booking.checkoutToken }), client);
      statuses.push(response.status);
    }
    expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});

// ---------------------------------------------------------------- POST /api/stripe/webhook

describe('POST /api/stripe/webhook', () => {
  it('marks the booking paid, confirmed and a test booking, with one log and one receipt', async () => {
    const { booking, intent } = await bookingWithIntent();
    const created = nowSeconds() - 30;
    const payload = paymentEvent('payment_intent.succeeded', intent, { created });

    const { status, body } = await deliver(payload);

    expect(status).toBe(200);
    expect(body).toEqual({ received: true });
    const paid = await bookingById(booking.id);
    expect(paid).toMatchObject({
      paymentStatus: 'paid',
      amountPaidPence: 79900,
      status: 'confirmed',
      isTest: true,
      paymentFailureMessage: null,
    });
    expect(paid.paidAt?.toISOString()).toBe(new Date(created * 1000).toISOString());
    // The booking serialiser every route uses carries the payment state (pounds, ISO instant).
    expect(toBookingJson(paid)).toMatchObject({ paymentStatus: 'paid', amountPaid: 799, paidAt: new Date(created * 1000).toISOString(), isTest: true, status: 'confirmed' });

    const logs = await logsFor(booking.id, 'payment_succeeded');
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ channel: 'booking', severity: 'info' });
    const receipts = await receiptsFor(booking.id);
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ kind: 'payment-receipt', to: 'ada@example.org', subject: `Payment received for booking #${booking.id}` });
    expect(receipts[0]!.text).toContain('£799');
    // The receipt carries its own magic link to the tracking page, which opens this booking.
    const token = /\/track-project\?t=([\w-]+)/.exec(receipts[0]!.text)?.[1];
    const tracked = await ctx.app.request('/api/track-project', jsonRequest({ token }));
    expect(tracked.status).toBe(200);
    expect((await tracked.json()).id).toBe(booking.id);
    // Delivered after commit (no SendGrid key here, so the outbox transport logs it).
    expect(receipts[0]!.status).toBe('logged');
  });

  it('sends only this booking’s receipt before answering, leaving other queued mail to the maintenance job', async () => {
    const { booking, intent } = await bookingWithIntent();
    const others = await db
      .insert(emailOutbox)
      .values(
        ['booking-confirmation', 'completion', 'review-request'].map((kind) => ({
          kind,
          to: 'someone@example.org',
          subject: `Queued ${kind}`,
          text: 'Waiting for delivery',
          dedupeKey: `${kind}:queued-beside-receipt:${booking.id}`,
        })),
      )
      .returning({ id: emailOutbox.id });

    expect((await deliver(paymentEvent('payment_intent.succeeded', intent))).status).toBe(200);

    expect((await receiptsFor(booking.id))[0]!.status).toBe('logged');
    const left = await db.select().from(emailOutbox).where(inArray(emailOutbox.id, others.map((row) => row.id))).orderBy(emailOutbox.id);
    expect(left.map((row) => [row.kind, row.status, row.attempts])).toEqual([
      ['booking-confirmation', 'queued', 0],
      ['completion', 'queued', 0],
      ['review-request', 'queued', 0],
    ]);
  });

  it('shows the payment state in the same shape on a booking made through POST /api/bookings', async () => {
    const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: '2027-09-02' })), newClient());
    const created = await response.json();
    expect(response.status).toBe(201);
    expect(created).toMatchObject({ paymentStatus: 'unpaid', amountPaid: null, paidAt: null });

    await createIntent({ bookingId: created.id, checkoutToken: created.checkoutToken });
    const intent = fake.intents.get((await bookingById(created.id)).stripePaymentIntentId!)!;
    const paidAtSeconds = nowSeconds() - 5;
    await deliver(paymentEvent('payment_intent.succeeded', intent, { created: paidAtSeconds }));

    const paid = await bookingById(created.id);
    const payment = { paymentStatus: 'paid', amountPaid: created.totalPrice, paidAt: new Date(paidAtSeconds * 1000).toISOString() };
    expect(toCreatedBookingJson(paid)).toMatchObject(payment);
    expect(toBookingJson(paid)).toMatchObject(payment);
  });

  it('does nothing the second time the same event is delivered', async () => {
    const { booking, intent } = await bookingWithIntent();
    const payload = paymentEvent('payment_intent.succeeded', intent);

    expect((await deliver(payload)).body).toEqual({ received: true });
    const again = await deliver(payload);
    const third = await deliver(payload, sign(payload));

    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect(third.body.duplicate).toBe(true);
    expect(await logsFor(booking.id, 'payment_succeeded')).toHaveLength(1);
    expect(await receiptsFor(booking.id)).toHaveLength(1);
    const eventId = JSON.parse(payload).id;
    expect(await db.select().from(stripeEvents).where(eq(stripeEvents.id, eventId))).toHaveLength(1);
  });

  // Stripe retries a delivery it thinks timed out while the first is still running. This file
  // also runs on PostgreSQL (`npm run test:pg`), where these deliveries are truly concurrent
  // transactions on separate connections.
  it('applies one event delivered five times at once exactly once', async () => {
    const { booking, intent } = await bookingWithIntent();
    const payload = paymentEvent('payment_intent.succeeded', intent);

    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    expect(answers.filter((answer) => answer.body.duplicate !== true)).toHaveLength(1);
    expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'paid', status: 'confirmed', amountPaidPence: 79900 });
    expect(await logsFor(booking.id, 'payment_succeeded')).toHaveLength(1);
    expect(await receiptsFor(booking.id)).toHaveLength(1);
    expect(await db.select().from(stripeEvents).where(eq(stripeEvents.id, JSON.parse(payload).id))).toHaveLength(1);
  });

  it('pays once when two different succeeded events arrive for one booking, even at the same moment', async () => {
    const { booking, intent } = await bookingWithIntent();
    const first = paymentEvent('payment_intent.succeeded', intent);
    const second = paymentEvent('payment_intent.succeeded', intent);

    const answers = await Promise.all([deliver(first), deliver(second)]);

    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect((await bookingById(booking.id)).paymentStatus).toBe('paid');
    expect(await logsFor(booking.id, 'payment_succeeded')).toHaveLength(1);
    expect(await receiptsFor(booking.id)).toHaveLength(1);
    // The same intent reported twice is no second charge.
    expect(await logsFor(booking.id, 'payment_duplicate_charge')).toHaveLength(0);
  });

  it('raises a critical alarm naming both intents when another intent of a paid booking also takes money', async () => {
    const { booking, intent, intentId } = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.succeeded', intent));
    // A second intent made for this booking (it carries the booking's reference) succeeds too.
    const second = { ...intent, id: 'pi_second_charge_for_one_booking' };
    const payload = paymentEvent('payment_intent.succeeded', second);

    expect((await deliver(payload)).status).toBe(200);
    // Stripe's retry of that event raises no second alarm.
    expect((await deliver(payload)).body.duplicate).toBe(true);

    expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'paid', amountPaidPence: 79900, stripePaymentIntentId: intentId });
    const alarms = await logsFor(booking.id, 'payment_duplicate_charge');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      channel: 'booking',
      severity: 'critical',
      metadata: expect.objectContaining({ paymentIntentId: second.id, paidPaymentIntentId: intentId, amountReceived: 79900 }),
    });
    expect(alarms[0]!.details).toContain(intentId);
    expect(alarms[0]!.details).toContain(second.id);
    expect(alarms[0]!.details).toContain('£799');
    expect(await logsFor(booking.id, 'payment_succeeded')).toHaveLength(1);
    expect(await receiptsFor(booking.id)).toHaveLength(1);
  });

  it('keeps a paid booking paid when a failure or processing event arrives late', async () => {
    const { booking, intent } = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.succeeded', intent));

    const failed = await deliver(paymentEvent('payment_intent.payment_failed', intent, { failure: 'Your card was declined.' }));
    const processing = await deliver(paymentEvent('payment_intent.processing', intent));

    expect(failed.status).toBe(200);
    expect(processing.status).toBe(200);
    const row = await bookingById(booking.id);
    expect(row).toMatchObject({ paymentStatus: 'paid', paymentFailureMessage: null, status: 'confirmed' });
    expect(await logsFor(booking.id, 'payment_failed')).toHaveLength(0);
    expect(await receiptsFor(booking.id)).toHaveLength(1);
  });

  it('records a failure, then a later success', async () => {
    const { booking, intent } = await bookingWithIntent();

    await deliver(paymentEvent('payment_intent.payment_failed', intent, { failure: 'Your card has insufficient funds.' }));
    const failed = await bookingById(booking.id);
    expect(failed).toMatchObject({ paymentStatus: 'failed', paymentFailureMessage: 'Your card has insufficient funds.', status: 'pending' });
    const warnings = await logsFor(booking.id, 'payment_failed');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.severity).toBe('warning');

    await deliver(paymentEvent('payment_intent.succeeded', intent));
    expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'paid', paymentFailureMessage: null, status: 'confirmed' });
  });

  it('records processing', async () => {
    const { booking, intent } = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.processing', intent));
    expect((await bookingById(booking.id)).paymentStatus).toBe('processing');
  });

  describe('processing and failed events out of order', () => {
    const secondsAgo = (seconds: number) => nowSeconds() - seconds;

    it('keeps a failure when an older processing event arrives after it', async () => {
      const { booking, intent, intentId, clientSecret } = await bookingWithIntent();
      await deliver(paymentEvent('payment_intent.payment_failed', intent, { created: secondsAgo(10), failure: 'Your card was declined.' }));

      const late = await deliver(paymentEvent('payment_intent.processing', intent, { created: secondsAgo(20) }));

      expect(late).toEqual({ status: 200, body: { received: true, ignored: true } });
      expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'failed', paymentFailureMessage: 'Your card was declined.' });
      expect((await statusOf(intentId, clientSecret)).body.paymentStatus).toBe('failed');
    });

    it('keeps processing when an older failure arrives after it, and logs no failure', async () => {
      const { booking, intent, intentId, clientSecret } = await bookingWithIntent();
      await deliver(paymentEvent('payment_intent.processing', intent, { created: secondsAgo(10) }));

      const late = await deliver(paymentEvent('payment_intent.payment_failed', intent, { created: secondsAgo(20), failure: 'Your card was declined.' }));

      expect(late).toEqual({ status: 200, body: { received: true, ignored: true } });
      expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'processing', paymentFailureMessage: null });
      expect(await logsFor(booking.id, 'payment_failed')).toHaveLength(0);
      expect((await statusOf(intentId, clientSecret)).body.paymentStatus).toBe('processing');
    });

    it('applies each newer event in turn (a retry after a decline, then another decline)', async () => {
      const { booking, intent } = await bookingWithIntent();
      await deliver(paymentEvent('payment_intent.payment_failed', intent, { created: secondsAgo(30), failure: 'Your card was declined.' }));
      await deliver(paymentEvent('payment_intent.processing', intent, { created: secondsAgo(20) }));
      expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'processing', paymentFailureMessage: null });

      await deliver(paymentEvent('payment_intent.payment_failed', intent, { created: secondsAgo(10), failure: 'Your card has insufficient funds.' }));
      expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'failed', paymentFailureMessage: 'Your card has insufficient funds.' });
      expect(await logsFor(booking.id, 'payment_failed')).toHaveLength(2);
    });

    it('lets a success win even when it is older than the failure already recorded', async () => {
      const { booking, intent } = await bookingWithIntent();
      await deliver(paymentEvent('payment_intent.payment_failed', intent, { created: secondsAgo(10), failure: 'Your card was declined.' }));
      await deliver(paymentEvent('payment_intent.succeeded', intent, { created: secondsAgo(20) }));
      expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'paid', paymentFailureMessage: null, status: 'confirmed' });
    });
  });

  it('does not mark paid when the amount received differs from the booking’s price: records it for review and logs it as critical', async () => {
    const { booking, intent } = await bookingWithIntent();

    const { status } = await deliver(paymentEvent('payment_intent.succeeded', intent, { amountReceived: 100 }));

    expect(status).toBe(200);
    const row = await bookingById(booking.id);
    // Money has arrived, so the booking is neither paid nor unpaid: processing, with the reason.
    expect(row).toMatchObject({ paymentStatus: 'processing', amountPaidPence: null, paidAt: null, status: 'pending' });
    expect(row.paymentFailureMessage).toBe(`Under review: Stripe reports £1 received on PaymentIntent ${intent.id}, but the booking costs £799.`);
    const critical = await logsFor(booking.id, 'payment_amount_mismatch');
    expect(critical).toHaveLength(1);
    expect(critical[0]!.severity).toBe('critical');
    expect(await receiptsFor(booking.id)).toHaveLength(0);
  });

  it('does not mark paid when the currency is not pounds', async () => {
    const { booking, intent } = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.succeeded', intent, { currency: 'eur' }));
    expect(await bookingById(booking.id)).toMatchObject({
      paymentStatus: 'processing',
      paymentFailureMessage: `Under review: Stripe reports 79900 EUR (minor units) received on PaymentIntent ${intent.id}, but the booking costs £799.`,
    });
    expect(await logsFor(booking.id, 'payment_amount_mismatch')).toHaveLength(1);
  });

  it('leaves a live-mode payment’s booking unflagged, keeps an existing test flag, and leaves other statuses alone', async () => {
    const live = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.succeeded', live.intent, { livemode: true }));
    expect(await bookingById(live.booking.id)).toMatchObject({ paymentStatus: 'paid', isTest: false });

    const flagged = await bookingWithIntent({ isTest: true, status: 'completed' });
    await deliver(paymentEvent('payment_intent.succeeded', flagged.intent, { livemode: true }));
    expect(await bookingById(flagged.booking.id)).toMatchObject({ paymentStatus: 'paid', isTest: true, status: 'completed' });
  });

  it('records a payment for a cancelled booking as paid, with a critical log to act on', async () => {
    const { booking, intent } = await bookingWithIntent();
    await db.update(bookings).set({ status: 'cancelled' }).where(eq(bookings.id, booking.id));

    const { status } = await deliver(paymentEvent('payment_intent.succeeded', intent));

    expect(status).toBe(200);
    expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'paid', amountPaidPence: 79900, status: 'cancelled' });
    const critical = await logsFor(booking.id, 'payment_for_cancelled_booking');
    expect(critical).toHaveLength(1);
    expect(critical[0]).toMatchObject({ channel: 'booking', severity: 'critical' });
    // An ordinary payment raises no such alarm.
    const normal = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.succeeded', normal.intent));
    expect(await logsFor(normal.booking.id, 'payment_for_cancelled_booking')).toHaveLength(0);
  });

  it('records a late payment for a date filled since as paid, with a critical log naming the date and the patches over', async () => {
    const date = '2027-07-26';
    const booking = await lapsedBooking({ preferredDate: date, quantity: 10 });
    await createIntent({ bookingId: booking.id, checkoutToken: booking.checkoutToken });
    const intent = fake.intents.get((await bookingById(booking.id)).stripePaymentIntentId!)!;
    // The hold lapsed; others took 35 of the day's 40 patches; then the old tab paid.
    await fillDate(date, 5);

    const { status } = await deliver(paymentEvent('payment_intent.succeeded', intent));

    expect(status).toBe(200);
    expect(await bookingById(booking.id)).toMatchObject({ paymentStatus: 'paid', amountPaidPence: 79900, status: 'confirmed' });
    expect(await receiptsFor(booking.id)).toHaveLength(1);
    const alarms = await logsFor(booking.id, 'payment_over_capacity');
    expect(alarms).toHaveLength(1);
    expect(alarms[0]).toMatchObject({
      channel: 'booking',
      severity: 'critical',
      metadata: expect.objectContaining({ date, patches: 45, capacity: 40, patchesOver: 5 }),
    });
    expect(alarms[0]!.details).toContain('26 July 2027');
    expect(alarms[0]!.details).toContain('5 over the daily capacity of 40');

    // A late payment whose date still has room raises no alarm.
    const roomy = await lapsedBooking({ preferredDate: '2027-07-27', quantity: 10 });
    await createIntent({ bookingId: roomy.id, checkoutToken: roomy.checkoutToken });
    const roomyIntent = fake.intents.get((await bookingById(roomy.id)).stripePaymentIntentId!)!;
    await fillDate('2027-07-27', 10);
    await deliver(paymentEvent('payment_intent.succeeded', roomyIntent));
    expect((await bookingById(roomy.id)).paymentStatus).toBe('paid');
    expect(await logsFor(roomy.id, 'payment_over_capacity')).toHaveLength(0);
  });

  it('finds the booking by its stored intent when the metadata has no booking id', async () => {
    const { booking, intent } = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.succeeded', intent, { metadata: {} }));
    expect((await bookingById(booking.id)).paymentStatus).toBe('paid');
  });

  it('logs an event for a booking it does not know and answers 200 so Stripe stops retrying', async () => {
    const { intent } = await bookingWithIntent();
    const stranger = { ...intent, id: 'pi_unknown_to_us' };
    const { status } = await deliver(paymentEvent('payment_intent.succeeded', stranger, { metadata: { bookingId: '999999' } }));
    expect(status).toBe(200);
    const logs = await db.select().from(channelLogs).where(eq(channelLogs.entityId, 'pi_unknown_to_us'));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ action: 'payment_booking_not_found', severity: 'error' });
  });

  it('takes the booking that stored the intent when the metadata names a booking the intent was not made for', async () => {
    const { booking, intent } = await bookingWithIntent();
    const named = await insertBooking();
    await deliver(paymentEvent('payment_intent.succeeded', intent, { metadata: { bookingId: String(named.id), bookingRef: `${named.id}:1` } }));
    expect((await bookingById(booking.id)).paymentStatus).toBe('paid');
    expect((await bookingById(named.id)).paymentStatus).toBe('unpaid');
  });

  describe('with another database on the same Stripe account', () => {
    // A reset dev database, or preview beside staging: the same booking ids, one Stripe account,
    // and Stripe sends every event to every endpoint.
    const SHARED_ID = 70_001;

    it('gives a booking of the same id its own intent, and its payment does not mark ours paid', async () => {
      const ours = await insertBooking({ id: SHARED_ID });
      const theirs = await insertBooking({ id: SHARED_ID, createdAt: new Date(ctx.deps.now().getTime() - 3_600_000) }, otherDatabase.deps.db);
      const creates = fake.creates();

      const mine = await createIntent({ bookingId: ours.id, checkoutToken: ours.checkoutToken });
      const other = await createIntent({ bookingId: theirs.id, checkoutToken: theirs.checkoutToken }, otherDatabase);

      expect([mine.status, other.status]).toEqual([200, 200]);
      expect(fake.creates()).toBe(creates + 2);
      expect(other.body.clientSecret).not.toBe(mine.body.clientSecret);
      const [theirRow] = await otherDatabase.deps.db.select().from(bookings).where(eq(bookings.id, SHARED_ID));
      const theirIntent = fake.intents.get(theirRow!.stripePaymentIntentId!)!;
      expect(theirIntent.metadata.bookingId).toBe(String(SHARED_ID));

      const payload = paymentEvent('payment_intent.succeeded', theirIntent);
      expect((await deliver(payload)).status).toBe(200);
      expect((await deliver(payload, sign(payload), otherDatabase)).status).toBe(200);

      expect(await bookingById(ours.id)).toMatchObject({ paymentStatus: 'unpaid', status: 'pending', paidAt: null });
      expect(await receiptsFor(ours.id)).toHaveLength(0);
      const logs = await db.select().from(channelLogs).where(eq(channelLogs.entityId, theirIntent.id));
      expect(logs).toMatchObject([{ action: 'payment_booking_not_found', severity: 'error' }]);
      const [paidThere] = await otherDatabase.deps.db.select().from(bookings).where(eq(bookings.id, SHARED_ID));
      expect(paidThere!.paymentStatus).toBe('paid');
    });
  });

  it('acknowledges event types it does not handle', async () => {
    const payload = JSON.stringify({ id: 'evt_customer_1', object: 'event', type: 'customer.created', created: nowSeconds(), livemode: false, data: { object: { id: 'cus_1', object: 'customer' } } });
    const { status, body } = await deliver(payload);
    expect(status).toBe(200);
    expect(body).toEqual({ received: true, ignored: true });
  });

  describe('refuses what Stripe did not sign', () => {
    it('refuses a tampered payload', async () => {
      const { booking, intent } = await bookingWithIntent();
      const genuine = paymentEvent('payment_intent.succeeded', intent, { amountReceived: 100 });
      const signature = sign(genuine);
      const forged = genuine.replace('"amount_received":100', '"amount_received":79900');
      expect(forged).not.toBe(genuine);

      const { status, body } = await deliver(forged, signature);

      expect(status).toBe(400);
      expect(body.error).toBe('Invalid signature');
      expect((await bookingById(booking.id)).paymentStatus).toBe('unpaid');
      expect(await db.select().from(stripeEvents).where(eq(stripeEvents.id, JSON.parse(forged).id))).toHaveLength(0);
    });

    it('refuses a stale timestamp (a replayed delivery)', async () => {
      const { booking, intent } = await bookingWithIntent();
      const payload = paymentEvent('payment_intent.succeeded', intent);
      const { status, body } = await deliver(payload, sign(payload, { timestamp: nowSeconds() - 600 }));
      expect(status).toBe(400);
      expect(body.error).toBe('Invalid signature');
      expect((await bookingById(booking.id)).paymentStatus).toBe('unpaid');
    });

    it('refuses another secret’s signature and a missing header', async () => {
      const { booking, intent } = await bookingWithIntent();
      const payload = paymentEvent('payment_intent.succeeded', intent);
      expect((await deliver(payload, sign(payload, { secret: 'whsec_someone_else' }))).status).toBe(400);
      expect((await deliver(payload, null)).status).toBe(400);
      expect((await deliver(payload, 't=1,v1=deadbeef')).status).toBe(400);
      expect((await bookingById(booking.id)).paymentStatus).toBe('unpaid');
    });

    it('answers a body over 512 KB with 413', async () => {
      const payload = JSON.stringify({ id: 'evt_big', padding: 'x'.repeat(600 * 1024) });
      expect((await deliver(payload)).status).toBe(413);
    });

    const wellFormed = () => JSON.parse(paymentEvent('payment_intent.succeeded', fake.intents.values().next().value!));
    it.each([
      ['no id', () => ({ ...wellFormed(), id: undefined })],
      ['a top-level array', () => []],
      ['a top-level null', () => null],
      ['a non-string type', () => ({ ...wellFormed(), type: 42 })],
      ['a NUL in the id', () => ({ ...wellFormed(), id: 'evt_\u0000nul' })],
      ['a NUL in the intent id', () => ({ ...wellFormed(), data: { object: { ...wellFormed().data.object, id: 'pi_\u0000' } } })],
      ['a non-numeric created time', () => ({ ...wellFormed(), created: 'yesterday' })],
    ])('answers a correctly signed event with %s with 400 and a warning, never 500', async (_label, build) => {
      await bookingWithIntent();
      const warnings: string[] = [];
      const errors: string[] = [];
      const log = ctx.deps.log;
      ctx.deps.log = { ...log, warn: (message) => warnings.push(message), error: (message) => errors.push(message) };
      try {
        const payload = JSON.stringify(build());
        const { status, body } = await deliver(payload);
        expect(status).toBe(400);
        expect(body.error).toBe('Invalid event payload');
        expect(warnings).toEqual(['Stripe webhook refused']);
        expect(errors).toEqual([]);
      } finally {
        ctx.deps.log = log;
      }
    });
  });
});

// ---------------------------------------------------------------- GET /api/payments/status

describe('GET /api/payments/status', () => {
  it('reports our database’s state to the holder of the client secret', async () => {
    const { booking, intentId, clientSecret, intent } = await bookingWithIntent();

    const details = { preferredDate: booking.preferredDate, quantity: 10, workType: 'night' };
    expect(await statusOf(intentId, clientSecret)).toEqual({
      status: 200,
      body: { bookingId: booking.id, paymentStatus: 'unpaid', amountPaid: 799, ...details },
    });

    // Stripe has taken the money but the webhook has not confirmed it: processing, not paid.
    fake.setStatus(intentId, 'succeeded');
    expect((await statusOf(intentId, clientSecret)).body.paymentStatus).toBe('processing');
    expect((await bookingById(booking.id)).paymentStatus).toBe('unpaid');

    await deliver(paymentEvent('payment_intent.succeeded', intent));
    expect((await statusOf(intentId, clientSecret)).body).toEqual({ bookingId: booking.id, paymentStatus: 'paid', amountPaid: 799, ...details });
  });

  it('reports the amount actually received once paid, and the booking’s price before', async () => {
    const { booking, intentId, clientSecret } = await bookingWithIntent({ quantity: 5, workType: 'day', preferredDate: '2027-08-02' });
    expect((await statusOf(intentId, clientSecret)).body).toMatchObject({ amountPaid: 349, quantity: 5, workType: 'day', preferredDate: '2027-08-02' });
    await db.update(bookings).set({ paymentStatus: 'paid', amountPaidPence: 34000 }).where(eq(bookings.id, booking.id));
    expect((await statusOf(intentId, clientSecret)).body).toMatchObject({ paymentStatus: 'paid', amountPaid: 340 });
  });

  it('says a payment whose amount did not match is being checked, and that we will be in touch', async () => {
    const { booking, intentId, clientSecret, intent } = await bookingWithIntent();
    fake.setStatus(intentId, 'succeeded');
    // Before the webhook: processing, with nothing more to say.
    expect((await statusOf(intentId, clientSecret)).body).not.toHaveProperty('message');

    await deliver(paymentEvent('payment_intent.succeeded', intent, { amountReceived: 100 }));

    expect((await statusOf(intentId, clientSecret)).body).toEqual({
      bookingId: booking.id,
      paymentStatus: 'processing',
      amountPaid: 799,
      preferredDate: booking.preferredDate,
      quantity: 10,
      workType: 'night',
      message: 'We have received your payment and are checking it. We will contact you within 24 hours.',
    });
    // An ordinary processing payment gets no such message.
    const ordinary = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.processing', ordinary.intent));
    const answer = (await statusOf(ordinary.intentId, ordinary.clientSecret)).body;
    expect(answer.paymentStatus).toBe('processing');
    expect(answer).not.toHaveProperty('message');
  });

  it('reports a failure', async () => {
    const { intentId, clientSecret, intent } = await bookingWithIntent();
    await deliver(paymentEvent('payment_intent.payment_failed', intent, { failure: 'Your card was declined.' }));
    expect((await statusOf(intentId, clientSecret)).body.paymentStatus).toBe('failed');
  });

  it('answers 404 for a wrong secret, another intent’s secret or an unknown intent', async () => {
    const mine = await bookingWithIntent();
    const theirs = await bookingWithIntent();
    for (const [intentId, secret] of [
      [mine.intentId, `${mine.intentId}_secret_wrong`],
      [mine.intentId, theirs.clientSecret],
      [mine.intentId, ''.padEnd(10, 'x')],
      ['pi_nobody', mine.clientSecret],
    ] as const) {
      const { status, body } = await statusOf(intentId, secret);
      expect(status).toBe(404);
      expect(body.error).toBe('Payment not found');
    }
  });

  it('answers 400 without its parameters and is never cached', async () => {
    const response = await ctx.app.request('/api/payments/status', {}, newClient());
    expect(response.status).toBe(400);
    const { intentId, clientSecret } = await bookingWithIntent();
    const ok = await ctx.app.request(`/api/payments/status?payment_intent=${intentId}&client_secret=${clientSecret}`, {}, newClient());
    expect(ok.headers.get('cache-control')).toBe('no-store');
  });
});

// ---------------------------------------------------------------- not configured, unreachable

// Contexts with other settings: no Stripe at all, no webhook secret, and a Stripe that is down.
const bare = await createTestContext();
const noSecret = await createTestContext({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_API_URL: fake.url });
const closedPort = await new Promise<number>((resolve) => {
  const server = createServer();
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as AddressInfo;
    server.close(() => resolve(port));
  });
});
const offline = await createTestContext({
  STRIPE_SECRET_KEY: 'sk_test_x',
  STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  STRIPE_API_URL: `http://127.0.0.1:${closedPort}`,
});

describe('when payments are not configured', () => {

  it('answers 503 on every payment route', async () => {
    const [booking] = await bare.deps.db
      .insert(bookings)
      .values({ firstName: 'A', lastName: 'B', email: 'a@example.org', phone: '1', quantity: 5, workType: 'day', locationAddress: 'x', preferredDate: '2027-07-01', totalPricePence: 34900, checkoutTokenHash: hashCheckoutToken('token-a') })
      .returning();
    const intent = await createIntent({ bookingId: booking!.id, checkoutToken: 'token-a' }, bare);
    expect(intent).toEqual({ status: 503, body: expect.objectContaining({ error: 'Payments are not configured' }) });
    expect((await statusOf('pi_x', 'pi_x_secret_y', bare)).status).toBe(503);
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded' });
    expect((await deliver(payload, sign(payload), bare)).status).toBe(503);
  });

  it('answers 503 to webhooks when only the webhook secret is missing', async () => {
    const payload = JSON.stringify({ id: 'evt_2', object: 'event', type: 'payment_intent.succeeded' });
    const { status, body } = await deliver(payload, sign(payload), noSecret);
    expect(status).toBe(503);
    expect(body.error).toMatch(/STRIPE_WEBHOOK_SECRET/);
  });
});

describe('when Stripe cannot be reached', () => {

  it('answers 503 with a clear message and leaves the booking as it was', async () => {
    const [booking] = await offline.deps.db
      .insert(bookings)
      .values({ firstName: 'A', lastName: 'B', email: 'a@example.org', phone: '1', quantity: 5, workType: 'day', locationAddress: 'x', preferredDate: '2027-07-01', totalPricePence: 34900, checkoutTokenHash: hashCheckoutToken('token-a') })
      .returning();
    const { status, body } = await createIntent({ bookingId: booking!.id, checkoutToken: 'token-a' }, offline);
    expect(status).toBe(503);
    expect(body.error).toBe('We could not reach our payment provider. Please try again in a moment.');
    const [row] = await offline.deps.db.select().from(bookings).where(eq(bookings.id, booking!.id));
    expect(row).toMatchObject({ stripePaymentIntentId: null, paymentStatus: 'unpaid' });
  });
});
