import { and, asc, inArray, lt, lte, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import {
  analyticsEvents,
  bookings,
  channelLogs,
  contactEnquiries,
  emailOutbox,
  invoices,
  pageViews,
  photos,
} from '../../../../db/schema.ts';
import { londonDate } from '../../../domain/schedule.ts';
import type { AppDeps } from '../../app/deps.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { applyRollupRetention } from '../analytics/page-view-rollup.ts';
import { releaseBookingFiles } from '../bookings/booking-files.ts';

/**
 * What /privacy promises (src/content/privacy.ts DATA_RETENTION and its "How long we keep it"),
 * enforced by the hourly job: bookings 7 years, communications (enquiries, e-mails, activity logs)
 * 3 years, analytics 26 months (the raw page views and the daily roll-up made from them). Periods
 * are calendar periods counted back from `now` in UTC; the clock is injected. Invoices, which
 * erasure keeps, go 6 years after the end of the financial year they belong to (below).
 */
export const RETENTION_PERIODS = {
  bookings: { years: 7 },
  communications: { years: 3 },
  analytics: { months: 26 },
} as const;

export interface RetentionCutoffs {
  bookings: Date;
  communications: Date;
  analytics: Date;
}

/** `now` minus a calendar period; the 29th of February falls back to the 28th in a common year. */
export function subtractPeriod(now: Date, period: { years?: number; months?: number }): Date {
  const months = (period.years ?? 0) * 12 + (period.months ?? 0);
  const target = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - months, 1, now.getUTCHours(), now.getUTCMinutes(), now.getUTCSeconds(), now.getUTCMilliseconds()));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(now.getUTCDate(), lastDay));
  return target;
}

export function retentionCutoffs(now: Date): RetentionCutoffs {
  return {
    bookings: subtractPeriod(now, RETENTION_PERIODS.bookings),
    communications: subtractPeriod(now, RETENTION_PERIODS.communications),
    analytics: subtractPeriod(now, RETENTION_PERIODS.analytics),
  };
}

/**
 * Invoices are VAT records: HMRC asks for them to be kept 6 years from the end of the financial
 * year (accounting period) they belong to; erasure keeps them until then (personal-data-erasure.ts).
 */
export const INVOICE_RETENTION_YEARS = 6;

/**
 * The last time of supply whose invoice may be deleted on the London day `today`, for a financial
 * year ending each year on `yearEnd` (MM-DD, env.ts FINANCIAL_YEAR_END, never 02-29). An invoice
 * belongs to the year ending on the first `yearEnd` on or after its time of supply, and is kept to
 * the end of that day 6 years later. The answer is the latest year end whose sixth anniversary is
 * over: every invoice supplied on or before it belongs to a year ending by then, so is past its
 * 6 years, and every later one belongs to a year ending after it, so is not.
 */
export function invoiceRetentionCutoff(today: string, yearEnd: string): string {
  const thisYear = Number(today.slice(0, 4));
  // The latest anniversary that is over: this calendar year's, if its day is past; else last year's.
  const anniversaryYear = `${thisYear}-${yearEnd}` < today ? thisYear : thisYear - 1;
  return `${anniversaryYear - INVOICE_RETENTION_YEARS}-${yearEnd}`;
}

export interface RetentionCounts {
  bookings: number;
  files: number;
  enquiries: number;
  emails: number;
  channelLogs: number;
  pageViews: number;
  /** Rows of the daily page-view roll-up for days wholly past the period. */
  pageViewDays: number;
  events: number;
  /** Invoices past their 6 years (numbers never given again: the counter is not touched). */
  invoices: number;
}

const BOOKING_BATCH = 200;
/** Invoices deleted per statement. */
export const INVOICE_BATCH = 500;

export interface RetentionOptions {
  /**
   * A real-clock deadline (`Date.now()` milliseconds): invoice deletion, in batches, starts no new
   * batch after it (one batch always runs), so a scheduled run ends inside Netlify's 30 s and the
   * next hour carries on.
   */
  until?: number;
  /** Invoices per batch (INVOICE_BATCH). */
  invoiceBatch?: number;
}

/**
 * Deletes invoices supplied on or before `lastSupplyDate`, oldest number first, a batch per
 * statement. Only their rows go: `invoice_sequence` keeps its last number, so a deleted invoice's
 * number is never issued again and the live invoices' sequence is untouched.
 */
async function deleteExpiredInvoices(db: Database, lastSupplyDate: string, { until, invoiceBatch = INVOICE_BATCH }: RetentionOptions): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = db.select({ id: invoices.id }).from(invoices).where(lte(invoices.supplyDate, lastSupplyDate)).orderBy(asc(invoices.sequence)).limit(invoiceBatch);
    const gone = await db.delete(invoices).where(inArray(invoices.id, batch)).returning({ id: invoices.id });
    deleted += gone.length;
    if (gone.length < invoiceBatch || (until !== undefined && Date.now() >= until)) return deleted;
  }
}

/**
 * Deletes what has outlived its period. A booking counts from the later of its creation and
 * its preferred date (a booking made for a date far ahead is kept 7 years after that date); its
 * locations, progress logs and photos go with it (foreign keys cascade), its brand files unless
 * a later booking still uses them (booking-files.ts releaseBookingFiles), and the
 * stored files are removed after the rows are gone, so a failure never leaves a row pointing at
 * a missing file. Repeating a run deletes nothing more.
 */
export async function applyRetention(deps: Pick<AppDeps, 'db' | 'files' | 'log' | 'env'>, now: Date, options: RetentionOptions = {}): Promise<RetentionCounts> {
  const { db } = deps;
  const cutoff = retentionCutoffs(now);
  const counts: RetentionCounts = { bookings: 0, files: 0, enquiries: 0, emails: 0, channelLogs: 0, pageViews: 0, pageViewDays: 0, events: 0, invoices: 0 };
  const bookingCutoffDate = cutoff.bookings.toISOString().slice(0, 10);

  for (;;) {
    const expired = await db
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(lt(bookings.createdAt, cutoff.bookings), sql`${bookings.preferredDate} < ${bookingCutoffDate}`))
      .limit(BOOKING_BATCH);
    if (expired.length === 0) break;
    const ids = expired.map((row) => row.id);
    const stored = await db.transaction(async (tx) => {
      const photoFiles = (
        await tx.select({ name: photos.fileName, thumbnail: photos.thumbnailFileName }).from(photos).where(inArray(photos.bookingId, ids))
      ).flatMap((row) => [{ name: row.name }, ...(row.thumbnail ? [{ name: row.thumbnail }] : [])]);
      // A brand file a newer booking still uses (Book again) stays with it.
      const brandFiles = await releaseBookingFiles(tx as unknown as Database, ids);
      await tx.delete(bookings).where(inArray(bookings.id, ids));
      return [...photoFiles.map((file) => file.name), ...brandFiles.filter((file) => file.storage !== 'uploadcare').map((file) => file.fileName)];
    });
    for (const name of stored) {
      try {
        await deps.files.delete(name);
        counts.files += 1;
      } catch (error) {
        deps.log.warn('A stored file past retention could not be deleted', { error: error instanceof Error ? error.message : String(error) });
      }
    }
    counts.bookings += ids.length;
    if (expired.length < BOOKING_BATCH) break;
  }

  const deleteOlder = async (table: typeof contactEnquiries | typeof emailOutbox | typeof pageViews | typeof analyticsEvents, before: Date) =>
    (await db.delete(table).where(lt(table.createdAt, before)).returning({ id: table.id })).length;
  counts.enquiries = await deleteOlder(contactEnquiries, cutoff.communications);
  counts.emails = await deleteOlder(emailOutbox, cutoff.communications);
  counts.channelLogs = (
    await db.delete(channelLogs).where(lt(channelLogs.timestamp, cutoff.communications)).returning({ id: channelLogs.id })
  ).length;
  counts.pageViews = await deleteOlder(pageViews, cutoff.analytics);
  counts.pageViewDays = await applyRollupRetention(db, cutoff.analytics);
  counts.events = await deleteOlder(analyticsEvents, cutoff.analytics);
  const lastInvoiceSupply = invoiceRetentionCutoff(londonDate(now), deps.env.FINANCIAL_YEAR_END);
  counts.invoices = await deleteExpiredInvoices(db, lastInvoiceSupply, options);

  if (Object.values(counts).some((count) => count > 0)) {
    await writeChannelLog(db, {
      channel: 'database',
      action: 'retention_applied',
      details: `Deleted records past their retention period: ${Object.entries(counts)
        .filter(([, count]) => count > 0)
        .map(([name, count]) => `${count} ${name}`)
        .join(', ')}`,
      metadata: { ...counts, ...(counts.invoices ? { invoicesSuppliedBy: lastInvoiceSupply } : {}) },
    });
  }
  return counts;
}
