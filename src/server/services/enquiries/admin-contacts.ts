import { and, count, desc } from 'drizzle-orm';
import type { Database } from '../../../../db/client.ts';
import { contactEnquiries } from '../../../../db/schema.ts';
import { afterCursor, encodeCursor, microsOf, type PageRequest } from '../lib/keyset-page.ts';

/** The Contacts tab's enquiries (admin-dashboard.md §3, "Contact inquiry"), newest first, one page. */
export async function listContactEnquiries(db: Database, page: PageRequest) {
  const [rows, [total]] = await Promise.all([
    db
      .select({ enquiry: contactEnquiries, micros: microsOf(contactEnquiries.createdAt) })
      .from(contactEnquiries)
      .where(and(afterCursor(contactEnquiries.createdAt, contactEnquiries.id, page.cursor)))
      .orderBy(desc(contactEnquiries.createdAt), desc(contactEnquiries.id))
      .limit(page.limit + 1),
    db.select({ total: count() }).from(contactEnquiries),
  ]);
  const items = rows.slice(0, page.limit);
  const last = items.at(-1);
  return {
    items: items.map(({ enquiry }) => ({
      id: enquiry.id,
      firstName: enquiry.firstName,
      lastName: enquiry.lastName,
      email: enquiry.email,
      phone: enquiry.phone,
      inquiryType: enquiry.inquiryType,
      message: enquiry.message,
      createdAt: enquiry.createdAt.toISOString(),
    })),
    total: total?.total ?? 0,
    nextCursor: rows.length > page.limit && last ? encodeCursor(last.micros, last.enquiry.id) : null,
  };
}

export type ContactEnquiryJson = Awaited<ReturnType<typeof listContactEnquiries>>['items'][number];
