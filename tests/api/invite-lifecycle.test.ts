import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import Stripe from 'stripe';
import { bookings, emailOutbox } from '../../db/schema.ts';
import { addDays } from '../../src/domain/format.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { cancelInstallationInvite } from '../../src/server/services/bookings/installation-invites.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { adminCookie, adminRequest } from '../setup/admin.ts';
import { startFakeStripe } from '../setup/fake-stripe.ts';
import { readInvite } from '../setup/ical.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// The customer's calendar event tells the truth about the booking: TENTATIVE while unpaid,
// CONFIRMED once the webhook records the payment (same UID, next SEQUENCE, on the receipt),
// withdrawn with METHOD:CANCEL when the booking is cancelled, archived, or its unpaid hold lapses.
// Every invite is read with ical.js, as a calendar app would.

const WEBHOOK_SECRET = 'whsec_test';
const fake = await startFakeStripe();
afterAll(() => fake.close());
const ctx = await createTestContext({ STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url });
const db = ctx.deps.db;
let cookie: string;
beforeAll(async () => {
  cookie = await adminCookie(ctx);
});

let day = 0;
const nextDate = () => addDays('2027-08-01', (day += 2));

async function book(): Promise<{ id: number; checkoutToken: string }> {
  const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: nextDate() })), freshClient());
  const body = await response.json();
  expect(response.status, JSON.stringify(body)).toBe(201);
  return body;
}

/** Every invite the booking's e-mails carried, oldest first, as a calendar reads it. */
async function invitesOf(id: number) {
  const rows = await db.select().from(emailOutbox).where(like(emailOutbox.dedupeKey, `%:${id}%`)).orderBy(emailOutbox.id);
  return rows
    .filter((row) => new RegExp(`:${id}(:|$)`).test(row.dedupeKey ?? '') && row.attachments?.length)
    .map((row) => ({
      kind: row.kind,
      type: row.attachments![0]!.type,
      text: row.text,
      subject: row.subject,
      ...readInvite(Buffer.from(row.attachments![0]!.content, 'base64').toString('utf8')),
    }));
}

async function pay(id: number, checkoutToken: string) {
  const intentAnswer = await ctx.app.request('/api/create-payment-intent', jsonRequest({ bookingId: id, checkoutToken }), freshClient());
  expect(intentAnswer.status).toBe(200);
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  const intent = fake.intents.get(row!.stripePaymentIntentId!)!;
  const payload = JSON.stringify({
    id: `evt_paid_${id}`,
    object: 'event',
    api_version: '2026-10-28',
    created: Math.floor(ctx.deps.now().getTime() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'payment_intent.succeeded',
    data: { object: { ...intent, status: 'succeeded', amount_received: intent.amount, last_payment_error: null } },
  });
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(ctx.deps.now().getTime() / 1000) });
  const deliver = () =>
    ctx.app.request('/api/stripe/webhook', { method: 'POST', headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature }, body: payload });
  expect((await deliver()).status).toBe(200);
  // Stripe's retry of the same event changes nothing.
  expect((await deliver()).status).toBe(200);
}

const admin = (path: string, body?: unknown) => ctx.app.request(path, adminRequest(cookie, { method: 'PATCH', ...(body ? { body } : {}) }));

describe('an unpaid booking’s invite is tentative; payment confirms it', () => {
  it('TENTATIVE with the confirmation, CONFIRMED (same UID, SEQUENCE 1) with the receipt, once', async () => {
    const { id, checkoutToken } = await book();
    await pay(id, checkoutToken);
    const invites = await invitesOf(id);
    expect(invites.map(({ kind, method, status, sequence }) => [kind, method, status, sequence])).toEqual([
      ['booking-confirmation', 'REQUEST', 'TENTATIVE', 0],
      ['payment-receipt', 'REQUEST', 'CONFIRMED', 1],
    ]);
    expect(new Set(invites.map((invite) => invite.uid))).toEqual(new Set([`booking-${id}@localhost`]));
    expect(invites[1]!.text).toContain('The calendar invite attached confirms the installation in your calendar.');
    const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
    expect([row!.inviteStatus, row!.inviteSequence]).toEqual(['confirmed', 1]);
  });
});

describe('a booking called off withdraws its event', () => {
  it('cancelling sends METHOD:CANCEL with the next SEQUENCE, once however often it is cancelled', async () => {
    const { id, checkoutToken } = await book();
    await pay(id, checkoutToken);
    expect((await admin(`/api/bookings/${id}/status`, { status: 'cancelled' })).status).toBe(200);
    expect((await admin(`/api/bookings/${id}/status`, { status: 'cancelled' })).status).toBe(200);
    expect((await admin(`/api/bookings/${id}/archive`)).status).toBe(200);
    const invites = await invitesOf(id);
    expect(invites.map(({ method, status, sequence }) => [method, status, sequence])).toEqual([
      ['REQUEST', 'TENTATIVE', 0],
      ['REQUEST', 'CONFIRMED', 1],
      ['CANCEL', 'CANCELLED', 2],
    ]);
    expect(invites[2]!.type).toBe('text/calendar; charset=utf-8; method=CANCEL');
    expect(invites[2]!.subject).toBe(`Your Clean Patch installation is cancelled (booking #${id})`);
    const [mail] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `installation-cancelled:${id}:2`));
    expect(mail!.status).toBe('logged');
  });

  it('archiving an active booking sends the cancel too; a later reschedule sends nothing', async () => {
    const { id } = await book();
    expect((await admin(`/api/bookings/${id}/archive`)).status).toBe(200);
    expect((await admin(`/api/admin/bookings/${id}/progress`, { currentStep: 1, installationDate: '2027-12-20' })).status).toBe(200);
    const invites = await invitesOf(id);
    expect(invites.map(({ method, status, sequence }) => [method, status, sequence])).toEqual([
      ['REQUEST', 'TENTATIVE', 0],
      ['CANCEL', 'CANCELLED', 1],
    ]);
  });

  it('one call others can use: cancelInstallationInvite queues and sends the cancel once', async () => {
    const { id } = await book();
    expect(await cancelInstallationInvite(ctx.deps, id, 'cancelled')).toBe(true);
    expect(await cancelInstallationInvite(ctx.deps, id, 'cancelled')).toBe(false);
    expect((await invitesOf(id)).map((invite) => invite.method)).toEqual(['REQUEST', 'CANCEL']);
  });
});

describe('a lapsed unpaid hold', () => {
  it('the hourly job withdraws the event once; a paid booking and a fresh one keep theirs; paying later confirms it again', async () => {
    const start = ctx.deps.now();
    const lapsed = await book();
    const paid = await book();
    await pay(paid.id, paid.checkoutToken);
    ctx.setNow(new Date(start.getTime() + 25 * 3_600_000));
    const fresh = await book();

    const first = await runMaintenance(ctx.deps, ctx.deps.now());
    const second = await runMaintenance(ctx.deps, ctx.deps.now());
    expect([first.counts.lapsedHoldsCancelled, second.counts.lapsedHoldsCancelled]).toEqual([1, 0]);
    const invites = await invitesOf(lapsed.id);
    expect(invites.map(({ method, status, sequence }) => [method, status, sequence])).toEqual([
      ['REQUEST', 'TENTATIVE', 0],
      ['CANCEL', 'CANCELLED', 1],
    ]);
    expect(invites[1]!.text).toContain('has not been paid, so the date is not reserved for you');
    expect((await invitesOf(paid.id)).map((invite) => invite.status)).toEqual(['TENTATIVE', 'CONFIRMED']);
    expect((await invitesOf(fresh.id)).map((invite) => invite.status)).toEqual(['TENTATIVE']);

    // Its date was still free, so the customer could pay after all: the event comes back confirmed.
    await pay(lapsed.id, lapsed.checkoutToken);
    expect((await invitesOf(lapsed.id)).map(({ method, status, sequence }) => [method, status, sequence])).toEqual([
      ['REQUEST', 'TENTATIVE', 0],
      ['CANCEL', 'CANCELLED', 1],
      ['REQUEST', 'CONFIRMED', 2],
    ]);
    ctx.setNow(start);
  });
});
