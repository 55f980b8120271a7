import { readFile } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import Stripe from 'stripe';
import { bookings, channelLogs, emailOutbox, progressLogs, proofs, stencilChanges } from '../../db/schema.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { STENCIL_CHANGE_MESSAGES } from '../../src/server/services/proofs/stencil-changes.ts';
import { PROOF_MESSAGES } from '../../src/server/services/proofs/stencil-proofs.ts';
import { createTrackingLink } from '../../src/server/services/projects/tracking.ts';
import { adminCookie } from '../setup/admin.ts';
import { startFakeStripe } from '../setup/fake-stripe.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN, type TestContext } from '../setup/test-app.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { insertBookingRow } from '../fixtures/booking-rows.ts';

// api.md "Stencil proof sign-off", row by row, on a real database, with the local
// Stripe-compatible API for the paid change after approval.

const WEBHOOK_SECRET = 'whsec_test';
const fake = await startFakeStripe();
afterAll(() => fake.close());

const ctx = await createTestContext({ STRIPE_SECRET_KEY: 'sk_test_x', PUBLIC_STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: fake.url, ADMIN_EMAIL: 'studio@cleanpatch.example' });
const noPayments = await createTestContext();
const db = ctx.deps.db;
const admin = await adminCookie(ctx);
const PNG = new Uint8Array(await readFile(new URL('../fixtures/logo.png', import.meta.url)));
const SVG = await readFile(new URL('../fixtures/logo.svg', import.meta.url), 'utf8');
const PDF = new TextEncoder().encode('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

async function insertBooking(context: TestContext = ctx, overrides: Partial<typeof bookings.$inferInsert> = {}) {
  return insertBookingRow(context, { status: 'confirmed', currentStep: 2, ...overrides });
}

/** A browser that tracked the booking by its magic link: the grant cookie it now sends. */
async function grantedBrowser(bookingId: number, context: TestContext = ctx): Promise<string> {
  const token = await createTrackingLink(context.deps.db, bookingId, context.deps.now());
  const response = await context.app.request('/api/track-project', jsonRequest({ token }), freshClient());
  expect(response.status).toBe(200);
  return /cp_photos=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![0];
}

// A fresh admin session per upload: tests move the clock past a session's life.
async function upload(bookingId: number, file: { bytes: Uint8Array | string; name: string; type?: string }, note?: string, context = ctx, cookie?: string) {
  cookie ??= await adminCookie(context);
  const form = new FormData();
  form.set('file', new File([file.bytes as BlobPart], file.name, { type: file.type ?? 'application/octet-stream' }));
  if (note !== undefined) form.set('note', note);
  return context.app.request(`/api/admin/bookings/${bookingId}/proofs`, { method: 'POST', headers: { Cookie: cookie, Origin: TEST_ORIGIN }, body: form });
}

async function uploadPng(bookingId: number, note?: string, context = ctx) {
  const response = await upload(bookingId, { bytes: PNG, name: 'proof.png' }, note, context);
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; version: number; status: string };
}

const post = (path: string, cookie: string | null, body: unknown = {}, context = ctx) =>
  context.app.request(path, jsonRequest(body, { headers: cookie ? { Cookie: cookie } : {} }), freshClient());
const get = (path: string, cookie: string | null, context = ctx) =>
  context.app.request(path, { headers: cookie ? { Cookie: cookie } : {} });

const approve = (proofId: number, cookie: string | null) => post(`/api/proofs/${proofId}/approve`, cookie);
const requestChanges = (proofId: number, cookie: string | null, comment: unknown = 'Make the logo bigger, please.') =>
  post(`/api/proofs/${proofId}/request-changes`, cookie, { comment });

const bookingRow = async (id: number, context = ctx) => (await context.deps.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
const mails = (kindPattern: string, context = ctx) => context.deps.db.select().from(emailOutbox).where(like(emailOutbox.dedupeKey, kindPattern));

describe('POST /api/admin/bookings/{id}/proofs', () => {
  it('stores version 1 awaiting, supersedes it with version 2, and e-mails the customer a magic link each time', async () => {
    const booking = await insertBooking();
    const first = await upload(booking.id, { bytes: PNG, name: 'v1.png' }, 'First go');
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({ version: 1, status: 'awaiting', note: 'First go', createdAt: expect.any(String), id: expect.any(Number) });

    const second = await uploadPng(booking.id, 'Bigger logo');
    expect(second).toMatchObject({ version: 2, status: 'awaiting' });
    const rows = await db.select().from(proofs).where(eq(proofs.bookingId, booking.id)).orderBy(proofs.version);
    expect(rows.map((row) => [row.version, row.status])).toEqual([[1, 'superseded'], [2, 'awaiting']]);

    const ready = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `proof-ready:${second.id}`));
    expect(ready).toHaveLength(1);
    expect(ready[0]).toMatchObject({ kind: 'proof-ready', to: booking.email });
    // The e-mail's link opens the booking (and so the proof) in any browser.
    const token = /\/track-project\?t=([\w-]+)/.exec(ready[0]!.text)![1]!;
    const tracked = await post('/api/track-project', null, { token });
    expect(tracked.status).toBe(200);
  });

  it('judges the file by its content: PDF and a clean SVG pass, a PNG-named text file and a scripted SVG are refused', async () => {
    const booking = await insertBooking();
    expect((await upload(booking.id, { bytes: PDF, name: 'proof.pdf' })).status).toBe(201);
    expect((await upload(booking.id, { bytes: SVG, name: 'proof.svg' })).status).toBe(201);
    const fake = await upload(booking.id, { bytes: 'not an image', name: 'proof.png', type: 'image/png' });
    expect(fake.status).toBe(415);
    const scripted = await upload(booking.id, { bytes: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', name: 'x.svg' });
    expect(scripted.status).toBe(415);
    const missing = await ctx.app.request(`/api/admin/bookings/${booking.id}/proofs`, { method: 'POST', headers: { Cookie: admin, Origin: TEST_ORIGIN }, body: new FormData() });
    expect(missing.status).toBe(400);
    const tooLongNote = await upload(booking.id, { bytes: PNG, name: 'p.png' }, 'x'.repeat(1001));
    expect(tooLongNote.status).toBe(400);
    // Refused uploads leave no version behind.
    expect((await db.select().from(proofs).where(eq(proofs.bookingId, booking.id))).map((row) => row.version)).toEqual([1, 2]);
  });

  it('refuses a proof over 4 MB with 413 saying the limit, and keeps no version of it', async () => {
    const booking = await insertBooking();
    const big = new Uint8Array(4 * 1024 * 1024 + 1);
    big.set(PDF);
    const response = await upload(booking.id, { bytes: big, name: 'proof.pdf' });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toBe('The proof is too large. The maximum size is 4MB.');
    expect(await db.select().from(proofs).where(eq(proofs.bookingId, booking.id))).toEqual([]);
  });

  it('is for staff only (401), and 404 for an unknown booking', async () => {
    const booking = await insertBooking();
    expect((await upload(booking.id, { bytes: PNG, name: 'p.png' }, undefined, ctx, 'cp_admin=nope')).status).toBe(401);
    expect((await upload(9_999_999, { bytes: PNG, name: 'p.png' })).status).toBe(404);
  });
});

describe('GET /api/bookings/{id}/proofs and the proof file', () => {
  it('lists every version newest first for staff and for the granted client, and 404s for everyone else', async () => {
    const booking = await insertBooking();
    const other = await insertBooking();
    await uploadPng(booking.id, 'one');
    const latest = await uploadPng(booking.id, 'two');
    const cookie = await grantedBrowser(booking.id);
    const otherCookie = await grantedBrowser(other.id);

    for (const who of [admin, cookie]) {
      const response = await get(`/api/bookings/${booking.id}/proofs`, who);
      expect(response.status).toBe(200);
      const list = await response.json();
      expect(list.map((proof: { version: number; status: string }) => [proof.version, proof.status])).toEqual([[2, 'awaiting'], [1, 'superseded']]);
      expect(list[0]).toMatchObject({ id: latest.id, note: 'two', fileUrl: `/api/proofs/${latest.id}/file`, decidedAt: null, comment: null });
    }
    for (const who of [null, otherCookie, 'cp_photos=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      expect((await get(`/api/bookings/${booking.id}/proofs`, who)).status).toBe(404);
      expect((await get(`/api/proofs/${latest.id}/file`, who)).status).toBe(404);
    }
    expect((await get('/api/bookings/9999999/proofs', admin)).status).toBe(404);
  });

  it('serves the file by an access-checked route with nosniff; an SVG only under a script-free policy; never from /uploads', async () => {
    const booking = await insertBooking();
    const cookie = await grantedBrowser(booking.id);
    const png = await uploadPng(booking.id);
    const file = await get(`/api/proofs/${png.id}/file`, cookie);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(PNG);

    const svg = (await (await upload(booking.id, { bytes: SVG, name: 'logo.svg' })).json()) as { id: number };
    const svgFile = await get(`/api/proofs/${svg.id}/file`, cookie);
    expect(svgFile.headers.get('content-type')).toBe('image/svg+xml');
    expect(svgFile.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);

    const pdf = (await (await upload(booking.id, { bytes: PDF, name: 'proof.pdf' })).json()) as { id: number };
    const pdfFile = await get(`/api/proofs/${pdf.id}/file`, cookie);
    expect(pdfFile.headers.get('content-type')).toBe('application/pdf');
    expect(pdfFile.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(pdfFile.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    const download = await get(`/api/proofs/${pdf.id}/file?download=1`, cookie);
    expect(download.headers.get('content-disposition')).toMatch(/^attachment/);

    const [row] = await db.select().from(proofs).where(eq(proofs.id, png.id));
    expect((await ctx.app.request(`/uploads/${row!.fileName}`)).status).toBe(404);
  });
});

describe('POST /api/proofs/{id}/approve', () => {
  it('records the approval once, sets stencilApprovedDate, moves step 2 to 3 with a progress log, and tells staff', async () => {
    ctx.setNow('2026-11-23T11:00:00Z');
    const booking = await insertBooking();
    const proof = await uploadPng(booking.id);
    const cookie = await grantedBrowser(booking.id);

    const response = await approve(proof.id, cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ id: proof.id, version: 1, status: 'approved', decidedAt: '2026-11-23T11:00:00.000Z' });
    const row = await bookingRow(booking.id);
    expect(row).toMatchObject({ currentStep: 3, status: 'installation_scheduled' });
    expect(row.stencilApprovedDate?.toISOString()).toBe('2026-11-23T11:00:00.000Z');
    const logs = await db.select().from(progressLogs).where(eq(progressLogs.bookingId, booking.id));
    expect(logs).toEqual([expect.objectContaining({ step: 3, stepName: 'Installation Scheduling', notes: 'Stencil proof version 1 approved by the customer' })]);
    const staff = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `proof-approved-staff:${proof.id}`));
    expect(staff).toEqual([expect.objectContaining({ to: 'studio@cleanpatch.example', kind: 'proof-approved-staff' })]);
    const logLines = await db.select().from(channelLogs).where(and(eq(channelLogs.action, 'proof_approved'), eq(channelLogs.entityId, String(booking.id))));
    expect(logLines).toHaveLength(1);

    // A second click: 409, nothing recorded twice.
    const again = await approve(proof.id, cookie);
    expect(again.status).toBe(409);
    expect((await again.json()).error).toBe(PROOF_MESSAGES.alreadyApproved);
    expect(await db.select().from(progressLogs).where(eq(progressLogs.bookingId, booking.id))).toHaveLength(1);
    ctx.setNow('2026-11-22T10:00:00Z');
  });

  it('leaves a booking past step 2 at its step, setting only the approval date', async () => {
    const booking = await insertBooking(ctx, { currentStep: 3, status: 'installation_scheduled' });
    const proof = await uploadPng(booking.id);
    expect((await approve(proof.id, await grantedBrowser(booking.id))).status).toBe(200);
    const row = await bookingRow(booking.id);
    expect(row.currentStep).toBe(3);
    expect(row.stencilApprovedDate).not.toBeNull();
  });

  it('refuses to approve the proof of a cancelled booking (409), leaving it as it is', async () => {
    const booking = await insertBooking(ctx, { status: 'cancelled' });
    const proof = await uploadPng(booking.id);
    const response = await approve(proof.id, await grantedBrowser(booking.id));
    expect(response.status).toBe(409);
    expect((await response.json()).error).toBe(PROOF_MESSAGES.cancelled);
    expect(await bookingRow(booking.id)).toMatchObject({ status: 'cancelled', currentStep: 2, stencilApprovedDate: null });
  });

  it('answers 409 for a superseded version and 404 without the grant or with another booking’s grant', async () => {
    const booking = await insertBooking();
    const old = await uploadPng(booking.id);
    await uploadPng(booking.id);
    const cookie = await grantedBrowser(booking.id);
    const stale = await approve(old.id, cookie);
    expect(stale.status).toBe(409);
    expect((await stale.json()).error).toBe(PROOF_MESSAGES.superseded);

    const other = await insertBooking();
    const proof = await uploadPng(other.id);
    expect((await approve(proof.id, null)).status).toBe(404);
    expect((await approve(proof.id, cookie)).status).toBe(404);
    // Staff read, but the decision is the customer's.
    expect((await approve(proof.id, admin)).status).toBe(404);
    expect((await approve(9_999_999, cookie)).status).toBe(404);
  });
});

describe('POST /api/proofs/{id}/request-changes', () => {
  it('records the comment before any approval and tells staff; staff see it in the list', async () => {
    const booking = await insertBooking();
    const proof = await uploadPng(booking.id);
    const cookie = await grantedBrowser(booking.id);
    const response = await requestChanges(proof.id, cookie, '  Please use our new green.\n\nThanks  ');
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'changes_requested', comment: 'Please use our new green.\n\nThanks' });
    const staff = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `proof-changes-staff:${proof.id}`));
    expect(staff[0]!.text).toContain('Please use our new green.');
    const list = await (await get(`/api/bookings/${booking.id}/proofs`, admin)).json();
    expect(list[0]).toMatchObject({ status: 'changes_requested', comment: 'Please use our new green.\n\nThanks', decidedAt: expect.any(String) });
    // Decided already: a second request is a 409, not a second e-mail.
    expect((await requestChanges(proof.id, cookie)).status).toBe(409);
    expect((await approve(proof.id, cookie)).status).toBe(409);
    expect((await bookingRow(booking.id)).currentStep).toBe(2);
  });

  it('needs a comment of 1-2000 characters', async () => {
    const booking = await insertBooking();
    const proof = await uploadPng(booking.id);
    const cookie = await grantedBrowser(booking.id);
    for (const comment of ['', '   ', 'x'.repeat(2001), 42, null]) {
      expect((await requestChanges(proof.id, cookie, comment)).status).toBe(400);
    }
    expect((await requestChanges(proof.id, cookie, 'x'.repeat(2000))).status).toBe(200);
  });

  it('after an approval answers 402 with the amount of a paid change', async () => {
    const booking = await insertBooking();
    const proof = await uploadPng(booking.id);
    const cookie = await grantedBrowser(booking.id);
    await approve(proof.id, cookie);
    const response = await requestChanges(proof.id, cookie);
    expect(response.status).toBe(402);
    expect(await response.json()).toMatchObject({ error: PROOF_MESSAGES.paidChange, amount: 100 });
  });

  it('gives concurrent approve and request-changes on one version exactly one winner', async () => {
    for (let round = 0; round < 4; round += 1) {
      const booking = await insertBooking();
      const proof = await uploadPng(booking.id);
      const cookie = await grantedBrowser(booking.id);
      const [approval, change] = await Promise.all([approve(proof.id, cookie), requestChanges(proof.id, cookie)]);
      const statuses = [approval.status, change.status];
      const [row] = await db.select().from(proofs).where(eq(proofs.id, proof.id));
      if (approval.status === 200) {
        expect(change.status).toBe(402);
        expect(row!.status).toBe('approved');
        expect((await bookingRow(booking.id)).currentStep).toBe(3);
      } else {
        expect(statuses).toEqual([409, 200]);
        expect(row!.status).toBe('changes_requested');
        expect((await bookingRow(booking.id)).stencilApprovedDate).toBeNull();
      }
    }
  });
});

// ---------------------------------------------------------------- paid change after approval

const nowSeconds = () => Math.floor(ctx.deps.now().getTime() / 1000);
let eventNumber = 0;

function succeededEvent(intentId: string, options: { id?: string; amountReceived?: number } = {}) {
  const intent = fake.setStatus(intentId, 'succeeded');
  return JSON.stringify({
    id: options.id ?? `evt_proof_${++eventNumber}`,
    object: 'event',
    created: nowSeconds(),
    livemode: false,
    type: 'payment_intent.succeeded',
    data: { object: { ...intent, amount_received: options.amountReceived ?? intent.amount } },
  });
}

async function deliver(payload: string) {
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: nowSeconds() });
  const response = await ctx.app.request('/api/stripe/webhook', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
    body: payload,
  });
  return { status: response.status, body: await response.json() };
}

async function approvedBooking(context: TestContext = ctx) {
  const booking = await insertBooking(context);
  const proof = await uploadPng(booking.id, undefined, context);
  const cookie = await grantedBrowser(booking.id, context);
  expect((await post(`/api/proofs/${proof.id}/approve`, cookie, {}, context)).status).toBe(200);
  return { booking, proof, cookie };
}

describe('POST /api/bookings/{id}/stencil-change', () => {
  it('creates a £100 PaymentIntent at the server’s price, reused on a retry', async () => {
    const { booking, cookie } = await approvedBooking();
    const response = await post(`/api/bookings/${booking.id}/stencil-change`, cookie, { comment: 'New phone number', amount: 1 });
    expect(response.status).toBe(200);
    const body = await response.json();
    // With the server's publishable key: the page's build-time key may be missing or older.
    expect(body).toEqual({ clientSecret: expect.stringMatching(/^pi_\w+_secret_\w+$/), amount: 100, publishableKey: 'pk_test_x' });
    const [change] = await db.select().from(stencilChanges).where(eq(stencilChanges.bookingId, booking.id));
    const intent = fake.intents.get(change!.stripePaymentIntentId!)!;
    expect(intent).toMatchObject({ amount: 10_000, currency: 'gbp', metadata: { kind: 'stencil_change', stencilChangeId: String(change!.id), bookingId: String(booking.id) } });
    expect(JSON.stringify(intent)).not.toMatch(/amira|khan|northernroasters/i);

    const creates = fake.creates();
    const retry = await post(`/api/bookings/${booking.id}/stencil-change`, cookie, { comment: 'New phone number, and the web address' });
    expect((await retry.json()).clientSecret).toBe(body.clientSecret);
    expect(fake.creates()).toBe(creates);
    expect(await db.select().from(stencilChanges).where(eq(stencilChanges.bookingId, booking.id))).toHaveLength(1);
    // Not paid yet: staff have not been told, and the approval stands.
    expect(await mails(`stencil-change-staff:%`)).toHaveLength(0);
    expect((await bookingRow(booking.id)).stencilApprovedDate).not.toBeNull();
  });

  it('is only for after an approval (409), and only for the granted client (404)', async () => {
    const booking = await insertBooking();
    const cookie = await grantedBrowser(booking.id);
    const noProof = await post(`/api/bookings/${booking.id}/stencil-change`, cookie, { comment: 'x' });
    expect(noProof.status).toBe(409);
    expect((await noProof.json()).error).toBe(STENCIL_CHANGE_MESSAGES.notApproved);
    await uploadPng(booking.id);
    expect((await post(`/api/bookings/${booking.id}/stencil-change`, cookie, { comment: 'x' })).status).toBe(409);

    const { booking: approved } = await approvedBooking();
    expect((await post(`/api/bookings/${approved.id}/stencil-change`, null, { comment: 'x' })).status).toBe(404);
    expect((await post(`/api/bookings/${approved.id}/stencil-change`, cookie, { comment: 'x' })).status).toBe(404);
    expect((await post(`/api/bookings/${approved.id}/stencil-change`, admin, { comment: 'x' })).status).toBe(404);
  });

  it('applies the £100 exactly once from replayed and duplicated webhooks: staff told once, a new awaiting cycle', async () => {
    const { booking, proof, cookie } = await approvedBooking();
    await post(`/api/bookings/${booking.id}/stencil-change`, cookie, { comment: 'Swap the tagline' });
    const [change] = await db.select().from(stencilChanges).where(eq(stencilChanges.bookingId, booking.id));
    const payload = succeededEvent(change!.stripePaymentIntentId!);

    const results = await Promise.all([deliver(payload), deliver(payload)]);
    expect(results.map((result) => result.status)).toEqual([200, 200]);
    expect(await deliver(payload)).toMatchObject({ status: 200, body: { received: true, duplicate: true } });
    // The same payment reported again under a new event id changes nothing either.
    expect((await deliver(succeededEvent(change!.stripePaymentIntentId!, { id: 'evt_proof_again' }))).status).toBe(200);

    const [paid] = await db.select().from(stencilChanges).where(eq(stencilChanges.id, change!.id));
    expect(paid).toMatchObject({ status: 'paid', paidAt: expect.any(Date) });
    const staff = await mails(`stencil-change-staff:${change!.id}`);
    expect(staff).toHaveLength(1);
    expect(staff[0]!.text).toContain('the customer paid £100 by card');
    expect(await db.select().from(channelLogs).where(and(eq(channelLogs.action, 'stencil_change_paid'), eq(channelLogs.entityId, String(booking.id))))).toHaveLength(1);

    // The approval is reopened: the approved version now shows the change, with its approval kept.
    const list = await (await get(`/api/bookings/${booking.id}/proofs`, cookie)).json();
    expect(list[0]).toMatchObject({ id: proof.id, status: 'changes_requested', comment: 'Swap the tagline', approvedAt: expect.any(String) });
    expect(list[0].changes).toEqual([expect.objectContaining({ status: 'paid', amount: 100, comment: 'Swap the tagline' })]);
    expect((await bookingRow(booking.id)).stencilApprovedDate).toBeNull();
    const next = await uploadPng(booking.id);
    expect(next).toMatchObject({ version: 2, status: 'awaiting' });
    expect((await approve(next.id, cookie)).status).toBe(200);
  });

  it('does not apply a payment of the wrong amount', async () => {
    const { booking, cookie } = await approvedBooking();
    await post(`/api/bookings/${booking.id}/stencil-change`, cookie, { comment: 'x' });
    const [change] = await db.select().from(stencilChanges).where(eq(stencilChanges.bookingId, booking.id));
    await deliver(succeededEvent(change!.stripePaymentIntentId!, { amountReceived: 100 }));
    expect((await db.select().from(stencilChanges).where(eq(stencilChanges.id, change!.id)))[0]!.status).toBe('awaiting_payment');
    expect(await db.select().from(channelLogs).where(and(eq(channelLogs.action, 'stencil_change_amount_mismatch'), eq(channelLogs.entityId, String(booking.id))))).toHaveLength(1);
  });

  it('without payments answers 503 saying the change will be invoiced, keeps the request, and staff can waive it (who and why logged)', async () => {
    const db2 = noPayments.deps.db;
    const staffCookie = await adminCookie(noPayments);
    const { booking, proof, cookie } = await approvedBooking(noPayments);
    const response = await post(`/api/bookings/${booking.id}/stencil-change`, cookie, { comment: 'Different font' }, noPayments);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: STENCIL_CHANGE_MESSAGES.invoiced, amount: 100, invoiced: true });
    const [change] = await db2.select().from(stencilChanges).where(eq(stencilChanges.bookingId, booking.id));
    expect(change).toMatchObject({ status: 'awaiting_payment', comment: 'Different font', amountPence: 10_000 });

    const waive = (body: unknown, cookieHeader = staffCookie) =>
      noPayments.app.request(`/api/admin/stencil-changes/${change!.id}/waive`, jsonRequest(body, { headers: { Cookie: cookieHeader } }));
    expect((await waive({ reason: 'Our typo' }, 'cp_admin=nope')).status).toBe(401);
    expect((await waive({ reason: '' })).status).toBe(400);
    const waived = await waive({ reason: 'Our typo' });
    expect(waived.status).toBe(200);
    // The person's name in the answer; their account's id in the records and the log.
    expect(await waived.json()).toMatchObject({ status: 'waived', waivedReason: 'Our typo', waivedBy: expect.stringMatching(/^Test owner/) });
    expect((await waive({ reason: 'again' })).status).toBe(409);

    const [log] = await db2.select().from(channelLogs).where(and(eq(channelLogs.action, 'stencil_change_waived'), eq(channelLogs.entityId, String(booking.id))));
    expect(log!.details).toContain('Our typo');
    expect(log!.details).toMatch(/waived by Test owner/);
    expect(log!.userId).toMatch(/^\d+$/);
    const listed = await (await noPayments.app.request(`/api/bookings/${booking.id}/proofs`, { headers: { Cookie: staffCookie } })).json();
    expect(listed[0].changes[0]).toMatchObject({ status: 'waived', waivedBy: expect.stringMatching(/^Test owner/) });
    const [version] = await db2.select().from(proofs).where(eq(proofs.id, proof.id));
    expect(version).toMatchObject({ status: 'changes_requested', comment: 'Different font' });
    expect(await mails(`stencil-change-staff:${change!.id}`, noPayments)).toHaveLength(1);
  });
});

describe('proof state for staff and the reminder', () => {
  it('GET /api/bookings gives each row its latest proof {status, version, since}, null without one', async () => {
    const booking = await insertBooking();
    const without = await insertBooking();
    await uploadPng(booking.id);
    await uploadPng(booking.id);
    const response = await ctx.app.request('/api/bookings?limit=100', { headers: { Cookie: admin } });
    const body = await response.json();
    const items = (Array.isArray(body) ? body : body.items) as Array<{ id: number; proof: unknown }>;
    expect(items.find((item) => item.id === booking.id)!.proof).toEqual({ status: 'awaiting', version: 2, since: expect.any(String) });
    expect(items.find((item) => item.id === without.id)!.proof).toBeNull();
  });

  it('reminds the customer once, 3 business days (Mon-Fri, London) after an undecided upload', async () => {
    // Friday 15:00 London: three business days end on Wednesday 15:00.
    ctx.setNow('2026-11-27T15:00:00Z');
    const booking = await insertBooking();
    const proof = await uploadPng(booking.id);
    const decidedBooking = await insertBooking();
    const decided = await uploadPng(decidedBooking.id);
    expect((await requestChanges(decided.id, await grantedBrowser(decidedBooking.id))).status).toBe(200);
    const reminders = async () => mails('proof-reminder:%');

    await runMaintenance(ctx.deps, new Date('2026-12-02T14:59:00Z'));
    expect((await reminders()).filter((mail) => mail.dedupeKey === `proof-reminder:${proof.id}`)).toHaveLength(0);
    await runMaintenance(ctx.deps, new Date('2026-12-02T15:00:00Z'));
    await runMaintenance(ctx.deps, new Date('2026-12-03T15:00:00Z'));
    const sent = (await reminders()).filter((mail) => mail.dedupeKey === `proof-reminder:${proof.id}`);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ kind: 'proof-reminder', to: booking.email });
    expect(sent[0]!.text).toMatch(/\/track-project\?t=[\w-]+/);
    expect((await reminders()).filter((mail) => mail.dedupeKey === `proof-reminder:${decided.id}`)).toHaveLength(0);
    ctx.setNow('2026-11-22T10:00:00Z');
  });
});
