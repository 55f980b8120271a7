import { BUSINESS } from '../../../content/business.ts';
import { formatPounds, STENCIL_CHANGE_PENCE } from '../../../domain/pricing.ts';
import type { BookingEmailMessage } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { oneLine, text, textAsHtml } from './layout.ts';

// The stencil proof sign-off e-mails (api.md "Stencil proof sign-off"): the customer's "your
// proof is ready" and the reminder, each with a magic link of its own, and staff's notes when a
// proof is approved or changes are asked for (after approval: once paid or waived).

export interface ProofEmailContext {
  booking: Pick<BookingRow, 'id' | 'firstName' | 'lastName' | 'email' | 'businessName'>;
  proof: { id: number; version: number; note: string | null };
}

const customerName = (booking: ProofEmailContext['booking']) =>
  oneLine(`${booking.firstName} ${booking.lastName}${booking.businessName ? `, ${booking.businessName}` : ''}`);

const changeNotice = `Please check it carefully: a stencil change after approval costs an extra ${formatPounds(STENCIL_CHANGE_PENCE)}, because the stencil has to be remanufactured.`;

export function proofReadyEmail({ booking, proof }: ProofEmailContext, trackingUrl: string): BookingEmailMessage {
  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    `Your stencil proof for booking #${booking.id} is ready (version ${proof.version}).`,
    ...(proof.note ? ['', 'Our note:', proof.note] : []),
    '',
    'See it, approve it or ask for changes here (this link is yours: please do not share it):',
    trackingUrl,
    '',
    changeNotice,
    '',
    `Questions? Call ${BUSINESS.phone} or e-mail ${BUSINESS.email} (${BUSINESS.supportHours.text}).`,
    '',
    BUSINESS.name,
  ]);
  return {
    to: booking.email,
    subject: `Your stencil proof is ready to approve (booking #${booking.id}, version ${proof.version})`,
    text: plain,
    html: textAsHtml(plain, [trackingUrl]),
    kind: 'proof-ready',
    bookingId: booking.id,
    dedupeKey: `proof-ready:${proof.id}`,
  };
}

export function proofReminderEmail({ booking, proof }: ProofEmailContext, trackingUrl: string): BookingEmailMessage {
  const plain = text([
    `Hello ${booking.firstName},`,
    '',
    `Your stencil proof for booking #${booking.id} (version ${proof.version}) is still waiting for your decision.`,
    'We make the stencil once you approve it, so your installation can be scheduled.',
    '',
    'Approve it or ask for changes here (this link is yours: please do not share it):',
    trackingUrl,
    '',
    `Questions? Call ${BUSINESS.phone} or e-mail ${BUSINESS.email} (${BUSINESS.supportHours.text}).`,
    '',
    BUSINESS.name,
  ]);
  return {
    to: booking.email,
    subject: `Reminder: your stencil proof is waiting for approval (booking #${booking.id})`,
    text: plain,
    html: textAsHtml(plain, [trackingUrl]),
    kind: 'proof-reminder',
    bookingId: booking.id,
    dedupeKey: `proof-reminder:${proof.id}`,
  };
}

export function proofApprovedStaffEmail({ booking, proof }: ProofEmailContext, to: string, approvedAt: Date): BookingEmailMessage {
  const plain = text([
    `Booking #${booking.id}: the customer approved stencil proof version ${proof.version}.`,
    '',
    `Customer: ${customerName(booking)}`,
    `Approved at: ${approvedAt.toISOString()}`,
    '',
    'The project moved to step 3 (Installation Scheduling) if it was at step 2.',
  ]);
  return {
    to,
    subject: oneLine(`Proof approved: booking #${booking.id}, version ${proof.version} (${booking.firstName} ${booking.lastName})`),
    text: plain,
    html: textAsHtml(plain),
    kind: 'proof-approved-staff',
    bookingId: booking.id,
    dedupeKey: `proof-approved-staff:${proof.id}`,
  };
}

/** How a change after approval was settled, when it came after one. */
export type ChangeSettlement = { kind: 'paid'; amountPence: number } | { kind: 'waived'; by: string; reason: string };

export function proofChangesStaffEmail(
  { booking, proof }: ProofEmailContext,
  to: string,
  change: { id: number | null; comment: string; settlement: ChangeSettlement | null },
): BookingEmailMessage {
  const settlement = change.settlement;
  const after = settlement
    ? [
        '',
        settlement.kind === 'paid'
          ? `This change comes after approval: the customer paid ${formatPounds(settlement.amountPence)} by card.`
          : `This change comes after approval: the ${formatPounds(STENCIL_CHANGE_PENCE)} charge was waived by ${settlement.by} (${settlement.reason}).`,
      ]
    : [];
  const plain = text([
    `Booking #${booking.id}: the customer asked for changes to stencil proof version ${proof.version}.`,
    '',
    `Customer: ${customerName(booking)}`,
    'Their comment:',
    change.comment,
    ...after,
    '',
    'Upload the next version from the project card in the dashboard.',
  ]);
  return {
    to,
    subject: oneLine(`Proof changes requested: booking #${booking.id}, version ${proof.version}${settlement ? ' (after approval)' : ''}`),
    text: plain,
    html: textAsHtml(plain),
    kind: 'proof-changes-staff',
    bookingId: booking.id,
    dedupeKey: change.id === null ? `proof-changes-staff:${proof.id}` : `stencil-change-staff:${change.id}`,
  };
}
