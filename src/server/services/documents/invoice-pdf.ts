import type { EmailAttachment } from '../../../../db/schema.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { formatUkVatNumber, formatVatRate } from '../../../domain/vat.ts';
import { invoiceLines, type InvoiceCustomer, type InvoiceRow, type InvoiceSeller } from './invoices.ts';
import { INK, labelled, MUTED, PAGE, renderPdf, type Pdf } from './pdf.ts';

// An issued invoice as an A4 PDF, drawn from its frozen row only (never from the booking or the
// settings of today). With the seller's VAT number it is a VAT invoice with what HMRC asks for
// (number, date of issue, time of supply, the seller's name, address and VAT number, the
// customer's name and address, a description, and net, rate, VAT and gross); without one it is
// a receipt that says the seller is not VAT registered.

export const NOT_VAT_REGISTERED = 'The seller is not registered for VAT: no VAT is charged.';

const POUNDS_AND_PENCE = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP', minimumFractionDigits: 2 });

/** Pence as '£1,049.00' (an invoice always shows pence). */
export function money(pence: number): string {
  return POUNDS_AND_PENCE.format(pence / 100);
}

export function invoicePdf(row: InvoiceRow): Promise<Uint8Array> {
  const seller = row.seller as InvoiceSeller;
  const customer = row.customer as InvoiceCustomer;
  const isVatInvoice = row.vatRateBasisPoints !== null;
  const title = isVatInvoice ? 'VAT invoice' : 'Receipt';
  // Dated by its issue: the same invoice is the same file, whenever and however often it is drawn.
  return renderPdf({ title: `${title} ${row.number}`, author: seller.legalName, createdAt: row.issuedAt }, (doc) => {
    const left = PAGE.margin;
    const width = PAGE.width - 2 * PAGE.margin;
    doc.font('bold').fontSize(22).text(title, left, PAGE.margin);
    doc.font('regular').fontSize(11).fillColor(MUTED).text(row.number, left, doc.y + 2);

    // Seller on the left, the invoice's facts on the right.
    const top = doc.y + 18;
    doc.fillColor(INK).font('bold').fontSize(10).text(seller.legalName, left, top, { width: width / 2 - 10 });
    doc.font('regular').fontSize(10).text(seller.address.join('\n'), { width: width / 2 - 10 });
    if (seller.vatNumber) doc.text(`VAT registration number: ${formatUkVatNumber(seller.vatNumber)}`, { width: width / 2 - 10 });
    const sellerBottom = doc.y;
    const right = left + width / 2 + 10;
    labelled(doc, 'Invoice number', row.number, right, top, width / 2 - 10);
    labelled(doc, 'Date of issue', formatLongDate(row.issuedAt.toISOString()), right, doc.y + 4, width / 2 - 10);
    labelled(doc, isVatInvoice ? 'Time of supply (tax point)' : 'Date paid', formatLongDate(row.supplyDate), right, doc.y + 4, width / 2 - 10);
    labelled(doc, 'Payment reference', row.paymentReference, right, doc.y + 4, width / 2 - 10);
    if (customer.poReference) labelled(doc, 'Your PO reference', customer.poReference, right, doc.y + 4, width / 2 - 10);

    // The customer.
    let y = Math.max(sellerBottom, doc.y) + 20;
    doc.font('regular').fontSize(9).fillColor(MUTED).text('Billed to', left, y);
    doc.fillColor(INK).font('bold').fontSize(10).text(customer.businessName ?? customer.contactName, left, doc.y + 1, { width });
    doc.font('regular');
    if (customer.businessName) doc.text(`For the attention of ${customer.contactName}`, { width });
    if (customer.billingAddress) doc.text(customer.billingAddress, { width });
    if (customer.vatNumber) doc.text(`VAT number: ${formatUkVatNumber(customer.vatNumber)}`, { width });

    y = doc.y + 20;
    drawLines(doc, row, y, isVatInvoice);

    doc.moveDown(2).font('regular').fontSize(9).fillColor(MUTED);
    doc.text(isVatInvoice ? `Prices include VAT at ${formatVatRate(row.vatRateBasisPoints!)}. Paid in full by card.` : `${NOT_VAT_REGISTERED} Paid in full by card.`, left, doc.y, {
      width,
    });
  });
}

function drawLines(doc: Pdf, row: InvoiceRow, top: number, isVatInvoice: boolean): void {
  const left = PAGE.margin;
  const width = PAGE.width - 2 * PAGE.margin;
  const columns = isVatInvoice
    ? [
        { title: 'Description', width: width - 300, align: 'left' as const },
        { title: 'Qty', width: 40, align: 'right' as const },
        { title: 'Net', width: 85, align: 'right' as const },
        { title: 'VAT', width: 85, align: 'right' as const },
        { title: 'Gross', width: 90, align: 'right' as const },
      ]
    : [
        { title: 'Description', width: width - 220, align: 'left' as const },
        { title: 'Qty', width: 40, align: 'right' as const },
        { title: 'Unit price', width: 90, align: 'right' as const },
        { title: 'Amount', width: 90, align: 'right' as const },
      ];
  const row_ = (cells: string[], y: number, font: 'regular' | 'bold') => {
    let x = left;
    let bottom = y;
    cells.forEach((cell, index) => {
      const column = columns[index]!;
      doc.font(font).fontSize(10).fillColor(INK).text(cell, x, y, { width: column.width, align: column.align });
      bottom = Math.max(bottom, doc.y);
      x += column.width;
    });
    return bottom;
  };
  let y = row_(columns.map((column) => column.title), top, 'bold') + 4;
  doc.moveTo(left, y).lineTo(left + width, y).strokeColor('#cbd2d9').lineWidth(0.5).stroke();
  y += 6;
  for (const line of invoiceLines(row)) {
    const cells = isVatInvoice
      ? [line.description, String(line.quantity), money(line.netPence), money(line.vatPence), money(line.grossPence)]
      : [line.description, String(line.quantity), money(line.unitPence), money(line.grossPence)];
    y = row_(cells, y, 'regular') + 6;
  }
  doc.moveTo(left, y).lineTo(left + width, y).strokeColor('#cbd2d9').lineWidth(0.5).stroke();
  y += 8;
  const totals: [string, string][] = isVatInvoice
    ? [
        ['Total net', money(row.netPence)],
        [`VAT at ${formatVatRate(row.vatRateBasisPoints!)}`, money(row.vatPence)],
        ['Total (gross)', money(row.grossPence)],
      ]
    : [['Total paid', money(row.grossPence)]];
  for (const [label, value] of totals) {
    doc.font(label.startsWith('Total') && label !== 'Total net' ? 'bold' : 'regular').fontSize(10).fillColor(INK);
    doc.text(label, left + width - 260, y, { width: 160, align: 'right' });
    doc.text(value, left + width - 100, y, { width: 100, align: 'right' });
    y = doc.y + 4;
  }
  doc.y = y;
  doc.x = left;
}

export function invoiceFileName(row: Pick<InvoiceRow, 'number' | 'vatRateBasisPoints'>): string {
  return `${row.vatRateBasisPoints !== null ? 'invoice' : 'receipt'}-${row.number}.pdf`;
}

/**
 * The invoice as an e-mail's attachment, by its number only: the transaction that issues it
 * writes no PDF, and the mailer draws it when it delivers the message (invoice-attachments.ts).
 */
export function invoiceAttachment(row: Pick<InvoiceRow, 'number' | 'vatRateBasisPoints'>): EmailAttachment {
  return { filename: invoiceFileName(row), type: 'application/pdf', content: '', invoice: row.number };
}
