import { BUSINESS } from '../../content/business.ts';
import type { contactEnquiries } from '../../../db/schema.ts';
import type { EmailMessage } from '../providers/email.ts';
import { escapeHtml } from './html.ts';

// The two e-mails a contact enquiry writes to the outbox: a notification to the business with
// everything needed to reply, and an acknowledgement to the sender promising the spec's
// 24-hour reply (public-site.md §8). Plain text first; the HTML carries the same words.

export type EnquiryRow = typeof contactEnquiries.$inferSelect;

/** Customer text in a subject line stays on one line. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

function paragraphs(text: string): string {
  return escapeHtml(text).replace(/\r?\n/g, '<br>');
}

export function staffEnquiryNotification(enquiry: EnquiryRow, to: string): EmailMessage {
  const details: Array<[string, string]> = [
    ['Enquiry', `#${enquiry.id}`],
    ['Type', enquiry.inquiryType],
    ['Name', `${enquiry.firstName} ${enquiry.lastName}`],
    ['E-mail', enquiry.email],
    ['Phone', enquiry.phone || 'not given'],
  ];
  const text = [
    `New ${enquiry.inquiryType} enquiry from the website`,
    '',
    ...details.map(([label, value]) => `${label}: ${value}`),
    '',
    'Message:',
    enquiry.message,
    '',
    `Reply to ${enquiry.email} within ${BUSINESS.responseTime}.`,
  ].join('\n');
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#111;line-height:1.5">
<p>New ${escapeHtml(enquiry.inquiryType)} enquiry from the website</p>
<table cellpadding="4">${details.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>
<p><strong>Message</strong><br>${paragraphs(enquiry.message)}</p>
<p>Reply to <a href="mailto:${escapeHtml(enquiry.email)}">${escapeHtml(enquiry.email)}</a> within ${escapeHtml(BUSINESS.responseTime)}.</p>
</body></html>`;
  return {
    to,
    subject: oneLine(`New enquiry #${enquiry.id} (${enquiry.inquiryType}): ${enquiry.firstName} ${enquiry.lastName}`),
    text,
    html,
    kind: 'enquiry-staff-notification',
    dedupeKey: `enquiry-staff-notification:${enquiry.id}`,
  };
}

export function enquiryAcknowledgement(enquiry: EnquiryRow): EmailMessage {
  const support = [`Phone: ${BUSINESS.phone}`, `E-mail: ${BUSINESS.email}`, `Hours: ${BUSINESS.supportHours.text}`];
  const text = [
    `Hello ${enquiry.firstName},`,
    '',
    `Thank you for contacting ${BUSINESS.name}. We have received your message and will get back to you within ${BUSINESS.responseTime}.`,
    '',
    'YOUR MESSAGE',
    `Type: ${enquiry.inquiryType}`,
    enquiry.message,
    '',
    'NEED US SOONER?',
    ...support,
    '',
    BUSINESS.legalName,
  ].join('\n');
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#111;line-height:1.5">
<p>Hello ${escapeHtml(enquiry.firstName)},</p>
<p>Thank you for contacting ${escapeHtml(BUSINESS.name)}. We have received your message and will get back to you within ${escapeHtml(BUSINESS.responseTime)}.</p>
<h2 style="font-size:18px">Your message</h2>
<p><strong>${escapeHtml(enquiry.inquiryType)}</strong><br>${paragraphs(enquiry.message)}</p>
<h2 style="font-size:18px">Need us sooner?</h2>
<p>${support.map(escapeHtml).join('<br>')}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>
</body></html>`;
  return {
    to: enquiry.email,
    subject: `We have received your message | ${BUSINESS.name}`,
    text,
    html,
    kind: 'enquiry-acknowledgement',
    dedupeKey: `enquiry-acknowledgement:${enquiry.id}`,
  };
}
