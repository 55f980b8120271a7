import { asc, sql } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { bookings, contactEnquiries } from '../../../../db/schema.ts';
import { poundsFromPence } from '../../../domain/pricing.ts';
import { statusLabel } from '../../../domain/project-steps.ts';
import { csvPounds, toCsv } from '../lib/csv.ts';

export interface DashboardStats {
  totalBookings: number;
  pendingBookings: number;
  completedBookings: number;
  /** Pounds. */
  totalRevenue: number;
}

/**
 * The four stat cards (admin-dashboard.md §2). The spec restricts only revenue ("completed,
 * non-archived, non-test bookings only"), so the three counts cover every booking, archived and
 * test ones included: Total is everything ever booked, Pending is status 'pending', Completed
 * is status 'completed'. One statement, so the four numbers agree with each other.
 */
export async function dashboardStats(db: Database): Promise<DashboardStats> {
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      pending: sql<number>`(count(*) filter (where ${bookings.status} = 'pending'))::int`,
      completed: sql<number>`(count(*) filter (where ${bookings.status} = 'completed'))::int`,
      revenuePence: sql<number>`(coalesce(sum(${bookings.totalPricePence}) filter (
        where ${bookings.status} = 'completed' and not ${bookings.archived} and not ${bookings.isTest}
      ), 0))::int`,
    })
    .from(bookings);
  return {
    totalBookings: Number(row?.total ?? 0),
    pendingBookings: Number(row?.pending ?? 0),
    completedBookings: Number(row?.completed ?? 0),
    totalRevenue: poundsFromPence(Number(row?.revenuePence ?? 0)),
  };
}

/** Every booking, oldest first, as the spreadsheet staff open ("Export bookings"). */
export async function bookingsCsv(db: Database): Promise<string> {
  const rows = await db.select().from(bookings).orderBy(asc(bookings.id));
  return toCsv(
    [
      'id', 'createdAt', 'firstName', 'lastName', 'businessName', 'email', 'phone', 'quantity', 'locationAddress',
      'postcode', 'region', 'workType', 'preferredDate', 'totalPrice', 'status', 'currentStep', 'paymentStatus',
      'archived', 'isTest',
    ],
    rows.map((b) => [
      b.id, b.createdAt, b.firstName, b.lastName, b.businessName, b.email, b.phone, b.quantity, b.locationAddress,
      b.postcode, b.region, b.workType, b.preferredDate, csvPounds(b.totalPricePence), statusLabel(b.status),
      b.currentStep, b.paymentStatus, b.archived, b.isTest,
    ]),
  );
}

/** Every enquiry, oldest first ("Export enquiries"). */
export async function contactsCsv(db: Database): Promise<string> {
  const rows = await db.select().from(contactEnquiries).orderBy(asc(contactEnquiries.id));
  return toCsv(
    ['id', 'createdAt', 'firstName', 'lastName', 'email', 'phone', 'inquiryType', 'message'],
    rows.map((e) => [e.id, e.createdAt, e.firstName, e.lastName, e.email, e.phone, e.inquiryType, e.message]),
  );
}
