import { contactEnquiries } from '../../../db/schema.ts';
import { BUSINESS } from '../../content/business.ts';
import type { ContactPayload } from '../../domain/contact-schema.ts';
import type { AppDeps } from '../api/deps.ts';
import { queueEmail } from '../providers/email.ts';
import { writeChannelLog } from './channel-log.ts';
import { enquiryAcknowledgement, staffEnquiryNotification } from './enquiry-emails.ts';

/**
 * POST /api/contacts. The enquiry, its channel log and both e-mails are written in one
 * transaction (a rolled-back enquiry mails nobody); the two e-mails are then sent before the
 * answer, and a mail failure never loses the enquiry (the maintenance job retries the outbox).
 */
export async function createContactEnquiry(deps: AppDeps, payload: ContactPayload): Promise<{ id: number }> {
  const now = deps.now();
  const staffAddress = deps.env.ADMIN_EMAIL ?? BUSINESS.email;
  const result = await deps.db.transaction(async (tx) => {
    const [enquiry] = await tx
      .insert(contactEnquiries)
      .values({
        firstName: payload.firstName,
        lastName: payload.lastName,
        email: payload.email,
        phone: payload.phone || null,
        inquiryType: payload.inquiryType,
        message: payload.message,
        createdAt: now,
      })
      .returning();
    if (!enquiry) throw new Error('The enquiry insert returned no row');

    await writeChannelLog(tx, {
      channel: 'notification',
      action: 'contact_enquiry_received',
      entityType: 'contact_enquiry',
      entityId: enquiry.id,
      details: `Enquiry #${enquiry.id} (${enquiry.inquiryType}) from ${enquiry.firstName} ${enquiry.lastName}`,
      metadata: { inquiryType: enquiry.inquiryType, hasPhone: Boolean(enquiry.phone) },
    });

    const emails = [staffEnquiryNotification(enquiry, staffAddress), enquiryAcknowledgement(enquiry)];
    for (const email of emails) await queueEmail(tx, email);
    return { id: enquiry.id, dedupeKeys: emails.flatMap((email) => email.dedupeKey ?? []) };
  });

  try {
    await deps.mailer.deliverQueued(deps.db, { dedupeKeys: result.dedupeKeys, now: deps.now() });
  } catch (error) {
    deps.log.error('Queued e-mail could not be delivered after an enquiry', {
      error: error instanceof Error ? error.message : String(error),
    });
  }
  return { id: result.id };
}
