import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { asc, eq, inArray } from 'drizzle-orm';
import sharp from 'sharp';
import { bookingLocations, bookings, emailOutbox, invoices, photos, proofs, stencilChanges, uploadedFiles } from '../../db/schema.ts';
import { applyPaymentEvent } from '../../src/server/services/payments/payment-webhook.ts';
import { STENCIL_CHANGE_KIND } from '../../src/server/services/proofs/stencil-changes.ts';
import { createTrackingLink } from '../../src/server/services/projects/tracking.ts';
import { erasePersonalData } from '../../src/server/services/privacy/personal-data-erasure.ts';
import { exportDatabase, importDatabase } from '../../db/dump.ts';
import { checkUploadShare } from '../../src/server/services/limits/upload-quota.ts';
import type { PaymentEvent } from '../../src/server/providers/payments.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, jsonRequest, TEST_ORIGIN, type TestContext } from '../setup/test-app.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { insertBookingRow } from '../fixtures/booking-rows.ts';
import { bookingsUsing, fileNamesOf, insertBrandFile } from '../fixtures/booking-files.ts';
import { isA4, readPdf } from '../fixtures/pdf-reader.ts';

// api.md "Documents for business customers": invoices issued with the payment (one gapless
// sequence), their PDFs and who may fetch them, billing details, the accountant's CSV, the
// campaign report and Book again.

const VAT_SETTINGS = { VAT_NUMBER: 'GB123456789', VAT_RATE: 20, BUSINESS_LEGAL_NAME: 'Clean Patch Ltd', BUSINESS_ADDRESS: '1 Mill Lane, Manchester, M1 1AA' };
const ctx = await createTestContext(VAT_SETTINGS);
// A seller that is not VAT registered: receipts.
const unregistered = await createTestContext();
const db = ctx.deps.db;

let sequence = 0;
async function insertBooking(overrides: Partial<typeof bookings.$inferInsert> = {}, context: TestContext = ctx) {
  sequence += 1;
  return insertBookingRow(context, { email: `amira${sequence}@northernroasters.co.uk`, stripePaymentIntentId: `pi_doc_${sequence}_${Date.now()}`, ...overrides });
}

let eventNumber = 0;
function succeeded(intentId: string, amount: number, metadata: Record<string, string>, id = `evt_doc_${++eventNumber}`): PaymentEvent {
  return {
    id,
    type: 'payment_intent.succeeded',
    created: new Date('2026-11-22T10:00:00Z'),
    livemode: true,
    intent: { id: intentId, amount, amountReceived: amount, currency: 'gbp', status: 'succeeded', metadata, lastPaymentErrorMessage: null },
  };
}

function payBooking(booking: typeof bookings.$inferSelect, context: TestContext = ctx, eventId?: string) {
  return applyPaymentEvent(context.deps, succeeded(booking.stripePaymentIntentId!, booking.totalPricePence, { bookingId: String(booking.id) }, eventId));
}

async function paidBooking(overrides: Parameters<typeof insertBooking>[0] = {}, context: TestContext = ctx) {
  const booking = await insertBooking(overrides, context);
  expect(await payBooking(booking, context)).toBe('paid');
  return booking;
}

/** An approved proof's £100 change waiting for its payment on its own intent. */
async function awaitingChange(bookingId: number, context: TestContext = ctx) {
  // Its own number, taken before the first await: changes made side by side must not share one.
  const n = ++sequence;
  const [proof] = await context.deps.db
    .insert(proofs)
    .values({ bookingId, version: n, status: 'approved', fileName: `proof-${n}-${Date.now()}.png`, originalName: 'proof.png', mimeType: 'image/png', fileSize: 10, createdBy: 'test' })
    .returning();
  const [change] = await context.deps.db
    .insert(stencilChanges)
    .values({ bookingId, proofId: proof!.id, comment: 'Bigger logo', amountPence: 10_000, stripePaymentIntentId: `pi_change_${n}_${Date.now()}` })
    .returning();
  return change!;
}

function payChange(change: typeof stencilChanges.$inferSelect, context: TestContext = ctx) {
  return applyPaymentEvent(context.deps, succeeded(change.stripePaymentIntentId!, 10_000, { kind: STENCIL_CHANGE_KIND, stencilChangeId: String(change.id) }));
}

/** A browser that tracked the booking by its magic link: the grant cookie it now sends. */
async function grantedBrowser(bookingId: number, context: TestContext = ctx): Promise<string> {
  const token = await createTrackingLink(context.deps.db, bookingId, context.deps.now());
  const response = await context.app.request('/api/track-project', jsonRequest({ token }), freshClient());
  expect(response.status).toBe(200);
  return /cp_photos=([^;]+)/.exec(response.headers.get('set-cookie') ?? '')![0];
}

const get = (path: string, cookie: string | null, context = ctx) =>
  context.app.request(path, { headers: { Origin: TEST_ORIGIN, ...(cookie ? { Cookie: cookie } : {}) } }, freshClient());
const patch = (path: string, cookie: string | null, body: unknown, context = ctx) =>
  context.app.request(path, jsonRequest(body, { method: 'PATCH', headers: cookie ? { Cookie: cookie } : {} }), freshClient());

const invoicesOf = (bookingId: number, context = ctx) =>
  context.deps.db.select().from(invoices).where(eq(invoices.bookingId, bookingId)).orderBy(asc(invoices.sequence));

async function pdfOf(response: Response) {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/pdf');
  expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="[\w.-]+\.pdf"$/);
  return readPdf(new Uint8Array(await response.arrayBuffer()));
}

describe('invoices issued with the payment', () => {
  it('issues one numbered VAT invoice when a booking is paid, attached to the receipt, and none on a replay', async () => {
    const booking = await paidBooking({ quantity: 10, workType: 'night' });
    const [invoice] = await invoicesOf(booking.id);
    expect(invoice).toMatchObject({ kind: 'booking', grossPence: 79_900, vatPence: 13_317, netPence: 66_583, vatRateBasisPoints: 2000 });
    expect(invoice!.number).toMatch(/^CP-\d{6}$/);

    // The same event again (Stripe retries) and another success event for the same intent: no second invoice.
    expect(await payBooking(booking, ctx, `evt_doc_${eventNumber}`)).toBe('duplicate');
    expect(await payBooking(booking)).toBe('already_paid');
    expect(await invoicesOf(booking.id)).toHaveLength(1);

    const [receipt] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `payment-receipt:${booking.id}`));
    expect(receipt!.text).toContain(`Your invoice ${invoice!.number} is attached`);
    const attachment = (receipt!.attachments as { filename: string; type: string; content: string }[]).find((file) => file.type === 'application/pdf')!;
    expect(attachment.filename).toBe(`invoice-${invoice!.number}.pdf`);
    const pdf = await readPdf(new Uint8Array(Buffer.from(attachment.content, 'base64')));
    expect(pdf.text).toContain(invoice!.number);
  });

  it('gives concurrent payments (bookings and stencil changes) distinct numbers with no gap', async () => {
    const before = await db.select({ sequence: invoices.sequence }).from(invoices);
    const start = Math.max(0, ...before.map((row) => row.sequence));
    const payable = await Promise.all(Array.from({ length: 6 }, () => insertBooking({ quantity: 5, workType: 'day' })));
    const changeBooking = await paidBooking();
    const changes = await Promise.all([awaitingChange(changeBooking.id), awaitingChange(changeBooking.id)]);
    const outcomes = await Promise.all([...payable.map((booking) => payBooking(booking)), ...changes.map((change) => payChange(change))]);
    expect(outcomes).toEqual(Array(8).fill('paid'));
    const issued = await db.select({ sequence: invoices.sequence, number: invoices.number }).from(invoices).orderBy(asc(invoices.sequence));
    // One gapless run from CP-000001: this test's eight, plus the change booking's, after the earlier ones.
    expect(issued.map((row) => row.sequence)).toEqual(Array.from({ length: issued.length }, (_, index) => index + 1));
    expect(issued.length).toBe(start + 9);
    expect(new Set(issued.map((row) => row.number)).size).toBe(issued.length);
  });

  it('rolls a payment that fails after its invoice back with its number: the next payment takes it', async () => {
    const [{ last } = { last: 0 }] = await db.select({ last: invoices.sequence }).from(invoices).orderBy(asc(invoices.sequence)).then((rows) => rows.slice(-1));
    const booking = await insertBooking();
    // The payment's transaction fails after the invoice is written (a unique index refuses a second
    // row with the number it took): nothing of it stays, the number included.
    await db.insert(invoices).values({
      sequence: last + 1000,
      number: `CP-${String(last + 1).padStart(6, '0')}`,
      issuedAt: ctx.deps.now(),
      supplyDate: '2026-11-22',
      kind: 'stencil_change',
      bookingId: null,
      paymentReference: 'pi_blocker',
      seller: {},
      customer: {},
      lines: [],
      netPence: 0,
      vatPence: 0,
      grossPence: 0,
    });
    await expect(payBooking(booking)).rejects.toThrow();
    expect((await db.select().from(bookings).where(eq(bookings.id, booking.id)))[0]!.paymentStatus).toBe('unpaid');
    await db.delete(invoices).where(eq(invoices.paymentReference, 'pi_blocker'));
    // Stripe retries the event: paid now, with the number the failed attempt had taken.
    expect(await payBooking(booking)).toBe('paid');
    expect((await invoicesOf(booking.id))[0]!.sequence).toBe(last + 1);
  });

  it('issues the £100 stencil change its own invoice, carrying the billing details given since', async () => {
    const booking = await paidBooking();
    const cookie = await grantedBrowser(booking.id);
    const saved = await patch(`/api/bookings/${booking.id}/billing`, cookie, { billingAddress: '2 Dock Road, Salford M50 2AA', poReference: 'PO-7781', customerVatNumber: 'gb 987 6543 21' });
    expect(saved.status).toBe(200);
    expect(await saved.json()).toEqual({ billingAddress: '2 Dock Road, Salford M50 2AA', poReference: 'PO-7781', customerVatNumber: 'GB987654321' });
    expect(await payChange(await awaitingChange(booking.id))).toBe('paid');
    const [first, change] = await invoicesOf(booking.id);
    expect(first!.customer).toMatchObject({ billingAddress: null, poReference: null });
    expect(change).toMatchObject({ kind: 'stencil_change', grossPence: 10_000, vatPence: 1667, netPence: 8333 });
    expect(change!.customer).toMatchObject({ billingAddress: '2 Dock Road, Salford M50 2AA', poReference: 'PO-7781', vatNumber: 'GB987654321' });

    const list = await get(`/api/bookings/${booking.id}/invoices`, cookie);
    expect(await list.json()).toEqual([
      { number: first!.number, issuedAt: first!.issuedAt.toISOString(), total: 799, vat: 133.17, pdfUrl: `/api/invoices/${first!.number}` },
      { number: change!.number, issuedAt: change!.issuedAt.toISOString(), total: 100, vat: 16.67, pdfUrl: `/api/invoices/${change!.number}` },
    ]);
    const pdf = await pdfOf(await get(`/api/invoices/${change!.number}`, cookie));
    for (const words of ['VAT invoice', 'PO-7781', '2 Dock Road, Salford M50 2AA', 'GB 987 6543 21', '£83.33', '£16.67', '£100.00']) expect(pdf.text).toContain(words);
  });
});

describe('the invoice PDF', () => {
  it('is an A4 VAT invoice with what HMRC asks for, its fonts embedded, and never changes after the booking does', async () => {
    const booking = await paidBooking({ businessName: 'Northern Roasters', quantity: 12, workType: 'night' });
    const [invoice] = await invoicesOf(booking.id);
    const staff = await adminCookie(ctx, 'viewer');
    const before = await pdfOf(await get(`/api/invoices/${invoice!.number}`, staff));
    expect(before.pages).toHaveLength(1);
    expect(isA4(before.pages[0]!)).toBe(true);
    expect(before.fontsEmbedded).toBe(true);
    for (const words of [
      'VAT invoice',
      invoice!.number,
      'Clean Patch Ltd',
      '1 Mill Lane',
      'GB 123 4567 89',
      'Time of supply',
      '22 November 2026',
      'Northern Roasters',
      'Night work',
      'VAT at 20%',
      '£689.00', // 12 patches: £599 + 2 x £45, night work 12 x £20 = £240: gross £929
      '£240.00',
      '£929.00',
      '£154.83',
      '£774.17',
    ]) {
      expect(before.text).toContain(words);
    }

    await db.update(bookings).set({ businessName: 'Renamed Ltd', quantity: 40, billingAddress: 'Elsewhere' }).where(eq(bookings.id, booking.id));
    const after = await pdfOf(await get(`/api/invoices/${invoice!.number}`, staff));
    expect(after.text).toBe(before.text);
    expect((await invoicesOf(booking.id))[0]).toEqual(invoice);
  });

  it('is a receipt saying the seller is not VAT registered when VAT_NUMBER is unset', async () => {
    const booking = await paidBooking({ quantity: 5, workType: 'day' }, unregistered);
    const [invoice] = await invoicesOf(booking.id, unregistered);
    expect(invoice).toMatchObject({ vatRateBasisPoints: null, vatPence: 0, netPence: 34_900, grossPence: 34_900 });
    const cookie = await grantedBrowser(booking.id, unregistered);
    const list = await (await get(`/api/bookings/${booking.id}/invoices`, cookie, unregistered)).json();
    expect(list[0]).not.toHaveProperty('vat');
    const response = await get(`/api/invoices/${invoice!.number}`, cookie, unregistered);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="receipt-${invoice!.number}.pdf"`);
    const pdf = await pdfOf(response);
    expect(pdf.text).toContain('Receipt');
    expect(pdf.text).toContain('not registered for VAT');
    expect(pdf.text).not.toContain('VAT invoice');
    expect(pdf.text).toContain('£349.00');
  });
});

describe('who may see invoices and change billing details', () => {
  it('answers staff of every role and the granted client; another booking\'s grant and no grant get 404', async () => {
    const booking = await paidBooking();
    const other = await paidBooking();
    const [invoice] = await invoicesOf(booking.id);
    const mine = await grantedBrowser(booking.id);
    const theirs = await grantedBrowser(other.id);
    for (const cookie of [mine, await adminCookie(ctx, 'owner'), await adminCookie(ctx, 'staff'), await adminCookie(ctx, 'viewer')]) {
      expect((await get(`/api/invoices/${invoice!.number}`, cookie)).status).toBe(200);
      expect((await get(`/api/bookings/${booking.id}/invoices`, cookie)).status).toBe(200);
    }
    for (const cookie of [theirs, null]) {
      expect((await get(`/api/invoices/${invoice!.number}`, cookie)).status).toBe(404);
      expect((await get(`/api/bookings/${booking.id}/invoices`, cookie)).status).toBe(404);
      expect((await patch(`/api/bookings/${booking.id}/billing`, cookie, { poReference: 'X' })).status).toBe(404);
    }
    expect((await get('/api/invoices/CP-999999', mine)).status).toBe(404);
    expect((await get('/api/invoices/not-a-number', mine)).status).toBe(404);
  });

  it('refuses bad billing details with a 400 naming the field, and changes nothing', async () => {
    const booking = await insertBooking();
    const cookie = await grantedBrowser(booking.id);
    const bad = await patch(`/api/bookings/${booking.id}/billing`, cookie, { customerVatNumber: 'not a number', poReference: 'PO-1' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: 'Enter a VAT number such as GB123456789', fields: { customerVatNumber: 'Enter a VAT number such as GB123456789' } });
    expect((await patch(`/api/bookings/${booking.id}/billing`, cookie, { poReference: 'x'.repeat(101) })).status).toBe(400);
    expect((await patch(`/api/bookings/${booking.id}/billing`, cookie, { unknownField: 1 })).status).toBe(400);
    const [row] = await db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(row).toMatchObject({ poReference: null, customerVatNumber: null });
    // A field left out keeps its value; an empty one clears it.
    await patch(`/api/bookings/${booking.id}/billing`, cookie, { poReference: 'PO-2', billingAddress: 'A' });
    expect(await (await patch(`/api/bookings/${booking.id}/billing`, cookie, { billingAddress: '' })).json()).toEqual({ billingAddress: null, poReference: 'PO-2', customerVatNumber: null });
    expect(await (await get(`/api/bookings/${booking.id}/billing`, cookie)).json()).toEqual({ billingAddress: null, poReference: 'PO-2', customerVatNumber: null });
    expect((await get(`/api/bookings/${booking.id}/billing`, null)).status).toBe(404);
  });
});

describe('GET /api/admin/invoices.csv', () => {
  it('lists one formula-safe row per invoice line within the dates, for owner, staff and viewer only', async () => {
    const booking = await paidBooking({ businessName: '=HYPERLINK("http://evil.example")', quantity: 10, workType: 'night' });
    const [invoice] = await invoicesOf(booking.id);
    const csvFor = async (query: string, cookie: string | null) => get(`/api/admin/invoices.csv${query}`, cookie);
    for (const role of ['owner', 'staff', 'viewer'] as const) expect((await csvFor('', await adminCookie(ctx, role))).status).toBe(200);
    expect((await csvFor('', null)).status).toBe(401);
    expect((await csvFor('', await grantedBrowser(booking.id))).status).toBe(401);

    const owner = await adminCookie(ctx);
    const response = await csvFor('?from=2026-11-22&to=2026-11-22', owner);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const text = await response.text();
    const lines = text.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Invoice number,Invoice date,Customer,Customer VAT number,PO reference,Description,Quantity,Unit amount,Net,VAT rate,VAT,Gross,Payment reference');
    const rows = lines.filter((line) => line.startsWith(`${invoice!.number},`));
    expect(rows).toEqual([
      `${invoice!.number},2026-11-22,"'=HYPERLINK(""http://evil.example"")",,,"Reverse graffiti campaign, booking #${booking.id}: 10 patches",1,599.00,499.16,20%,99.84,599.00,${booking.stripePaymentIntentId}`,
      `${invoice!.number},2026-11-22,"'=HYPERLINK(""http://evil.example"")",,,Night work,10,20.00,166.67,20%,33.33,200.00,${booking.stripePaymentIntentId}`,
    ]);
    const outside = await (await csvFor('?from=2026-11-23&to=2026-12-31', owner)).text();
    expect(outside).not.toContain(invoice!.number);
    expect((await csvFor('?from=2026-12-01&to=2026-11-01', owner)).status).toBe(400);
    expect(await (await csvFor('?from=yesterday', owner)).json()).toMatchObject({ error: 'from and to must be dates (YYYY-MM-DD)' });
  });
});

describe('the campaign report', () => {
  const jpeg = (colour: string) => sharp({ create: { width: 640, height: 480, channels: 3, background: colour } }).jpeg().toBuffer();

  it('is 404 before step 5, then an A4 PDF with each location and its after photos only, re-encoded without EXIF', async () => {
    const booking = await paidBooking({ locationAddress: '1 Deansgate, Manchester M3 1AZ; 9 Quay Street, Manchester M3 3JE', currentStep: 4 });
    await db.insert(bookingLocations).values([
      { bookingId: booking.id, position: 0, address: '1 Deansgate, Manchester M3 1AZ', lat: 53.4794, lng: -2.2453 },
      { bookingId: booking.id, position: 1, address: '9 Quay Street, Manchester M3 3JE', lat: 53.4781, lng: -2.2525 },
    ]);
    const withGps = new Uint8Array(await readFile(new URL('../fixtures/images/camera-gps.jpg', import.meta.url)));
    const files = [
      { name: `after-a-${booking.id}.jpg`, type: 'after' as const, bytes: withGps, lat: 53.4795, lng: -2.2452, takenAt: new Date('2026-11-21T09:15:00Z') },
      { name: `after-b-${booking.id}.jpg`, type: 'after' as const, bytes: new Uint8Array(await jpeg('#3366cc')), lat: 53.4782, lng: -2.2526, takenAt: new Date('2026-11-21T10:40:00Z') },
      { name: `before-${booking.id}.jpg`, type: 'before' as const, bytes: new Uint8Array(await jpeg('#cc3333')), lat: 53.4795, lng: -2.2452, takenAt: new Date('2026-11-21T09:00:00Z') },
      { name: `reference-${booking.id}.jpg`, type: 'reference' as const, bytes: new Uint8Array(await jpeg('#33cc33')), lat: null, lng: null, takenAt: null },
    ];
    for (const file of files) {
      await ctx.deps.files.put(file.name, file.bytes, 'image/jpeg');
      await db.insert(photos).values({
        bookingId: booking.id,
        fileName: file.name,
        originalName: file.name,
        photoType: file.type,
        step: 4,
        fileSize: file.bytes.length,
        mimeType: 'image/jpeg',
        takenAt: file.takenAt,
        lat: file.lat,
        lng: file.lng,
        accuracyM: file.lat === null ? null : 8,
      });
    }
    const cookie = await grantedBrowser(booking.id);
    expect((await get(`/api/bookings/${booking.id}/report`, cookie)).status).toBe(404);
    expect((await get(`/api/bookings/${booking.id}/report`, await adminCookie(ctx, 'viewer'))).status).toBe(404);

    await db.update(bookings).set({ currentStep: 5, status: 'completed', installationDate: new Date('2026-11-21T09:00:00Z'), completionDate: new Date('2026-11-21T16:00:00Z') }).where(eq(bookings.id, booking.id));
    const response = await get(`/api/bookings/${booking.id}/report`, cookie);
    const bytes = new Uint8Array(await response.clone().arrayBuffer());
    const pdf = await pdfOf(response);
    expect(pdf.pages.every(isA4)).toBe(true);
    expect(pdf.fontsEmbedded).toBe(true);
    // Cover, then one page per location, each with the after photo taken there: the before and reference photos stay out.
    expect(pdf.pages).toHaveLength(3);
    expect(pdf.pages[0]!.text).toContain('Campaign report');
    expect(pdf.pages[0]!.text).toContain('Northern Roasters');
    expect(pdf.pages[1]!.text).toContain('1 Deansgate, Manchester M3 1AZ');
    expect(pdf.pages[1]!.text).toContain('Taken Sat, 21 Nov 2026, 09:15');
    expect(pdf.pages[1]!.text).toContain('53.47950, -2.24520 (within 8 m)');
    expect(pdf.pages[2]!.text).toContain('9 Quay Street');
    expect(pdf.pages.map((page) => page.images)).toEqual([0, 1, 1]);
    // The camera's EXIF (its GPS block, its maker) is not carried into the report.
    expect(Buffer.from(bytes).includes(Buffer.from('Exif'))).toBe(false);

    // The completion e-mail links to it through a tracking link of its own.
    const sent = await ctx.app.request(`/api/completion/${booking.id}/send-email`, { method: 'POST', headers: { Cookie: await adminCookie(ctx, 'staff'), Origin: TEST_ORIGIN } });
    expect(sent.status).toBe(200);
    const [completion] = await db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'completion'));
    expect(completion!.text).toMatch(/CAMPAIGN REPORT\nEvery location with its photos, times and places, as a PDF for your client or manager: http:\/\/localhost:8888\/track-project\?t=[\w-]+/);

    // Another client's grant and no grant: the same 404.
    expect((await get(`/api/bookings/${booking.id}/report`, await grantedBrowser((await insertBooking()).id))).status).toBe(404);
    expect((await get(`/api/bookings/${booking.id}/report`, null)).status).toBe(404);
  });
});

describe('Book again', () => {
  it('gives the granted client the booking form\'s data of that booking: business, contact, locations and file references', async () => {
    const booking = await paidBooking({ quantity: 8, workType: 'day', currentStep: 5, status: 'completed' });
    await db.insert(bookingLocations).values({ bookingId: booking.id, position: 0, address: '1 Deansgate, Manchester M3 1AZ', lat: 53.4794, lng: -2.2453 });
    await insertBrandFile(db, { fileName: `brand-${booking.id}.png`, originalName: 'logo.png', fileSize: 1234, mimeType: 'image/png', storage: 'disk' }, booking.id);
    const cookie = await grantedBrowser(booking.id);
    const response = await get(`/api/bookings/${booking.id}/rebook`, cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      businessName: 'Northern Roasters',
      firstName: 'Amira',
      lastName: 'Khan',
      email: booking.email,
      phone: '0161 496 0000',
      quantity: 8,
      workType: 'day',
      locations: [{ address: '1 Deansgate, Manchester M3 1AZ', lat: 53.4794, lng: -2.2453 }],
      uploadedFiles: [{ filename: `brand-${booking.id}.png`, originalName: 'logo.png', fileSize: 1234, mimeType: 'image/png' }],
    });
    expect((await get(`/api/bookings/${booking.id}/rebook`, await adminCookie(ctx))).status).toBe(404);
    expect((await get(`/api/bookings/${booking.id}/rebook`, null)).status).toBe(404);
  });

  /** A completed booking with one brand file of 9 MB, uploaded by `client` (the quota counts it by that key). */
  async function completedWithLogo(client = 'uploader') {
    const booking = await paidBooking({ currentStep: 5, status: 'completed' });
    const fileName = `9f0c1d2e-0000-4000-8000-${String(booking.id).padStart(12, '0')}.png`;
    await ctx.deps.files.put(fileName, new Uint8Array([137, 80, 78, 71]), 'image/png');
    await insertBrandFile(db, { fileName, originalName: 'roasters-logo.png', fileSize: 9 * 1024 * 1024, mimeType: 'image/png', storage: 'disk', clientKey: client, createdAt: ctx.deps.now() }, booking.id);
    return { booking, fileName };
  }

  let bookAgainDay = 0;
  /** POST /api/bookings as a browser with this cookie, with the rebook data's files, on a day of its own. */
  async function bookAgain(cookie: string | null, files: unknown[]) {
    bookAgainDay += 1;
    const body = bookingPayload({ preferredDate: `2027-09-${String(bookAgainDay).padStart(2, '0')}`, uploadedFiles: files });
    return ctx.app.request('/api/bookings', jsonRequest(body, { headers: cookie ? { Cookie: cookie } : {} }), freshClient());
  }

  it('lets the granted client book again with the same stored files: no copy, nothing more counted against the upload quota', async () => {
    const { booking, fileName } = await completedWithLogo();
    const cookie = await grantedBrowser(booking.id);
    const { uploadedFiles: files } = await (await get(`/api/bookings/${booking.id}/rebook`, cookie)).json();
    const response = await bookAgain(cookie, files);
    expect(response.status).toBe(201);
    const again = (await response.json()).id;
    expect(await bookingsUsing(db, fileName)).toEqual([booking.id, again]);
    expect(await db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, fileName))).toHaveLength(1);
    // Staff see it under both bookings, and download the one stored file.
    const admin = await adminCookie(ctx, 'viewer');
    const listed = await (await get(`/api/bookings?q=${again}`, admin)).json();
    expect(listed.find((row: { id: number }) => row.id === again).uploadedFiles).toEqual([expect.objectContaining({ fileName, originalName: 'roasters-logo.png' })]);
    expect((await get(`/api/files/${fileName}`, admin)).status).toBe(200);
    // The uploader's share (10 MB) still has room for another 9 MB file: booked files never count,
    // and the second booking added no second file. An unclaimed 9 MB file of its own would fill it.
    const share = { incomingBytes: 9 * 1024 * 1024, clientShareMb: 10, client: 'uploader', now: ctx.deps.now() };
    await expect(checkUploadShare(db, share)).resolves.toBeUndefined();
    await insertBrandFile(db, { fileName: 'unclaimed-9mb.png', originalName: 'x.png', fileSize: 9 * 1024 * 1024, mimeType: 'image/png', storage: 'disk', clientKey: 'uploader', createdAt: ctx.deps.now() });
    await expect(checkUploadShare(db, share)).rejects.toMatchObject({ status: 429 });
  });

  it("refuses the files to anyone without that booking's grant, with the form's usual error and nothing written", async () => {
    const { booking, fileName } = await completedWithLogo();
    const files = [{ filename: fileName, originalName: 'roasters-logo.png', fileSize: 9 * 1024 * 1024, mimeType: 'image/png' }];
    const count = async () => (await db.select({ id: bookings.id }).from(bookings)).length;
    const otherGrant = await grantedBrowser((await insertBooking()).id);
    const before = await count();
    for (const cookie of [null, otherGrant, await adminCookie(ctx)]) {
      const response = await bookAgain(cookie, files);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'Uploaded file not found: roasters-logo.png', fields: { uploadedFiles: 'Uploaded file not found: roasters-logo.png' } });
    }
    expect(await count()).toBe(before);
    expect(await bookingsUsing(db, fileName)).toEqual([booking.id]);
    // A grant that has run out is no grant.
    const expired = await grantedBrowser(booking.id);
    ctx.setNow(new Date(ctx.deps.now().getTime() + 3 * 60 * 60 * 1000));
    try {
      expect((await bookAgain(expired, files)).status).toBe(400);
    } finally {
      ctx.setNow(new Date(ctx.deps.now().getTime() - 3 * 60 * 60 * 1000));
    }
    expect(await bookingsUsing(db, fileName)).toEqual([booking.id]);
  });

  it('erasing the first booking keeps a file the second still uses; erasing the second deletes it', async () => {
    const { booking, fileName } = await completedWithLogo();
    const cookie = await grantedBrowser(booking.id);
    const { uploadedFiles: files } = await (await get(`/api/bookings/${booking.id}/rebook`, cookie)).json();
    const again = (await (await bookAgain(cookie, files)).json()).id as number;
    // The second booking was made with the fixture's own e-mail, not the first booking's.
    const [second] = await db.select().from(bookings).where(eq(bookings.id, again));
    expect(second!.email).not.toBe(booking.email);

    await erasePersonalData(ctx.deps, booking.email, ctx.deps.now(), 'test');
    expect(await bookingsUsing(db, fileName)).toEqual([again]);
    expect(await ctx.deps.files.get(fileName)).not.toBeNull();
    expect(await fileNamesOf(db, booking.id)).toEqual([]);

    await erasePersonalData(ctx.deps, second!.email, ctx.deps.now(), 'test');
    expect(await db.select().from(uploadedFiles).where(eq(uploadedFiles.fileName, fileName))).toHaveLength(0);
    expect(await ctx.deps.files.get(fileName)).toBeNull();
  });

  it('db:export and db:import carry which bookings use which file', async () => {
    const { booking, fileName } = await completedWithLogo();
    const cookie = await grantedBrowser(booking.id);
    const { uploadedFiles: files } = await (await get(`/api/bookings/${booking.id}/rebook`, cookie)).json();
    const again = (await (await bookAgain(cookie, files)).json()).id as number;
    const dump = await exportDatabase(db);
    expect(dump.tables.booking_files).toEqual(expect.arrayContaining([{ booking_id: booking.id, file_id: expect.any(Number) }, { booking_id: again, file_id: expect.any(Number) }]));
    const copy = await createTestContext(VAT_SETTINGS);
    await importDatabase(copy.deps.db, JSON.parse(JSON.stringify(dump)));
    expect(await bookingsUsing(copy.deps.db, fileName)).toEqual([booking.id, again]);
    await copy.close();
  });
});

describe('records kept', () => {
  it('keeps invoices through erasure (the billing details on the booking go) and through db:export and db:import', async () => {
    const booking = await paidBooking();
    const cookie = await grantedBrowser(booking.id);
    await patch(`/api/bookings/${booking.id}/billing`, cookie, { billingAddress: '2 Dock Road', poReference: 'PO-9', customerVatNumber: 'GB987654321' });
    expect(await payChange(await awaitingChange(booking.id))).toBe('paid');
    const issued = await invoicesOf(booking.id);
    await erasePersonalData(ctx.deps, booking.email, ctx.deps.now(), 'test');
    const [erased] = await db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(erased).toMatchObject({ billingAddress: null, poReference: null, customerVatNumber: null, firstName: 'Erased' });
    expect(await invoicesOf(booking.id)).toEqual(issued);

    const copy = await createTestContext(VAT_SETTINGS);
    await importDatabase(copy.deps.db, await exportDatabase(db));
    const numbers = (rows: { number: string }[]) => rows.map((row) => row.number);
    expect(numbers(await copy.deps.db.select().from(invoices).orderBy(asc(invoices.sequence)))).toEqual(
      numbers(await db.select().from(invoices).orderBy(asc(invoices.sequence))),
    );
    // The sequence came along: the copy's next invoice follows the last one, no gap, no repeat.
    const all = await db.select({ sequence: invoices.sequence }).from(invoices);
    const next = await paidBooking({}, copy);
    expect((await invoicesOf(next.id, copy))[0]!.sequence).toBe(Math.max(...all.map((row) => row.sequence)) + 1);
    await copy.close();
  });

  it('keeps an invoice when its booking is deleted, for staff only', async () => {
    const booking = await paidBooking();
    const [invoice] = await invoicesOf(booking.id);
    await db.delete(bookings).where(inArray(bookings.id, [booking.id]));
    const [kept] = await db.select().from(invoices).where(eq(invoices.id, invoice!.id));
    expect(kept).toMatchObject({ bookingId: null, number: invoice!.number });
    expect((await get(`/api/invoices/${invoice!.number}`, await adminCookie(ctx, 'viewer'))).status).toBe(200);
  });
});
