import { BUSINESS } from '../../../content/business.ts';
import { formatLongDate } from '../../../domain/format.ts';
import { formatPounds } from '../../../domain/pricing.ts';
import { PROJECT_STEPS } from '../../../domain/project-steps.ts';
import type { EmailAttachment, BookingEmailMessage } from '../../providers/email-outbox.ts';
import { addressesOf, trackingLines, workTypeLabel, type BookingEmailContext } from './booking-parts.ts';
import { escapeHtml, heading, layout, plural, supportLines, text, trackProjectUrl } from './layout.ts';

// The customer's confirmation of a new booking: what was booked, the booking ID, how to track it,
// what happens next, who to ask; with the calendar invite for the preferred date when there is one.

export function bookingConfirmationEmail(context: BookingEmailContext, invite?: EmailAttachment | null): BookingEmailMessage {
  const { booking, fileNames, siteUrl } = context;
  const addresses = addressesOf(context);
  const trackUrl = trackProjectUrl(siteUrl);
  const date = formatLongDate(booking.preferredDate);
  const booked: Array<[string, string]> = [
    ['Booking ID', String(booking.id)],
    ['Patches', String(booking.quantity)],
    ['Work type', workTypeLabel(booking.workType)],
    ['Preferred date', date],
    ['Total', formatPounds(booking.totalPricePence)],
  ];
  const locationLabel = `Location${plural(addresses.length)}`;
  // The customer who pays first gets the day (availability.ts): an unpaid booking reserves nothing.
  const payWithin = 'If you have not paid yet, please complete payment soon: your date is reserved once paid.';
  const support = supportLines();

  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    `Thank you for booking with ${BUSINESS.name}. We have received your booking.`,
    '',
    'WHAT YOU BOOKED',
    ...booked.map(([label, value]) => `${label}: ${value}`),
    `${locationLabel}:`,
    ...addresses.map((address) => `  - ${address}`),
    ...(fileNames.length ? ['Files:', ...fileNames.map((name) => `  - ${name}`)] : []),
    ...(booking.specialInstructions ? [`Instructions: ${booking.specialInstructions}`] : []),
    '',
    payWithin,
    ...(context.checkoutUrl ? [`Pay online: ${context.checkoutUrl}`] : []),
    '',
    'TRACK YOUR PROJECT',
    ...trackingLines(booking, trackUrl, context.trackingUrl),
    '',
    'WHAT HAPPENS NEXT',
    ...PROJECT_STEPS.flatMap((step) => [`${step.step}. ${step.name} (${step.timeframe})`, `   ${step.description}`]),
    '',
    'QUESTIONS?',
    ...support,
    `We reply within ${BUSINESS.responseTime}.`,
    '',
    BUSINESS.legalName,
  ]);

  const row = (label: string, value: string, top = false) =>
    `<tr><th align="left"${top ? ' valign="top"' : ''}>${escapeHtml(label)}</th><td>${value}</td></tr>`;
  const html = layout(`<p>Hello ${escapeHtml(booking.firstName)},</p>
<p>Thank you for booking with ${escapeHtml(BUSINESS.name)}. We have received your booking.</p>
${heading('What you booked')}
<table cellpadding="4">${booked.map(([label, value]) => row(label, escapeHtml(value))).join('')}
${row(locationLabel, addresses.map(escapeHtml).join('<br>'), true)}
${fileNames.length ? row('Files', fileNames.map(escapeHtml).join('<br>'), true) : ''}
${booking.specialInstructions ? row('Instructions', escapeHtml(booking.specialInstructions), true) : ''}
</table>
<p>${escapeHtml(payWithin)}${context.checkoutUrl ? ` <a href="${escapeHtml(context.checkoutUrl)}">Complete payment</a>` : ''}</p>
${heading('Track your project')}
${context.trackingUrl ? `<p><a href="${escapeHtml(context.trackingUrl)}">Follow your project and see its photos</a> (this link is yours: please do not share it).</p>\n<p>Or visit` : '<p>Visit'} <a href="${escapeHtml(trackUrl)}">${escapeHtml(trackUrl)}</a> and enter your e-mail address (${escapeHtml(booking.email)}) and your booking ID (<strong>${booking.id}</strong>).</p>
${heading('What happens next')}
<ol>${PROJECT_STEPS.map((step) => `<li><strong>${escapeHtml(step.name)}</strong> (${escapeHtml(step.timeframe)}): ${escapeHtml(step.description)}</li>`).join('')}</ol>
${heading('Questions?')}
<p>${support.map(escapeHtml).join('<br>')}<br>We reply within ${escapeHtml(BUSINESS.responseTime)}.</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>`);

  return {
    to: booking.email,
    subject: `Your ${BUSINESS.name} booking #${booking.id}: ${booking.quantity} patches on ${date}`,
    text: plain,
    html,
    kind: 'booking-confirmation',
    bookingId: booking.id,
    dedupeKey: `booking-confirmation:${booking.id}`,
    ...(invite ? { attachments: [invite] } : {}),
  };
}
