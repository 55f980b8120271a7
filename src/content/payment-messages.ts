import { BUSINESS } from './business.ts';

/**
 * What the payment API answers (api.md error shape), in one place for the server that says it
 * and the checkout page that must tell the answers apart (a 409 can mean "nothing left to pay"
 * or "call us": the page reads which from the message).
 */
export const PAYMENT_MESSAGES = {
  notConfigured: 'Payments are not configured',
  webhookNotConfigured: 'Payments are not configured (STRIPE_WEBHOOK_SECRET is not set)',
  bookingNotFound: 'Booking not found',
  checkoutTokenMissing: 'Checkout link is missing or invalid',
  // The customer who pays first gets the day (availability.ts): the other is told here, at checkout.
  dateNoLongerAvailable: 'This date has just been taken by a customer who paid first. Please choose another date.',
  alreadyPaid: 'This booking has already been paid',
  alreadyProcessing: 'A payment for this booking is already being processed',
  cancelled: 'This booking has been cancelled, so it cannot be paid online',
  unreachable: 'We could not reach our payment provider. Please try again in a moment.',
  intentConflict:
    `We could not set up the payment for this booking. Please contact us on ${BUSINESS.phone} or ` +
    `${BUSINESS.email} and quote your booking ID.`,
  paymentNotFound: 'Payment not found',
  underReview: `We have received your payment and are checking it. We will contact you within ${BUSINESS.responseTime}.`,
  invalidSignature: 'Invalid signature',
  invalidPayload: 'Invalid event payload',
} as const;
