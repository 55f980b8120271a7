import type { Database } from '../../../../db/client.ts';
import type { EmailAttachment } from '../../../../db/schema.ts';
import { invoicePdf } from './invoice-pdf.ts';
import { findInvoice } from './invoices.ts';

// An e-mail carrying an invoice (the payment receipt, the stencil change's receipt) is written
// in the payment's transaction with the invoice's number only (invoiceAttachment): drawing the
// PDF there would hold the invoice counter's row while pdfkit loads on a cold instance, making
// every other payment wait. The mailer draws it here when it first delivers the message, from
// the invoice's frozen row, and keeps the bytes in the outbox row (providers/mailer.ts).

/** An invoice attachment whose PDF is not drawn yet. */
export function isUndrawnInvoice(attachment: EmailAttachment): boolean {
  return attachment.invoice !== undefined && attachment.content === '';
}

/** The attachments with every undrawn invoice drawn; throws if one cannot be (the delivery fails and is retried). */
export async function drawInvoiceAttachments(db: Database, attachments: readonly EmailAttachment[]): Promise<EmailAttachment[]> {
  return Promise.all(
    attachments.map(async (attachment) => {
      if (!isUndrawnInvoice(attachment)) return attachment;
      const invoice = await findInvoice(db, attachment.invoice!);
      if (!invoice) throw new Error(`Invoice ${attachment.invoice} is not in the database: its PDF cannot be attached`);
      return { ...attachment, content: Buffer.from(await invoicePdf(invoice)).toString('base64') };
    }),
  );
}
