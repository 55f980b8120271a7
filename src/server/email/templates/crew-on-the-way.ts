import { BUSINESS } from '../../../content/business.ts';
import type { BookingEmailMessage } from '../../providers/email-outbox.ts';
import { INSTALLATION_QUESTIONS, escapeHtml, layout, text } from './layout.ts';

// "Your crew is on the way": sent once per booking and day when the crew taps On my way on /crew,
// with the customer's own tracking link, where the same news shows with the time.

export interface CrewOnTheWayContext {
  bookingId: number;
  firstName: string;
  email: string;
  /** The London day of the visit, 'YYYY-MM-DD': one e-mail per booking and day. */
  day: string;
  /** The time on London's clock, e.g. '10:42'. */
  time: string;
  trackingUrl: string;
}

export function crewOnTheWayKey(bookingId: number, day: string): string {
  return `crew-on-the-way:${bookingId}:${day}`;
}

export function crewOnTheWayEmail(context: CrewOnTheWayContext): BookingEmailMessage {
  const news = `Our crew set off for your installation at ${context.time} and will be with you shortly.`;
  const follow = 'Follow your project, and see the photos as they arrive, on your tracking page:';
  const plain = text([
    `Hello ${context.firstName},`,
    '',
    news,
    '',
    follow,
    context.trackingUrl,
    '',
    'Nothing is needed from you: we use water only.',
    INSTALLATION_QUESTIONS,
    '',
    BUSINESS.legalName,
  ]);
  const html = layout(`<p>Hello ${escapeHtml(context.firstName)},</p>
<p><strong>${escapeHtml(news)}</strong></p>
<p>${escapeHtml(follow)}<br><a href="${escapeHtml(context.trackingUrl)}">Track booking #${context.bookingId}</a></p>
<p>Nothing is needed from you: we use water only.<br>${escapeHtml(INSTALLATION_QUESTIONS)}</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);
  return {
    to: context.email,
    subject: `Your ${BUSINESS.name} crew is on the way (booking #${context.bookingId})`,
    text: plain,
    html,
    kind: 'crew-on-the-way',
    bookingId: context.bookingId,
    dedupeKey: crewOnTheWayKey(context.bookingId, context.day),
  };
}
