/**
 * What each e-mail the site writes is, as staff read it in the dashboard's Messages lists
 * (api.md "Staff messages"). The key is the outbox row's `kind`, written by the template in
 * src/server/email/templates; a kind missing here still shows, as its words (emailKindLabel).
 */
export const EMAIL_KIND_LABELS: Readonly<Record<string, string>> = {
  'booking-confirmation': 'Booking confirmation',
  'booking-staff-notification': 'New booking (staff)',
  'payment-receipt': 'Payment receipt',
  'installation-rescheduled': 'New installation date',
  'installation-weather-moved': 'Moved for the weather',
  'installation-reminder': 'Installation reminder',
  completion: 'Project complete',
  'review-invitation': 'Review invitation',
  'enquiry-acknowledgement': 'Enquiry acknowledgement',
  'enquiry-staff-notification': 'New enquiry (staff)',
  'worker-routes': 'Worker routes',
  'installation-cancelled': 'Installation cancelled',
  'crew-on-the-way': 'Crew on the way',
  'proof-ready': 'Stencil proof ready',
  'proof-reminder': 'Stencil proof reminder',
  'proof-approved-staff': 'Stencil proof approved (staff)',
  'proof-changes-staff': 'Stencil changes requested (staff)',
  'stencil-change-receipt': 'Stencil change receipt',
  'staff-invitation': 'Dashboard invitation',
  'staff-password-reset': 'Dashboard password reset',
};

/**
 * Every kind a booking causes: the outbox refuses to write one without its booking id, so each
 * shows in that booking's Messages (api.md `GET /api/admin/bookings/{id}/messages`). Enquiry
 * and worker e-mails are about no booking.
 */
export const BOOKING_EMAIL_KINDS = [
  'booking-confirmation',
  'booking-staff-notification',
  'payment-receipt',
  'installation-rescheduled',
  'installation-weather-moved',
  'installation-cancelled',
  'installation-reminder',
  'crew-on-the-way',
  'proof-ready',
  'proof-reminder',
  'proof-approved-staff',
  'proof-changes-staff',
  'stencil-change-receipt',
  'completion',
  'review-invitation',
] as const;
export type BookingEmailKind = (typeof BOOKING_EMAIL_KINDS)[number];

export function isBookingEmailKind(kind: string): kind is BookingEmailKind {
  return (BOOKING_EMAIL_KINDS as readonly string[]).includes(kind);
}

export const EMAIL_KINDS = Object.keys(EMAIL_KIND_LABELS);

/** A kind's label; an unlisted kind ('stencil-proof') reads as its words ('Stencil proof'). */
export function emailKindLabel(kind: string): string {
  const label = EMAIL_KIND_LABELS[kind];
  if (label) return label;
  const words = kind.replace(/[-_]+/g, ' ').trim();
  return words ? words[0]!.toUpperCase() + words.slice(1) : kind;
}

/**
 * The three states staff see. The outbox keeps finer ones: 'sending' (claimed by a delivery run)
 * is still queued to a reader, and 'logged' (written to the local outbox because no mail provider
 * is set) is as sent as it will get; `provider` tells the two apart.
 */
export const MESSAGE_STATUSES = ['queued', 'sent', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export function messageStatusOf(outboxStatus: string): MessageStatus {
  if (outboxStatus === 'failed') return 'failed';
  if (outboxStatus === 'sent' || outboxStatus === 'logged') return 'sent';
  return 'queued';
}

export const MESSAGE_STATUS_LABELS: Record<MessageStatus, string> = { queued: 'Queued', sent: 'Sent', failed: 'Failed' };
