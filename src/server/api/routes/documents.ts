import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../app/request.ts';
import { notFound } from '../../app/errors.ts';
import { readJson } from '../middleware/body.ts';
import { adminActor, readAdminSession, requireAdmin } from '../middleware/admin-auth.ts';
import { bookingIdParam, isGrantedClient, readableBooking } from '../middleware/booking-access.ts';
import { londonDate } from '../../../domain/schedule.ts';
import { writeChannelLog } from '../../services/messages/channel-log.ts';
import { billingSchema, readBilling, updateBilling } from '../../services/documents/billing.ts';
import { findInvoice, listBookingInvoices } from '../../services/documents/invoices.ts';
import { invoiceFileName, invoicePdf } from '../../services/documents/invoice-pdf.ts';
import { invoiceCsvRange, invoicesCsv } from '../../services/documents/invoices-csv.ts';
import { campaignReport } from '../../services/documents/campaign-report.ts';
import { rebookData } from '../../services/documents/rebook.ts';

// api.md "Documents for business customers": invoices, billing details, the campaign report and
// Book again for staff and the browser that tracked the booking; the accountant's CSV for staff.

function pdfResponse(c: Context<AppEnv>, bytes: Uint8Array, fileName: string) {
  return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
    'Content-Type': 'application/pdf',
    'Content-Disposition': `attachment; filename="${fileName}"`,
    // Personal and financial: kept by no shared cache.
    'Cache-Control': 'private, no-store',
  });
}

/** The granted client only (the customer's own changes and form data): else a 404. */
async function grantedBooking(c: Context<AppEnv>): Promise<number> {
  const id = bookingIdParam(c);
  if (!(await isGrantedClient(c, id))) throw notFound();
  return id;
}

export const documentRoutes = new Hono<AppEnv>()
  .get('/bookings/:id/invoices', async (c) => {
    const id = await readableBooking(c, bookingIdParam(c));
    return c.json(await listBookingInvoices(c.get('deps').db, id));
  })
  .get('/invoices/:number', async (c) => {
    const invoice = await findInvoice(c.get('deps').db, c.req.param('number'));
    if (!invoice) throw notFound();
    // An invoice whose booking is gone (booking_id null) is for staff only.
    const staff = Boolean(await readAdminSession(c));
    if (!staff && (invoice.bookingId === null || !(await isGrantedClient(c, invoice.bookingId)))) throw notFound();
    return pdfResponse(c, await invoicePdf(invoice), invoiceFileName(invoice));
  })
  // What the tracking page's billing form shows (PATCH below changes it): the granted client only.
  .get('/bookings/:id/billing', async (c) => {
    const id = await grantedBooking(c);
    return c.json(await readBilling(c.get('deps').db, id));
  })
  .patch('/bookings/:id/billing', async (c) => {
    const id = await grantedBooking(c);
    const input = await readJson(c, billingSchema);
    const { db, now } = c.get('deps');
    return c.json(await updateBilling(db, id, input, now()));
  })
  .get('/bookings/:id/report', async (c) => {
    const id = await readableBooking(c, bookingIdParam(c));
    const deps = c.get('deps');
    const report = await campaignReport(deps, id);
    if (!report) throw notFound('The campaign report is ready once the project is complete.');
    return pdfResponse(c, report.bytes, report.fileName);
  })
  .get('/bookings/:id/rebook', async (c) => {
    const id = await grantedBooking(c);
    return c.json(await rebookData(c.get('deps').db, id));
  })
  .get('/admin/invoices.csv', requireAdmin, async (c) => {
    const { db, now } = c.get('deps');
    const range = invoiceCsvRange(c.req.query('from'), c.req.query('to'), londonDate(now()));
    const csv = await invoicesCsv(db, range.from, range.toExclusive);
    // Invoices name customers: who exported them is worth knowing (as the other CSVs).
    await writeChannelLog(db, { channel: 'admin', action: 'export', userId: adminActor(c), details: `Exported invoices as CSV (${range.label})` });
    return c.body(csv, 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="cleanpatch-invoices-${range.label}.csv"`,
      'Cache-Control': 'no-store',
    });
  });
