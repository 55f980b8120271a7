import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import type { BookingEmailMessage } from '../../providers/email-outbox.ts';
import { escapeHtml, layout, text } from './layout.ts';

// The invitation to review a completed project: a single-use link that ends on a given day.

export interface ReviewInvitationEmailContext {
  bookingId: number;
  firstName: string;
  email: string;
  reviewUrl: string;
  expiresAt: Date;
}

export function reviewInvitationEmail(context: ReviewInvitationEmailContext, sendKey: string): BookingEmailMessage {
  const until = formatLongDate(context.expiresAt.toISOString().slice(0, 10));
  const ask = `How did we do on project #${context.bookingId}? Your review helps other businesses decide, and helps us improve.`;
  const policy = 'We publish every genuine review from our customers, whatever its score.';
  const plain = text([
    `Hello ${context.firstName},`,
    '',
    ask,
    '',
    `Leave your review (two minutes, one use, until ${until}): ${context.reviewUrl}`,
    '',
    policy,
    '',
    BUSINESS.legalName,
  ]);
  const html = layout(`<p>Hello ${escapeHtml(context.firstName)},</p>
<p>${escapeHtml(ask)}</p>
<p><a href="${escapeHtml(context.reviewUrl)}">Leave your review</a> (two minutes, one use, until ${escapeHtml(until)}).</p>
<p>${escapeHtml(policy)}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: context.email,
    subject: `How did we do? Review your ${BUSINESS.name} project #${context.bookingId}`,
    text: plain,
    html,
    kind: 'review-invitation',
    bookingId: context.bookingId,
    dedupeKey: `review-invitation:${context.bookingId}:${sendKey}`,
  };
}
