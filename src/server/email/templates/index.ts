// Every e-mail the site sends, one module each: subject, plain text and HTML from one place
// (layout.ts holds the frame and escaping they share). Services build a message here and queue it
// with queueEmail() in the transaction that caused it.

export { bookingConfirmationEmail } from './booking-confirmation.ts';
export type { BookingEmailContext } from './booking-parts.ts';
export { staffBookingNotification } from './staff-booking-notification.ts';
export { paymentReceiptEmail, paymentReceiptKey } from './payment-receipt.ts';
export { stencilChangeReceiptEmail, stencilChangeReceiptKey, type StencilChangeReceipt } from './stencil-change-receipt.ts';
export { staffEnquiryNotification, type EnquiryRow } from './enquiry-notification.ts';
export { enquiryAcknowledgement } from './enquiry-acknowledgement.ts';
export { completionEmail, type CompletionEmailContext } from './completion.ts';
export { reviewInvitationEmail, type ReviewInvitationEmailContext } from './review-invitation.ts';
export { workerRoutesEmail, type WorkerEmailContext, type WorkerEmailRoute } from './worker-routes.ts';
export { installationReminderEmail } from './installation-reminder.ts';
export {
  installationCancelledEmail,
  installationInviteAttachment,
  installationRescheduledEmail,
  type InviteCancelReason,
} from './installation-invite.ts';
export { installationWeatherMovedEmail } from './installation-weather-moved.ts';
export { crewOnTheWayEmail, crewOnTheWayKey, type CrewOnTheWayContext } from './crew-on-the-way.ts';
export { escapeHtml } from './layout.ts';
export {
  proofApprovedStaffEmail,
  proofChangesStaffEmail,
  proofReadyEmail,
  proofReminderEmail,
  type ChangeSettlement,
  type ProofEmailContext,
} from './stencil-proofs.ts';
export { staffInvitationEmail, staffPasswordResetEmail, type StaffLinkContext } from './staff-account.ts';
