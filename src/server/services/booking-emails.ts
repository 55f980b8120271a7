import { BUSINESS } from '../../content/business.ts';
import { formatLongDate } from '../../domain/format.ts';
import { formatPounds } from '../../domain/pricing.ts';
import { PROJECT_STEPS } from '../../domain/project-steps.ts';
import type { EmailMessage } from '../providers/email.ts';
import type { BookingRow } from './booking-view.ts';
import { UNPAID_HOLD_HOURS } from './availability.ts';

// The e-mails a new booking writes to the outbox (issue 4): the customer's confirmation — what
// was booked, the booking ID, how to track it, what happens next, who to ask — and a short note
// to staff. Plain text first (it is what every client shows); the HTML carries the same words.

export interface BookingEmailContext {
  booking: BookingRow;
  /** The addresses of the selected map locations, in order. */
  addresses: string[];
  /** Original names of the attached files. */
  fileNames: string[];
  siteUrl: string;
}

function workTypeLabel(workType: BookingRow['workType']): string {
  return workType === 'night' ? `Night (${BUSINESS.workingHours.night})` : `Day (${BUSINESS.workingHours.day})`;
}

function addressesOf({ booking, addresses }: BookingEmailContext): string[] {
  return addresses.length > 0 ? addresses : booking.locationAddress.split(';').map((part) => part.trim()).filter(Boolean);
}

export function trackProjectUrl(siteUrl: string): string {
  return `${siteUrl.replace(/\/+$/, '')}/track-project`;
}

export function bookingConfirmationEmail(context: BookingEmailContext): EmailMessage {
  const { booking, fileNames, siteUrl } = context;
  const addresses = addressesOf(context);
  const trackUrl = trackProjectUrl(siteUrl);
  const total = formatPounds(booking.totalPricePence);
  const date = formatLongDate(booking.preferredDate);
  const subject = `Your ${BUSINESS.name} booking #${booking.id}: ${booking.quantity} patches on ${date}`;

  const booked: Array<[string, string]> = [
    ['Booking ID', String(booking.id)],
    ['Patches', String(booking.quantity)],
    ['Work type', workTypeLabel(booking.workType)],
    ['Preferred date', date],
    ['Total', total],
  ];
  const steps = PROJECT_STEPS.map((step) => ({
    title: `${step.step}. ${step.name} (${step.timeframe})`,
    description: step.description,
  }));
  const support = [
    `Phone: ${BUSINESS.phone}`,
    `E-mail: ${BUSINESS.email}`,
    `Hours: ${BUSINESS.supportHours.text}`,
  ];

  const text = [
    `Hello ${booking.firstName},`,
    '',
    `Thank you for booking with ${BUSINESS.name}. We have received your booking.`,
    '',
    'WHAT YOU BOOKED',
    ...booked.map(([label, value]) => `${label}: ${value}`),
    `Location${addresses.length === 1 ? '' : 's'}:`,
    ...addresses.map((address) => `  - ${address}`),
    ...(fileNames.length ? ['Files:', ...fileNames.map((name) => `  - ${name}`)] : []),
    ...(booking.specialInstructions ? [`Instructions: ${booking.specialInstructions}`] : []),
    '',
    `If you have not paid yet, please complete payment within ${UNPAID_HOLD_HOURS} hours to keep your date.`,
    '',
    'TRACK YOUR PROJECT',
    `Visit ${trackUrl} and enter your e-mail address (${booking.email}) and your booking ID (${booking.id}).`,
    '',
    'WHAT HAPPENS NEXT',
    ...steps.flatMap((step) => [step.title, `   ${step.description}`]),
    '',
    'QUESTIONS?',
    ...support,
    `We reply within ${BUSINESS.responseTime}.`,
    '',
    `${BUSINESS.legalName}`,
  ].join('\n');

  const html = `<!doctype html><html lang="en-GB"><body style="font-family:Arial,sans-serif;color:#111;line-height:1.5">
<p>Hello ${escapeHtml(booking.firstName)},</p>
<p>Thank you for booking with ${escapeHtml(BUSINESS.name)}. We have received your booking.</p>
<h2 style="font-size:18px">What you booked</h2>
<table cellpadding="4">${booked.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}
<tr><th align="left" valign="top">Location${addresses.length === 1 ? '' : 's'}</th><td>${addresses.map(escapeHtml).join('<br>')}</td></tr>
${fileNames.length ? `<tr><th align="left" valign="top">Files</th><td>${fileNames.map(escapeHtml).join('<br>')}</td></tr>` : ''}
${booking.specialInstructions ? `<tr><th align="left" valign="top">Instructions</th><td>${escapeHtml(booking.specialInstructions)}</td></tr>` : ''}
</table>
<p>If you have not paid yet, please complete payment within ${UNPAID_HOLD_HOURS} hours to keep your date.</p>
<h2 style="font-size:18px">Track your project</h2>
<p>Visit <a href="${escapeHtml(trackUrl)}">${escapeHtml(trackUrl)}</a> and enter your e-mail address (${escapeHtml(booking.email)}) and your booking ID (<strong>${booking.id}</strong>).</p>
<h2 style="font-size:18px">What happens next</h2>
<ol>${PROJECT_STEPS.map((step) => `<li><strong>${escapeHtml(step.name)}</strong> (${escapeHtml(step.timeframe)}): ${escapeHtml(step.description)}</li>`).join('')}</ol>
<h2 style="font-size:18px">Questions?</h2>
<p>${support.map(escapeHtml).join('<br>')}<br>We reply within ${escapeHtml(BUSINESS.responseTime)}.</p>
<p>${escapeHtml(BUSINESS.legalName)}</p>
</body></html>`;

  return {
    to: booking.email,
    subject,
    text,
    html,
    kind: 'booking-confirmation',
    dedupeKey: `booking-confirmation:${booking.id}`,
  };
}

export function staffBookingNotification(context: BookingEmailContext, to: string): EmailMessage {
  const { booking, fileNames } = context;
  const addresses = addressesOf(context);
  const date = formatLongDate(booking.preferredDate);
  const text = [
    `New booking #${booking.id}${booking.isTest ? ' (looks like a test booking)' : ''}`,
    '',
    `Customer: ${booking.firstName} ${booking.lastName}${booking.businessName ? `, ${booking.businessName}` : ''}`,
    `E-mail: ${booking.email}`,
    `Phone: ${booking.phone}`,
    `Patches: ${booking.quantity}, ${workTypeLabel(booking.workType)}`,
    `Preferred date: ${date}`,
    `Total: ${formatPounds(booking.totalPricePence)} (payment: ${booking.paymentStatus})`,
    `Region: ${booking.region ?? 'unknown'}${booking.postcode ? ` (${booking.postcode})` : ''}`,
    'Locations:',
    ...addresses.map((address) => `  - ${address}`),
    `Files: ${fileNames.length ? fileNames.join(', ') : 'none'}`,
    ...(booking.specialInstructions ? [`Instructions: ${booking.specialInstructions}`] : []),
  ].join('\n');
  return {
    to,
    subject: oneLine(`New booking #${booking.id}: ${booking.firstName} ${booking.lastName}, ${booking.quantity} patches on ${date}`),
    text,
    kind: 'booking-staff-notification',
    dedupeKey: `booking-staff-notification:${booking.id}`,
  };
}

/** Customer text in a subject line stays on one line. */
function oneLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}
