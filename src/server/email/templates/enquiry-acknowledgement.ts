import { BUSINESS } from '../../../content/business.ts';
import type { EmailMessage } from '../../providers/email-outbox.ts';
import type { EnquiryRow } from './enquiry-notification.ts';
import { escapeHtml, heading, layout, supportLines, text } from './layout.ts';

// The sender's acknowledgement of a contact enquiry, promising the spec's 24-hour reply. It goes
// to whatever address was typed, so it carries nothing the sender wrote (not the message, not
// the name): the form cannot be used to mail chosen text to a stranger.

export function enquiryAcknowledgement(enquiry: EnquiryRow): EmailMessage {
  const support = supportLines();
  const promise = `Thank you for contacting ${BUSINESS.name}. We have received your message and will get back to you within ${BUSINESS.responseTime}.`;
  const plain = text([
    'Hello,',
    '',
    promise,
    '',
    'NEED US SOONER?',
    ...support,
    '',
    BUSINESS.legalName,
  ]);
  const html = layout(`<p>Hello,</p>
<p>${escapeHtml(promise)}</p>
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
