import { describe, expect, it } from 'vitest';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { analyticsEvents, bookings, channelLogs, contactEnquiries, emailOutbox, invoices, pageViews, photos } from '../../db/schema.ts';
import { applyRetention } from '../../src/server/services/privacy/retention.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';
import { applyPaymentEvent } from '../../src/server/services/payments/payment-webhook.ts';
import { erasePersonalData } from '../../src/server/services/privacy/personal-data-erasure.ts';
import { createTestContext } from '../setup/test-app.ts';

const ctx = await createTestContext();
const NOW = new Date('2026-11-23T03:00:00Z');

async function booking(createdAt: string, preferredDate: string) {
  const [row] = await ctx.deps.db
    .insert(bookings)
    .values({
      firstName: 'Rhys', lastName: 'Evans', email: `rhys.${createdAt}@evanscoffee.co.uk`, phone: '0161 496 0101', quantity: 5,
      locationAddress: 'King Street, Manchester M2 4WU', workType: 'day', preferredDate, totalPricePence: 34900,
      createdAt: new Date(createdAt), updatedAt: new Date(createdAt),
    })
    .returning({ id: bookings.id });
  return row!.id;
}

describe('retention', () => {
  it('deletes bookings after 7 years, communications after 3, analytics after 26 months, and nothing younger', async () => {
    const expired = await booking('2019-06-01T10:00:00Z', '2019-07-15');
    const bookedFarAhead = await booking('2019-06-01T10:00:00Z', '2020-07-15');
    const recent = await booking('2025-01-10T10:00:00Z', '2025-07-15');
    await ctx.deps.files.put('photo-old.png', new Uint8Array([1, 2, 3]), 'image/png');
    await ctx.deps.db.insert(photos).values({
      bookingId: expired, fileName: 'photo-old.png', originalName: 'after.png', photoType: 'after', step: 5, fileSize: 3, mimeType: 'image/png',
    });
    await ctx.deps.db.insert(contactEnquiries).values([
      { firstName: 'Old', lastName: 'Enquiry', email: 'old@enquiry.co.uk', inquiryType: 'General Inquiry', message: 'Asked long ago.', createdAt: new Date('2023-11-01T00:00:00Z') },
      { firstName: 'New', lastName: 'Enquiry', email: 'new@enquiry.co.uk', inquiryType: 'General Inquiry', message: 'Asked this year.', createdAt: new Date('2026-01-01T00:00:00Z') },
    ]);
    await ctx.deps.db.insert(emailOutbox).values({ kind: 'x', to: 'a@b.co.uk', subject: 's', text: 't', createdAt: new Date('2023-01-01T00:00:00Z') });
    await ctx.deps.db.insert(channelLogs).values({ channel: 'booking', action: 'old', timestamp: new Date('2023-01-01T00:00:00Z') });
    await ctx.deps.db.insert(pageViews).values([
      { path: '/', createdAt: new Date('2024-09-01T00:00:00Z') },
      { path: '/pricing', createdAt: new Date('2024-10-01T00:00:00Z') },
    ]);
    await ctx.deps.db.insert(analyticsEvents).values({ eventName: 'booking_started', createdAt: new Date('2024-01-01T00:00:00Z') });

    const counts = await applyRetention(ctx.deps, NOW);
    expect(counts).toMatchObject({ bookings: 1, files: 1, enquiries: 1, emails: 1, pageViews: 1, events: 1 });
    const left = (await ctx.deps.db.select({ id: bookings.id }).from(bookings)).map((row) => row.id);
    expect(left).toContain(bookedFarAhead);
    expect(left).toContain(recent);
    expect(left).not.toContain(expired);
    expect(await ctx.deps.files.get('photo-old.png')).toBeNull();
    expect((await ctx.deps.db.select().from(contactEnquiries)).map((row) => row.firstName)).toEqual(['New']);
    expect((await ctx.deps.db.select().from(pageViews)).map((row) => row.path)).toEqual(['/pricing']);
    const [log] = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'retention_applied'));
    expect(log?.details).toContain('1 bookings');

    // A second run finds nothing more.
    const again = await applyRetention(ctx.deps, NOW);
    expect(Object.values(again).every((count) => count === 0)).toBe(true);
  });

  it('runs as part of the hourly maintenance', async () => {
    await booking('2018-01-01T10:00:00Z', '2018-07-15');
    const result = await runMaintenance(ctx.deps, NOW);
    expect(result.failedSteps).toEqual([]);
    expect(result.counts.retentionDeleted).toBeGreaterThanOrEqual(1);
    const old = await ctx.deps.db.select({ id: bookings.id }).from(bookings).where(sql`${bookings.createdAt} < '2019-01-01'`);
    expect(old).toEqual([]);
  });
});

let payments = 0;
/** A booking paid at 10:00 UTC on `day` (the test clock set there): its invoice, supplied that day. */
async function invoicePaidOn(day: string) {
  payments += 1;
  ctx.setNow(`${day}T10:00:00Z`);
  const email = `accounts${payments}@evanscoffee.co.uk`;
  const [row] = await ctx.deps.db
    .insert(bookings)
    .values({
      firstName: 'Rhys', lastName: 'Evans', businessName: 'Evans Coffee', email, phone: '0161 496 0101', quantity: 5,
      locationAddress: 'King Street, Manchester M2 4WU', workType: 'day', preferredDate: day, totalPricePence: 34900,
      stripePaymentIntentId: `pi_retention_${payments}`, createdAt: ctx.deps.now(), updatedAt: ctx.deps.now(),
    })
    .returning();
  const outcome = await applyPaymentEvent(ctx.deps, {
    id: `evt_retention_${payments}`, type: 'payment_intent.succeeded', created: ctx.deps.now(), livemode: true,
    intent: { id: row!.stripePaymentIntentId!, amount: 34900, amountReceived: 34900, currency: 'gbp', status: 'succeeded', metadata: { bookingId: String(row!.id) }, lastPaymentErrorMessage: null },
  });
  expect(outcome).toBe('paid');
  const [invoice] = await ctx.deps.db.select().from(invoices).where(eq(invoices.bookingId, row!.id));
  expect(invoice!.supplyDate).toBe(day);
  return { invoice: invoice!, email };
}

const invoiceNumbers = async () => (await ctx.deps.db.select({ number: invoices.number }).from(invoices).orderBy(asc(invoices.sequence))).map((row) => row.number);

// The default financial year ends on 31 March (FINANCIAL_YEAR_END): an invoice is kept to the end
// of 31 March six years after the year it belongs to ends.
describe("invoices' retention", () => {
  it('deletes an invoice 6 years after its financial year ends, keeps a younger one through erasure, and never gives a number again', async () => {
    const lastOfItsYear = await invoicePaidOn('2020-03-31');
    const firstOfTheNext = await invoicePaidOn('2020-04-01');
    expect(await invoiceNumbers()).toEqual([lastOfItsYear.invoice.number, firstOfTheNext.invoice.number]);

    // The customer of the younger one asks to be erased: the invoice stays, with what it shows.
    await erasePersonalData(ctx.deps, firstOfTheNext.email, new Date('2026-11-23T02:00:00Z'), 'test');
    const counts = await applyRetention(ctx.deps, NOW);
    expect(counts.invoices).toBe(1);
    expect(await invoiceNumbers()).toEqual([firstOfTheNext.invoice.number]);
    const [kept] = await ctx.deps.db.select().from(invoices).where(eq(invoices.number, firstOfTheNext.invoice.number));
    expect(kept!.customer).toEqual(firstOfTheNext.invoice.customer);
    const [log] = await ctx.deps.db.select().from(channelLogs).where(eq(channelLogs.action, 'retention_applied')).orderBy(desc(channelLogs.id)).limit(1);
    expect(log!.details).toContain('1 invoices');
    expect(log!.metadata).toMatchObject({ invoices: 1, invoicesSuppliedBy: '2020-03-31' });

    // Again the same hour: nothing more.
    expect((await applyRetention(ctx.deps, NOW)).invoices).toBe(0);

    // Its year ended 31 March 2021: kept through 31 March 2027 in London (BST), gone the next day.
    expect((await applyRetention(ctx.deps, new Date('2027-03-31T22:59:00Z'))).invoices).toBe(0);
    expect((await applyRetention(ctx.deps, new Date('2027-03-31T23:00:00Z'))).invoices).toBe(1);
    expect(await invoiceNumbers()).toEqual([]);

    // With every invoice gone, the next payment still takes the number after the last one issued.
    const next = await invoicePaidOn('2027-04-01');
    expect(next.invoice.sequence).toBe(firstOfTheNext.invoice.sequence + 1);
  });

  it('deletes in batches, oldest number first, starting none after the deadline; the hourly job finishes the rest', async () => {
    const old = [await invoicePaidOn('2019-05-01'), await invoicePaidOn('2019-05-02'), await invoicePaidOn('2019-05-03')];
    const live = await invoiceNumbers();

    // The run's time is already up: one batch of two, and the rest left for the next run.
    const first = await applyRetention(ctx.deps, NOW, { until: Date.now() - 1, invoiceBatch: 2 });
    expect(first.invoices).toBe(2);
    expect(await invoiceNumbers()).toEqual(live.filter((number) => number !== old[0]!.invoice.number && number !== old[1]!.invoice.number));

    const result = await runMaintenance(ctx.deps, NOW);
    expect(result.failedSteps).toEqual([]);
    expect(result.counts.retentionDeleted).toBeGreaterThanOrEqual(1);
    expect(await invoiceNumbers()).toEqual(live.filter((number) => !old.some((paid) => paid.invoice.number === number)));
  });
});
