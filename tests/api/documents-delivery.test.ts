import { describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { bookings, emailOutbox, invoices, proofs, stencilChanges, type EmailAttachment } from '../../db/schema.ts';
import { silentLogger } from '../../src/server/app/logger.ts';
import { createMailer, type Mailer } from '../../src/server/providers/mailer.ts';
import { queueEmail } from '../../src/server/providers/email-outbox.ts';
import { invoicePdf } from '../../src/server/services/documents/invoice-pdf.ts';
import type { PaymentEvent } from '../../src/server/providers/payments.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { applyPaymentEvent } from '../../src/server/services/payments/payment-webhook.ts';
import { STENCIL_CHANGE_KIND } from '../../src/server/services/proofs/stencil-changes.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { insertBookingRow } from '../fixtures/booking-rows.ts';
import { readPdf } from '../fixtures/pdf-reader.ts';

// When an invoice's PDF is drawn (api.md "Documents for business customers"): the payment's
// transaction takes the number only, and the receipt's PDF is drawn when the receipt is
// delivered, from the issued invoice's row. A drawing that fails therefore costs a delivery
// attempt, never the payment or its number.

const ctx = await createTestContext({ VAT_NUMBER: 'GB123456789', BUSINESS_LEGAL_NAME: 'Clean Patch Ltd' });
const db = ctx.deps.db;

let sequence = 0;
async function insertBooking() {
  sequence += 1;
  return insertBookingRow(ctx, { quantity: 5, workType: 'day', email: `amira.delivery${sequence}@northernroasters.co.uk`, stripePaymentIntentId: `pi_delivery_${sequence}` });
}

function succeeded(booking: typeof bookings.$inferSelect): PaymentEvent {
  const amount = booking.totalPricePence;
  return {
    id: `evt_delivery_${booking.id}`,
    type: 'payment_intent.succeeded',
    created: ctx.deps.now(),
    livemode: true,
    intent: { id: booking.stripePaymentIntentId!, amount, amountReceived: amount, currency: 'gbp', status: 'succeeded', metadata: { bookingId: String(booking.id) }, lastPaymentErrorMessage: null },
  };
}

const receiptOf = async (bookingId: number) =>
  (await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, `payment-receipt:${bookingId}`)))[0]!;
const invoiceOf = async (bookingId: number) => (await db.select().from(invoices).where(eq(invoices.bookingId, bookingId)))[0]!;
const pdfAttachment = (attachments: EmailAttachment[] | null) => attachments!.find((file) => file.type === 'application/pdf')!;

describe("an invoice's PDF is drawn when its e-mail is delivered", () => {
  it('commits the payment with the invoice named, not drawn: a failure after the commit keeps the payment and its number, and the retry attaches it', async () => {
    // Whatever the request's own delivery does after the commit (here it throws, as pdfkit failing
    // to load would), the transaction has already committed.
    const broken: Mailer = {
      transport: ctx.deps.mailer.transport,
      deliverQueued: () => Promise.reject(new Error('Cannot find module pdfkit')),
      deliverClaimed: () => Promise.reject(new Error('Cannot find module pdfkit')),
    };
    const booking = await insertBooking();
    expect(await applyPaymentEvent({ ...ctx.deps, mailer: broken }, succeeded(booking))).toBe('paid');

    const [paid] = await db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(paid!.paymentStatus).toBe('paid');
    const invoice = await invoiceOf(booking.id);
    const receipt = await receiptOf(booking.id);
    expect(receipt.status).toBe('queued');
    // The transaction wrote the invoice's name and number, and no PDF.
    expect(pdfAttachment(receipt.attachments)).toEqual({ filename: `invoice-${invoice.number}.pdf`, type: 'application/pdf', invoice: invoice.number, content: '' });

    // Staff opening the waiting receipt see the invoice as it will be sent; reading it changes nothing.
    const staff = await adminCookie(ctx);
    const view = await ctx.app.request(`/api/admin/messages/${receipt.id}`, { headers: { Origin: TEST_ORIGIN, Cookie: staff } }, freshClient());
    expect(view.status).toBe(200);
    const listed = ((await view.json()) as { attachments: { filename: string; size: number }[] }).attachments;
    expect(listed.find((file) => file.filename === `invoice-${invoice.number}.pdf`)!.size).toBeGreaterThan(1000);
    expect(pdfAttachment((await receiptOf(booking.id)).attachments).content).toBe('');

    // The number was not burnt: the next payment takes the one after it, and its receipt goes at once.
    const next = await insertBooking();
    expect(await applyPaymentEvent(ctx.deps, succeeded(next))).toBe('paid');
    expect((await invoiceOf(next.id)).sequence).toBe(invoice.sequence + 1);
    expect((await receiptOf(next.id)).status).toBe('logged');

    // The hourly job sends the waiting receipt, the PDF drawn from the issued invoice.
    const result = await runMaintenance(ctx.deps, ctx.deps.now());
    expect(result.failedSteps).toEqual([]);
    const sent = await receiptOf(booking.id);
    expect(sent.status).toBe('logged');
    const attached = Buffer.from(pdfAttachment(sent.attachments).content, 'base64');
    expect((await readPdf(new Uint8Array(attached))).text).toContain(invoice.number);

    // The same document the customer downloads from the tracking page or staff from the dashboard.
    const download = await ctx.app.request(`/api/invoices/${invoice.number}`, { headers: { Origin: TEST_ORIGIN, Cookie: staff } }, freshClient());
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(attached)).toBe(true);
  });

  it('fails the delivery, not the payment, when the invoice cannot be drawn, and staff still open the message', async () => {
    // An e-mail naming an invoice that is no longer there (deleted once past its retention).
    const missing = { filename: 'invoice-CP-999999.pdf', type: 'application/pdf', content: '', invoice: 'CP-999999' };
    await queueEmail(db, { to: 'accounts@northernroasters.co.uk', subject: 'Receipt', text: 'Receipt', kind: 'test-receipt', dedupeKey: 'test-receipt:missing', attachments: [missing] });
    await ctx.deps.mailer.deliverQueued(db, { dedupeKeys: ['test-receipt:missing'], now: ctx.deps.now() });
    const [row] = await db.select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, 'test-receipt:missing'));
    expect(row).toMatchObject({ status: 'failed', attachments: [missing] });
    expect(row!.error).toContain('Invoice CP-999999 is not in the database');

    const view = await ctx.app.request(`/api/admin/messages/${row!.id}`, { headers: { Origin: TEST_ORIGIN, Cookie: await adminCookie(ctx) } }, freshClient());
    expect(view.status).toBe(200);
    expect((await view.json()).attachments).toEqual([{ filename: 'invoice-CP-999999.pdf', contentType: 'application/pdf', size: 0 }]);
  });

  it('sends the same PDF again when SendGrid fails the first time', async () => {
    const sent: { attachments?: { filename: string; type: string; content: string; disposition: string }[] }[] = [];
    const answers = [500, 202];
    const fakeSendGrid = (async (_url: string | URL | Request, init?: RequestInit) => {
      sent.push(JSON.parse(String(init!.body)));
      const status = answers.shift() ?? 202;
      return new Response(status === 202 ? '' : 'Service unavailable', { status });
    }) as typeof fetch;
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.test-key' }, silentLogger, fakeSendGrid);
    const deps = { ...ctx.deps, mailer };

    const booking = await insertBooking();
    expect(await applyPaymentEvent(deps, succeeded(booking))).toBe('paid');
    const failed = await receiptOf(booking.id);
    expect(failed.status).toBe('failed');
    // Drawn before the send, and kept in the outbox row with the message.
    const kept = pdfAttachment(failed.attachments);
    expect(kept.content).not.toBe('');

    // Past the first retry's wait (10 minutes after one attempt), the hourly job sends it again.
    ctx.setNow(new Date(ctx.deps.now().getTime() + 11 * 60_000));
    await runMaintenance(deps, ctx.deps.now());
    expect((await receiptOf(booking.id)).status).toBe('sent');
    const invoice = await invoiceOf(booking.id);
    const pdfs = sent.map((body) => body.attachments?.find((file) => file.type === 'application/pdf'));
    expect(pdfs).toHaveLength(2);
    for (const pdf of pdfs) {
      expect(pdf).toEqual({ filename: `invoice-${invoice.number}.pdf`, type: 'application/pdf', content: kept.content, disposition: 'attachment' });
    }
  });

  it('draws one invoice as the same bytes every time', async () => {
    const [first] = await db.select().from(invoices).orderBy(asc(invoices.sequence)).limit(1);
    const [a, b] = [await invoicePdf(first!), await invoicePdf(first!)];
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});

describe("a stencil change's receipt", () => {
  it("e-mails the customer the paid change's invoice once, however often Stripe reports the payment", async () => {
    const booking = await insertBooking();
    expect(await applyPaymentEvent(ctx.deps, succeeded(booking))).toBe('paid');
    const [proof] = await db
      .insert(proofs)
      .values({ bookingId: booking.id, version: 1, status: 'approved', fileName: `proof-delivery-${booking.id}.png`, originalName: 'proof.png', mimeType: 'image/png', fileSize: 10, createdBy: 'test' })
      .returning();
    const [change] = await db
      .insert(stencilChanges)
      .values({ bookingId: booking.id, proofId: proof!.id, comment: 'Bigger logo', amountPence: 10_000, stripePaymentIntentId: `pi_delivery_change_${booking.id}` })
      .returning();
    const paidChange = (id: string): PaymentEvent => ({
      id,
      type: 'payment_intent.succeeded',
      created: ctx.deps.now(),
      livemode: true,
      intent: {
        id: change!.stripePaymentIntentId!, amount: 10_000, amountReceived: 10_000, currency: 'gbp', status: 'succeeded',
        metadata: { kind: STENCIL_CHANGE_KIND, stencilChangeId: String(change!.id) }, lastPaymentErrorMessage: null,
      },
    });

    expect(await applyPaymentEvent(ctx.deps, paidChange(`evt_change_${change!.id}`))).toBe('paid');
    const [invoice] = await db.select().from(invoices).where(eq(invoices.stencilChangeId, change!.id));
    const receipts = () => db.select().from(emailOutbox).where(eq(emailOutbox.kind, 'stencil-change-receipt'));
    const [receipt] = await receipts();
    expect(receipt).toMatchObject({ to: booking.email, bookingId: booking.id, status: 'logged', subject: `Payment received for your stencil change (booking #${booking.id})` });
    expect(receipt!.text).toContain(`we have received your payment of £100 for the stencil change on booking #${booking.id}`);
    expect(receipt!.text).toContain(`Your invoice ${invoice!.number} is attached as a PDF`);
    const pdf = await readPdf(new Uint8Array(Buffer.from(pdfAttachment(receipt!.attachments).content, 'base64')));
    expect(pdf.text).toContain(invoice!.number);
    expect(pdf.text).toContain(`Stencil change after approval, booking #${booking.id}`);

    // Stripe's retry of the event, and a second success event for the same intent: nothing more.
    expect(await applyPaymentEvent(ctx.deps, paidChange(`evt_change_${change!.id}`))).toBe('duplicate');
    expect(await applyPaymentEvent(ctx.deps, paidChange(`evt_change_again_${change!.id}`))).toBe('already_paid');
    expect(await receipts()).toHaveLength(1);
    expect(await db.select().from(invoices).where(eq(invoices.stencilChangeId, change!.id))).toHaveLength(1);
  });
});
