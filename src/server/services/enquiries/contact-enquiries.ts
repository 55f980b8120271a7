import { contactEnquiries } from '../../../../db/schema.ts';
import { BUSINESS } from '../../../content/business.ts';
import type { ContactPayload } from '../../../domain/contact-schema.ts';
import type { AppDeps } from '../../app/deps.ts';
import { queueEmail } from '../../providers/email-outbox.ts';
import { deliverAfterAnswer } from '../../providers/mailer.ts';
import { writeChannelLog } from '../messages/channel-log.ts';
import { enquiryAcknowledgement, staffEnquiryNotification } from '../../email/templates/index.ts';

/**
 * POST /api/contacts. The enquiry, its channel log and both e-mails are written in one
 * transaction (a rolled-back enquiry mails nobody). The e-mails go after the answer
 * (`deliverMail`, run by the route through afterResponse), as a booking's do: the person is not
 * kept waiting on the mail provider, and a mail failure never loses the enquiry (the maintenance
 * job retries the outbox).
 */
export async function createContactEnquiry(
  deps: AppDeps,
  payload: ContactPayload,
): Promise<{ id: number; deliverMail: () => Promise<void> }> {
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

  return { id: result.id, deliverMail: () => deliverAfterAnswer(deps, (mailer, db) => mailer.deliverQueued(db, { dedupeKeys: result.dedupeKeys, now: deps.now() })) };
}
