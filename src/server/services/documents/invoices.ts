import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { rowsOf, type Database } from '../../../../db/client.ts';
import { bookings, invoices, type stencilChanges } from '../../../../db/schema.ts';
import { BUSINESS } from '../../../content/business.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { computeBasePricePence, NIGHT_SURCHARGE_PER_PATCH_PENCE, poundsFromPence } from '../../../domain/pricing.ts';
import { rateToBasisPoints, vatTotals, type GrossLine, type VatLine } from '../../../domain/vat.ts';
import type { Env } from '../../env.ts';

// Invoices (api.md "Documents for business customers"): one gapless sequence across booking
// payments and paid stencil changes, issued inside the transaction that marks the payment paid
// (services/payments/payment-success.ts markPaid, services/proofs/stencil-changes.ts), so a
// payment and its invoice commit or roll back together and a replayed webhook, which never gets
// that far, issues none. What an invoice says is frozen in its row when issued.

export type InvoiceRow = typeof invoices.$inferSelect;
type BookingRow = typeof bookings.$inferSelect;
type StencilChangeRow = typeof stencilChanges.$inferSelect;

export interface InvoiceSeller {
  legalName: string;
  address: string[];
  /** Null: not VAT registered, the invoice is a receipt. */
  vatNumber: string | null;
}

export interface InvoiceCustomer {
  businessName: string | null;
  contactName: string;
  email: string;
  billingAddress: string | null;
  poReference: string | null;
  vatNumber: string | null;
}

export const INVOICE_PREFIX = 'CP-';

/** The settings an invoice is issued under (env.ts). */
export type InvoiceSettings = Pick<Env, 'BUSINESS_LEGAL_NAME' | 'BUSINESS_ADDRESS' | 'VAT_NUMBER' | 'VAT_RATE'>;

/** CP-000001: the prefix and six digits (more once past a million). */
export function invoiceNumber(sequence: number): string {
  return `${INVOICE_PREFIX}${String(sequence).padStart(6, '0')}`;
}

export function sellerFromSettings(env: Pick<Env, 'BUSINESS_LEGAL_NAME' | 'BUSINESS_ADDRESS' | 'VAT_NUMBER'>): InvoiceSeller {
  const address = env.BUSINESS_ADDRESS
    ? env.BUSINESS_ADDRESS.split(/\s*(?:\n|,)\s*/).filter(Boolean)
    : [BUSINESS.address.locality, BUSINESS.address.region, 'United Kingdom'];
  return { legalName: env.BUSINESS_LEGAL_NAME ?? BUSINESS.legalName, address, vatNumber: env.VAT_NUMBER ?? null };
}

function customerOf(booking: BookingRow): InvoiceCustomer {
  return {
    businessName: booking.businessName,
    contactName: `${booking.firstName} ${booking.lastName}`,
    email: booking.email,
    billingAddress: booking.billingAddress,
    poReference: booking.poReference,
    vatNumber: booking.customerVatNumber,
  };
}

/**
 * A booking's lines from the price table (public-site.md section 9): the campaign's patches at
 * the price for their number, and night work at £20 a patch. Should they not add up to what was
 * paid (a price changed between booking and payment), one line for the amount paid instead.
 */
export function bookingInvoiceLines(booking: Pick<BookingRow, 'id' | 'quantity' | 'workType'>, paidPence: number): GrossLine[] {
  const patches = `${booking.quantity} ${booking.quantity === 1 ? 'patch' : 'patches'}`;
  const campaign = `Reverse graffiti campaign, booking #${booking.id}: ${patches}`;
  const lines: GrossLine[] = [{ description: campaign, quantity: 1, grossPence: computeBasePricePence(booking.quantity) }];
  if (booking.workType === 'night') {
    lines.push({ description: 'Night work', quantity: booking.quantity, grossPence: booking.quantity * NIGHT_SURCHARGE_PER_PATCH_PENCE });
  }
  const sum = lines.reduce((total, line) => total + line.grossPence, 0);
  return sum === paidPence ? lines : [{ description: `${campaign} (${booking.workType} work)`, quantity: 1, grossPence: paidPence }];
}

/**
 * The next number, taken under the counter row's lock, which the caller's transaction holds until
 * it commits: a concurrent payment waits, then takes the number after; a rollback gives the
 * number back. (A missing row, as after loading an older dump, starts after the highest issued.)
 */
async function nextSequence(tx: Database): Promise<number> {
  const result = await tx.execute(sql`
    insert into invoice_sequence (id, last_number)
    values (1, (select coalesce(max(sequence), 0) + 1 from invoices))
    on conflict (id) do update set last_number = invoice_sequence.last_number + 1
    returning last_number`);
  const [row] = rowsOf<{ last_number: number }>(result);
  return Number(row!.last_number);
}

interface IssueRequest {
  kind: InvoiceRow['kind'];
  bookingId: number;
  stencilChangeId: number | null;
  customer: InvoiceCustomer;
  lines: GrossLine[];
  paymentReference: string;
  paidAt: Date;
}

async function issueInvoice(tx: Database, env: InvoiceSettings, now: Date, request: IssueRequest): Promise<InvoiceRow> {
  const seller = sellerFromSettings(env);
  const rate = seller.vatNumber ? rateToBasisPoints(env.VAT_RATE) : null;
  const totals = vatTotals(request.lines, rate);
  const sequence = await nextSequence(tx);
  const [row] = await tx
    .insert(invoices)
    .values({
      sequence,
      number: invoiceNumber(sequence),
      issuedAt: now,
      supplyDate: londonDate(request.paidAt),
      kind: request.kind,
      bookingId: request.bookingId,
      stencilChangeId: request.stencilChangeId,
      paymentReference: request.paymentReference,
      seller,
      customer: request.customer,
      lines: totals.lines,
      netPence: totals.netPence,
      vatPence: totals.vatPence,
      grossPence: totals.grossPence,
      vatRateBasisPoints: rate,
    })
    .returning();
  return row!;
}

/** Called by markPaid in the transaction that marks the booking paid (once: it runs only then). */
export function issueBookingInvoice(tx: Database, env: InvoiceSettings, now: Date, booking: BookingRow, paymentReference: string, paidAt: Date) {
  const paid = booking.amountPaidPence ?? booking.totalPricePence;
  return issueInvoice(tx, env, now, {
    kind: 'booking',
    bookingId: booking.id,
    stencilChangeId: null,
    customer: customerOf(booking),
    lines: bookingInvoiceLines(booking, paid),
    paymentReference,
    paidAt,
  });
}

/** Called by applyStencilChangeEvent, with the change's booking, in the transaction that marks the change paid. */
export function issueStencilChangeInvoice(tx: Database, env: InvoiceSettings, now: Date, change: StencilChangeRow, booking: BookingRow, paymentReference: string) {
  return issueInvoice(tx, env, now, {
    kind: 'stencil_change',
    bookingId: change.bookingId,
    stencilChangeId: change.id,
    customer: customerOf(booking),
    lines: [{ description: `Stencil change after approval, booking #${change.bookingId}`, quantity: 1, grossPence: change.amountPence }],
    paymentReference,
    paidAt: change.paidAt ?? now,
  });
}

// ------------------------------------------------------------------------- reading

export function invoiceLines(row: InvoiceRow): VatLine[] {
  return row.lines as VatLine[];
}

/** GET /api/bookings/{id}/invoices: oldest first; `vat` only on VAT invoices. */
export async function listBookingInvoices(db: Database, bookingId: number) {
  const rows = await db.select().from(invoices).where(eq(invoices.bookingId, bookingId)).orderBy(asc(invoices.sequence));
  return rows.map((row) => ({
    number: row.number,
    issuedAt: row.issuedAt.toISOString(),
    total: poundsFromPence(row.grossPence),
    ...(row.vatRateBasisPoints !== null ? { vat: poundsFromPence(row.vatPence) } : {}),
    pdfUrl: `/api/invoices/${row.number}`,
  }));
}

const INVOICE_NUMBER = new RegExp(`^${INVOICE_PREFIX}\\d{6,9}$`);

export async function findInvoice(db: Database, number: string): Promise<InvoiceRow | undefined> {
  if (!INVOICE_NUMBER.test(number)) return undefined;
  const [row] = await db.select().from(invoices).where(eq(invoices.number, number)).limit(1);
  return row;
}

/** Invoices issued from one London day to another (inclusive), in number order, for the CSV. */
export async function invoicesIssuedBetween(db: Database, from: Date, toExclusive: Date): Promise<InvoiceRow[]> {
  return db
    .select()
    .from(invoices)
    .where(and(gte(invoices.issuedAt, from), lt(invoices.issuedAt, toExclusive)))
    .orderBy(asc(invoices.sequence));
}
