import { describe, expect, it, vi } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { bookings, emailOutbox, invoices, type EmailAttachment } from '../../db/schema.ts';
import { computeTotalPricePence } from '../../src/domain/pricing.ts';
import { silentLogger } from '../../src/server/api/deps.ts';
import { createMailer } from '../../src/server/providers/mailer.ts';
import type { PaymentEvent } from '../../src/server/providers/payments.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { applyPaymentEvent } from '../../src/server/services/payments/payment-webhook.ts';
import { adminCookie } from '../setup/admin.ts';
import { createTestContext, TEST_ORIGIN } from '../setup/test-app.ts';
import { freshClient } from '../fixtures/bookings.ts';
import { readPdf } from '../fixtures/pdf-reader.ts';

// When an invoice's PDF is drawn (api.md "Documents for business customers"): the payment's
// transaction takes the number only, and the receipt's PDF is drawn when the receipt is
// delivered, from the issued invoice's row. A drawing that fails therefore costs a delivery
// attempt, never the payment or its number.

// Drawing can be made to fail, as pdfkit failing to load on a cold instance would.
const drawing = vi.hoisted(() => ({ fail: false, calls: 0 }));
vi.mock('../../src/server/services/documents/invoice-pdf.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/server/services/documents/invoice-pdf.ts')>();
  return {
    ...original,
    invoicePdf: async (row: Parameters<typeof original.invoicePdf>[0]) => {
      drawing.calls += 1;
      if (drawing.fail) throw new Error('Cannot find module pdfkit');
      return original.invoicePdf(row);
    },
  };
});

const ctx = await createTestContext({ VAT_NUMBER: 'GB123456789', BUSINESS_LEGAL_NAME: 'Clean Patch Ltd' });
const db = ctx.deps.db;

let sequence = 0;
async function insertBooking() {
  sequence += 1;
  const [booking] = await db
    .insert(bookings)
    .values({
      firstName: 'Amira',
      lastName: 'Khan',
      businessName: 'Northern Roasters',
      email: `amira.delivery${sequence}@northernroasters.co.uk`,
      phone: '0161 496 0000',
      quantity: 5,
      workType: 'day',
      locationAddress: 'Piccadilly Gardens, Manchester M1 1RG',
      preferredDate: '2027-07-14',
      totalPricePence: computeTotalPricePence(5, 'day'),
      stripePaymentIntentId: `pi_delivery_${sequence}`,
      createdAt: ctx.deps.now(),
    })
    .returning();
  return booking!;
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

/** Past the first retry's wait (10 minutes after one attempt), so the hourly job sends it again. */
function laterBy(minutes: number) {
  ctx.setNow(new Date(ctx.deps.now().getTime() + minutes * 60_000));
  return ctx.deps.now();
}

describe("an invoice's PDF is drawn when its e-mail is delivered", () => {
  it('keeps the payment and its number when the drawing fails, and the retried delivery attaches the invoice', async () => {
    drawing.fail = true;
    const booking = await insertBooking();
    expect(await applyPaymentEvent(ctx.deps, succeeded(booking))).toBe('paid');

    // The payment and its invoice committed; only the receipt's delivery failed, with the reason for staff.
    const [paid] = await db.select().from(bookings).where(eq(bookings.id, booking.id));
    expect(paid!.paymentStatus).toBe('paid');
    const invoice = await invoiceOf(booking.id);
    const receipt = await receiptOf(booking.id);
    expect(receipt.status).toBe('failed');
    expect(receipt.error).toContain('Cannot find module pdfkit');
    expect(pdfAttachment(receipt.attachments)).toMatchObject({ filename: `invoice-${invoice.number}.pdf`, invoice: invoice.number, content: '' });

    // The number was not burnt: the next payment takes the one after it.
    drawing.fail = false;
    const next = await insertBooking();
    expect(await applyPaymentEvent(ctx.deps, succeeded(next))).toBe('paid');
    expect((await invoiceOf(next.id)).sequence).toBe(invoice.sequence + 1);
    expect((await receiptOf(next.id)).status).toBe('logged');

    // Staff opening the failed receipt meanwhile see the file listed, not an error.
    const staff = await adminCookie(ctx);
    drawing.fail = true;
    const view = await ctx.app.request(`/api/admin/messages/${receipt.id}`, { headers: { Origin: TEST_ORIGIN, Cookie: staff } }, freshClient());
    expect(view.status).toBe(200);
    expect((await view.json()).attachments).toContainEqual({ filename: `invoice-${invoice.number}.pdf`, contentType: 'application/pdf', size: 0 });
    drawing.fail = false;

    // The hourly job's retry draws it from the issued invoice and sends the receipt with it.
    const result = await runMaintenance(ctx.deps, laterBy(11));
    expect(result.failedSteps).toEqual([]);
    const retried = await receiptOf(booking.id);
    expect(retried.status).toBe('logged');
    const attached = Buffer.from(pdfAttachment(retried.attachments).content, 'base64');
    expect((await readPdf(new Uint8Array(attached))).text).toContain(invoice.number);

    // The same document the customer downloads from the tracking page or staff from the dashboard.
    const download = await ctx.app.request(`/api/invoices/${invoice.number}`, { headers: { Origin: TEST_ORIGIN, Cookie: staff } }, freshClient());
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(attached)).toBe(true);
  });

  it('sends the same PDF again when SendGrid fails the first time, drawn once', async () => {
    const sent: { attachments?: { filename: string; type: string; content: string; disposition: string }[] }[] = [];
    let answers = [500, 202];
    const fakeSendGrid = (async (_url: string | URL | Request, init?: RequestInit) => {
      sent.push(JSON.parse(String(init!.body)));
      const status = answers.shift() ?? 202;
      return new Response(status === 202 ? '' : 'Service unavailable', { status });
    }) as typeof fetch;
    const mailer = createMailer({ ...ctx.deps.env, SENDGRID_API_KEY: 'SG.test-key' }, silentLogger, fakeSendGrid);
    const deps = { ...ctx.deps, mailer };

    const booking = await insertBooking();
    const callsBefore = drawing.calls;
    expect(await applyPaymentEvent(deps, succeeded(booking))).toBe('paid');
    const failed = await receiptOf(booking.id);
    expect(failed.status).toBe('failed');
    // Drawn before the send, and kept in the outbox row with the message.
    const kept = pdfAttachment(failed.attachments);
    expect(kept.content).not.toBe('');

    await runMaintenance(deps, laterBy(11));
    expect((await receiptOf(booking.id)).status).toBe('sent');
    expect(drawing.calls - callsBefore).toBe(1);
    const invoice = await invoiceOf(booking.id);
    const pdfs = sent.map((body) => body.attachments?.find((file) => file.type === 'application/pdf'));
    expect(pdfs).toHaveLength(2);
    for (const pdf of pdfs) {
      expect(pdf).toEqual({ filename: `invoice-${invoice.number}.pdf`, type: 'application/pdf', content: kept.content, disposition: 'attachment' });
    }
  });

  it('draws one invoice as the same bytes every time', async () => {
    const { invoicePdf } = await vi.importActual<typeof import('../../src/server/services/documents/invoice-pdf.ts')>(
      '../../src/server/services/documents/invoice-pdf.ts',
    );
    const [first] = await db.select().from(invoices).orderBy(asc(invoices.sequence)).limit(1);
    const [a, b] = [await invoicePdf(first!), await invoicePdf(first!)];
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
  });
});
