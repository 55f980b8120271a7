import type { Database } from '../../../../db/client.ts';
import { addDays, isIsoDate } from '../../../domain/format.ts';
import { AppError } from '../../app/errors.ts';
import { csvPounds, toCsv } from '../lib/csv.ts';
import { londonMidnight } from '../lib/london-days.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { formatVatRate } from '../../../domain/vat.ts';
import { invoiceLines, invoicesIssuedBetween, type InvoiceCustomer } from './invoices.ts';

// GET /api/admin/invoices.csv?from&to: one row per invoice line, for the accountant. Column names
// a UK bookkeeping tool maps on import (Xero, QuickBooks, FreeAgent: number, date, contact,
// description, quantity, unit amount, tax); amounts are pounds with two decimals, the unit
// amount VAT-inclusive like the prices; dates YYYY-MM-DD. Formula-safe through lib/csv.ts.

export const INVOICE_CSV_HEADER = [
  'Invoice number',
  'Invoice date',
  'Customer',
  'Customer VAT number',
  'PO reference',
  'Description',
  'Quantity',
  'Unit amount',
  'Net',
  'VAT rate',
  'VAT',
  'Gross',
  'Payment reference',
] as const;

export const INVOICE_CSV_MESSAGES = {
  badDate: 'from and to must be dates (YYYY-MM-DD)',
  badRange: 'from must be on or before to',
} as const;

/** The London days from and to, both included; a missing `from` means from the first invoice, a missing `to` today. */
export function invoiceCsvRange(from: string | undefined, to: string | undefined, today: string): { from: Date; toExclusive: Date; label: string } {
  const first = from || '2000-01-01';
  const last = to || today;
  if (!isIsoDate(first) || !isIsoDate(last)) throw new AppError(400, INVOICE_CSV_MESSAGES.badDate);
  if (first > last) throw new AppError(400, INVOICE_CSV_MESSAGES.badRange);
  return { from: londonMidnight(first), toExclusive: londonMidnight(addDays(last, 1)), label: `${from ? first : 'start'}-to-${last}` };
}

export async function invoicesCsv(db: Database, from: Date, toExclusive: Date): Promise<string> {
  const rows = await invoicesIssuedBetween(db, from, toExclusive);
  const lines = rows.flatMap((invoice) => {
    const customer = invoice.customer as InvoiceCustomer;
    const rate = invoice.vatRateBasisPoints === null ? 'No VAT' : formatVatRate(invoice.vatRateBasisPoints);
    return invoiceLines(invoice).map((line) => [
      invoice.number,
      londonDate(invoice.issuedAt),
      customer.businessName ?? customer.contactName,
      customer.vatNumber,
      customer.poReference,
      line.description,
      line.quantity,
      csvPounds(line.unitPence),
      csvPounds(line.netPence),
      rate,
      csvPounds(line.vatPence),
      csvPounds(line.grossPence),
      invoice.paymentReference,
    ]);
  });
  return toCsv(INVOICE_CSV_HEADER, lines);
}
