import { BUSINESS } from '../../../content/business.ts';
import type { EmailMessage } from '../../providers/email.ts';
import type { EnquiryRow } from './enquiry-notification.ts';
import { escapeHtml, heading, layout, paragraphs, supportLines, text } from './layout.ts';

// The sender's acknowledgement of a contact enquiry, promising the spec's 24-hour reply.

export function enquiryAcknowledgement(enquiry: EnquiryRow): EmailMessage {
  const support = supportLines();
  const promise = `Thank you for contacting ${BUSINESS.name}. We have received your message and will get back to you within ${BUSINESS.responseTime}.`;
  const plain = text([
    `Hello ${enquiry.firstName},`,
    '',
    promise,
    '',
    'YOUR MESSAGE',
    `Type: ${enquiry.inquiryType}`,
    enquiry.message,
    '',
    'NEED US SOONER?',
    ...support,
    '',
    BUSINESS.legalName,
  ]);
  const html = layout(`<p>Hello ${escapeHtml(enquiry.firstName)},</p>
<p>${escapeHtml(promise)}</p>
${heading('Your message')}
<p><strong>${escapeHtml(enquiry.inquiryType)}</strong><br>${paragraphs(enquiry.message)}</p>
${heading('Need us sooner?')}
<p>${support.map(escapeHtml).join('<br>')}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: enquiry.email,
    subject: `We have received your message | ${BUSINESS.name}`,
    text: plain,
    html,
    kind: 'enquiry-acknowledgement',
    dedupeKey: `enquiry-acknowledgement:${enquiry.id}`,
  };
}
