import { formatPounds, STENCIL_CHANGE_PENCE } from '../../../domain/pricing.ts';
import type { BookingEmailMessage } from '../../providers/email-outbox.ts';
import type { BookingRow } from '../../services/bookings/booking-view.ts';
import { CUSTOMER_SIGN_OFF, escapeHtml, layout, oneLine, text, textAsHtml, textBlocksAsHtml } from './layout.ts';

// The stencil proof sign-off e-mails (api.md "Stencil proof sign-off"): the customer's "your
// proof is ready" and the reminder, each with a magic link of its own, and staff's notes when a
// proof is approved or changes are asked for (after approval: once paid or waived).

export interface ProofEmailContext {
  booking: Pick<BookingRow, 'id' | 'firstName' | 'lastName' | 'email' | 'businessName'>;
  proof: { id: number; version: number; note: string | null };
}

const customerName = (booking: ProofEmailContext['booking']) =>
  oneLine(`${booking.firstName} ${booking.lastName}${booking.businessName ? `, ${booking.businessName}` : ''}`);

/** A PDF proof's first page (services/proofs/proof-preview.ts), shown in the message itself. */
export interface ProofPreviewImage {
  bytes: Uint8Array;
  mimeType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

/** The Content-ID the HTML part names the attached preview by (cid: URLs need no outside fetch). */
export const PROOF_PREVIEW_CONTENT_ID = 'stencil-proof-preview';
/** The preview's width in the message: e-mail clients lay out for about 600 px. */
const PREVIEW_EMAIL_WIDTH = 560;

const changeNotice = `Please check it carefully: a stencil change after approval costs an extra ${formatPounds(STENCIL_CHANGE_PENCE)}, because the stencil has to be remanufactured.`;

/**
 * "Your proof is ready", with a magic link. A PDF proof's first page comes inside the message as
 * an inline image (attached, named by Content-ID), so the customer sees the design before opening
 * anything; the full PDF is one tap away on the tracking page.
 */
export function proofReadyEmail(
  { booking, proof }: ProofEmailContext,
  trackingUrl: string,
  preview: ProofPreviewImage | null = null,
): BookingEmailMessage {
  const intro = text([
    `Hello ${booking.firstName},`,
    '',
    `Your stencil proof for booking #${booking.id} is ready (version ${proof.version}).`,
    ...(proof.note ? ['', 'Our note:', proof.note] : []),
  ]);
  const rest = text([
    'See it, approve it or ask for changes here (this link is yours: please do not share it):',
    trackingUrl,
    '',
    changeNotice,
    '',
    ...CUSTOMER_SIGN_OFF,
  ]);
  const plain = `${intro}\n\n${rest}`;
  let html = textAsHtml(plain, [trackingUrl]);
  if (preview) {
    const height = Math.round((PREVIEW_EMAIL_WIDTH * preview.height) / preview.width);
    const alt = escapeHtml(`Your stencil proof, version ${proof.version} (first page)`);
    const image =
      `<p><a href="${escapeHtml(trackingUrl)}"><img src="cid:${PROOF_PREVIEW_CONTENT_ID}" alt="${alt}" width="${PREVIEW_EMAIL_WIDTH}" height="${height}" ` +
      `style="display:block;width:100%;max-width:${PREVIEW_EMAIL_WIDTH}px;height:auto;border:1px solid #ccc"></a></p>` +
      `<p style="font-size:14px;color:#444">The first page of your proof. The full PDF is on your tracking page.</p>`;
    html = layout(`${textBlocksAsHtml(intro)}\n${image}\n${textBlocksAsHtml(rest, [trackingUrl])}`);
  }
  return {
    to: booking.email,
    subject: `Your stencil proof is ready to approve (booking #${booking.id}, version ${proof.version})`,
    text: plain,
    html,
    ...(preview
      ? {
          attachments: [
            {
              filename: `stencil-proof-v${proof.version}.${preview.mimeType === 'image/jpeg' ? 'jpg' : 'png'}`,
              type: preview.mimeType,
              content: Buffer.from(preview.bytes).toString('base64'),
              contentId: PROOF_PREVIEW_CONTENT_ID,
            },
          ],
        }
      : {}),
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
    ...CUSTOMER_SIGN_OFF,
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
