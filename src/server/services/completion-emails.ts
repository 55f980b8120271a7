import { BUSINESS } from '../../content/business.ts';
import { formatLongDate } from '../../domain/format.ts';
import type { EmailMessage } from '../providers/email.ts';
import { escapeHtml } from './html.ts';

// The e-mails that close a project: the completion e-mail with the after photos and the public
// project page, and the invitation to review. Text first (every client shows it); the HTML carries
// the same words, with every customer value escaped.

export interface CompletionEmailContext {
  bookingId: number;
  firstName: string;
  email: string;
  quantity: number;
  completionDate: string | null;
  photoUrls: string[];
  galleryUrl: string;
}

export function completionEmail(context: CompletionEmailContext, sendKey: string): EmailMessage {
  const completed = context.completionDate ? ` on ${formatLongDate(context.completionDate.slice(0, 10))}` : '';
  const subject = `Your ${BUSINESS.name} project #${context.bookingId} is complete`;
  const text = [
    `Hello ${context.firstName},`,
    '',
    `Your ${context.quantity} patches were completed${completed}. Thank you for choosing ${BUSINESS.name}.`,
    '',
    'YOUR PROJECT PAGE',
    `Photos of your patches, ready to share: ${context.galleryUrl}`,
    ...(context.photoUrls.length ? ['', 'AFTER PHOTOS', ...context.photoUrls.map((url) => `  - ${url}`)] : []),
    '',
    'Patches fade naturally over 2-6 weeks. When you are ready for the next campaign, just reply to this e-mail.',
    '',
    `${BUSINESS.phone} · ${BUSINESS.email}`,
    BUSINESS.legalName,
  ].join('\n');
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#111;line-height:1.5">
<p>Hello ${escapeHtml(context.firstName)},</p>
<p>Your ${context.quantity} patches were completed${escapeHtml(completed)}. Thank you for choosing ${escapeHtml(BUSINESS.name)}.</p>
<p><a href="${escapeHtml(context.galleryUrl)}">See your project page</a>: photos of your patches, ready to share.</p>
${context.photoUrls.map((url) => `<p><img src="${escapeHtml(url)}" alt="After photo" width="480" style="max-width:100%;height:auto;border-radius:8px"></p>`).join('\n')}
<p>Patches fade naturally over 2-6 weeks. When you are ready for the next campaign, just reply to this e-mail.</p>
<p>${escapeHtml(BUSINESS.phone)} · ${escapeHtml(BUSINESS.email)}<br>${escapeHtml(BUSINESS.legalName)}</p>
</body></html>`;
  return { to: context.email, subject, text, html, kind: 'completion', dedupeKey: `completion:${context.bookingId}:${sendKey}` };
}

export interface ReviewInvitationEmailContext {
  bookingId: number;
  firstName: string;
  email: string;
  reviewUrl: string;
  expiresAt: Date;
}

export function reviewInvitationEmail(context: ReviewInvitationEmailContext, sendKey: string): EmailMessage {
  const until = formatLongDate(context.expiresAt.toISOString().slice(0, 10));
  const text = [
    `Hello ${context.firstName},`,
    '',
    `How did we do on project #${context.bookingId}? Your review helps other businesses decide, and helps us improve.`,
    '',
    `Leave your review (two minutes, one use, until ${until}): ${context.reviewUrl}`,
    '',
    'We publish every genuine review from our customers, whatever its score.',
    '',
    BUSINESS.legalName,
  ].join('\n');
  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#111;line-height:1.5">
<p>Hello ${escapeHtml(context.firstName)},</p>
<p>How did we do on project #${context.bookingId}? Your review helps other businesses decide, and helps us improve.</p>
<p><a href="${escapeHtml(context.reviewUrl)}">Leave your review</a> (two minutes, one use, until ${escapeHtml(until)}).</p>
<p>We publish every genuine review from our customers, whatever its score.</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>
</body></html>`;
  return {
    to: context.email,
    subject: `How did we do? Review your ${BUSINESS.name} project #${context.bookingId}`,
    text,
    html,
    kind: 'review-invitation',
    dedupeKey: `review-invitation:${context.bookingId}:${sendKey}`,
  };
}
