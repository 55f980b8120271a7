import { BUSINESS } from '../../../content/business.ts';
import type { contactEnquiries } from '../../../../db/schema.ts';
import type { EmailMessage } from '../../providers/email-outbox.ts';
import { escapeHtml, layout, oneLine, paragraphs, text } from './layout.ts';

// The note to the business about a contact enquiry, with everything needed to reply within the
// spec's 24 hours (public-site.md §8).

export type EnquiryRow = typeof contactEnquiries.$inferSelect;

export function staffEnquiryNotification(enquiry: EnquiryRow, to: string): EmailMessage {
  const details: Array<[string, string]> = [
    ['Enquiry', `#${enquiry.id}`],
    ['Type', enquiry.inquiryType],
    ['Name', `${enquiry.firstName} ${enquiry.lastName}`],
    ['E-mail', enquiry.email],
    ['Phone', enquiry.phone || 'not given'],
  ];
  const plain = text([
    `New ${enquiry.inquiryType} enquiry from the website`,
    '',
    ...details.map(([label, value]) => `${label}: ${value}`),
    '',
    'Message:',
    enquiry.message,
    '',
    `Reply to ${enquiry.email} within ${BUSINESS.responseTime}.`,
  ]);
  const html = layout(`<p>New ${escapeHtml(enquiry.inquiryType)} enquiry from the website</p>
<table cellpadding="4">${details.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
<p><strong>Message</strong><br>${paragraphs(enquiry.message)}</p>
<p>Reply to <a href="mailto:${escapeHtml(enquiry.email)}">${escapeHtml(enquiry.email)}</a> within ${escapeHtml(BUSINESS.responseTime)}.</p>`);
  return {
    to,
    subject: oneLine(`New enquiry #${enquiry.id} (${enquiry.inquiryType}): ${enquiry.firstName} ${enquiry.lastName}`),
    text: plain,
    html,
    kind: 'enquiry-staff-notification',
    dedupeKey: `enquiry-staff-notification:${enquiry.id}`,
  };
}
