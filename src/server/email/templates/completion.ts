import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import type { BookingEmailMessage } from '../../providers/email-outbox.ts';
import { escapeHtml, layout, text } from './layout.ts';

// The e-mail that closes a project: the after photos and the public project page.

export interface CompletionEmailContext {
  bookingId: number;
  firstName: string;
  email: string;
  quantity: number;
  completionDate: string | null;
  photoUrls: string[];
  galleryUrl: string;
  /** The customer's tracking page (a magic link), where the campaign report PDF is. */
  reportUrl?: string;
}

export function completionEmail(context: CompletionEmailContext, sendKey: string): BookingEmailMessage {
  const completed = context.completionDate ? ` on ${formatLongDate(context.completionDate.slice(0, 10))}` : '';
  const fade = 'Patches fade naturally over 2-6 weeks. When you are ready for the next campaign, just reply to this e-mail.';
  const plain = text([
    `Hello ${context.firstName},`,
    '',
    `Your ${context.quantity} patches were completed${completed}. Thank you for choosing ${BUSINESS.name}.`,
    '',
    'YOUR PROJECT PAGE',
    `Photos of your patches, ready to share: ${context.galleryUrl}`,
    ...(context.photoUrls.length ? ['', 'AFTER PHOTOS', ...context.photoUrls.map((url) => `  - ${url}`)] : []),
    ...(context.reportUrl ? ['', 'CAMPAIGN REPORT', `Every location with its photos, times and places, as a PDF for your client or manager: ${context.reportUrl}`] : []),
    '',
    fade,
    '',
    `${BUSINESS.phone} · ${BUSINESS.email}`,
    BUSINESS.legalName,
  ]);
  const html = layout(`<p>Hello ${escapeHtml(context.firstName)},</p>
<p>Your ${context.quantity} patches were completed${escapeHtml(completed)}. Thank you for choosing ${escapeHtml(BUSINESS.name)}.</p>
<p><a href="${escapeHtml(context.galleryUrl)}">See your project page</a>: photos of your patches, ready to share.</p>
${context.reportUrl ? `<p><a href="${escapeHtml(context.reportUrl)}">Download your campaign report</a> (PDF): every location with its photos, times and places, for your client or manager.</p>\n` : ''}${context.photoUrls.map((url) => `<p><img src="${escapeHtml(url)}" alt="After photo" width="480" style="max-width:100%;height:auto;border-radius:8px"></p>`).join('\n')}
<p>${escapeHtml(fade)}</p>
<p>${escapeHtml(BUSINESS.phone)} · ${escapeHtml(BUSINESS.email)}<br>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: context.email,
    subject: `Your ${BUSINESS.name} project #${context.bookingId} is complete`,
    text: plain,
    html,
    kind: 'completion',
    bookingId: context.bookingId,
    dedupeKey: `completion:${context.bookingId}:${sendKey}`,
  };
}
