import type { BookingRow } from '../services/bookings/booking-view.ts';
import type { EnquiryRow } from './templates/enquiry-notification.ts';

// Fixed sample data for the template snapshot tests: every message rendered from the same
// believable customer, so a change in any e-mail's words shows up as a snapshot diff.

export const SAMPLE_SITE_URL = 'https://cleanpatch.example';
export const SAMPLE_NOW = new Date('2026-07-01T08:30:00Z');

export const SAMPLE_BOOKING: BookingRow = {
  id: 42,
  firstName: 'Priya',
  lastName: 'Patel',
  businessName: 'Patel Bakery',
  email: 'priya@patelbakery.co.uk',
  phone: '07700 900123',
  quantity: 8,
  locationAddress: '12 Oldham Street, Manchester M1 1JQ; 3 Thomas Street, Manchester M4 1EU',
  postcode: 'M1',
  region: 'Greater Manchester',
  specialInstructions: 'Please avoid the shop entrance before 10am.',
  workType: 'day',
  rush: false,
  preferredDate: '2026-07-16',
  totalPricePence: 76_000,
  status: 'confirmed',
  currentStep: 3,
  statusNotes: null,
  consultationDate: null,
  stencilApprovedDate: null,
  installationDate: null,
  completionDate: null,
  archived: false,
  isTest: false,
  paymentStatus: 'paid',
  holdClient: null,
  stripePaymentIntentId: null,
  checkoutTokenHash: null,
  amountPaidPence: 76_000,
  paidAt: SAMPLE_NOW,
  paymentFailureMessage: null,
  paymentEventAt: null,
  completionEmailSentAt: null,
  reviewRequestSentAt: null,
  reminderSentFor: null,
  inviteSequence: 0,
  inviteStatus: 'tentative',
  billingAddress: null,
  poReference: null,
  customerVatNumber: null,
  createdAt: SAMPLE_NOW,
  updatedAt: SAMPLE_NOW,
};

export const SAMPLE_ENQUIRY: EnquiryRow = {
  id: 7,
  firstName: 'Tom',
  lastName: 'Hughes',
  email: 'tom@northernroasters.co.uk',
  phone: null,
  inquiryType: 'Custom Quote',
  message: 'We would like 30 patches around Leeds station.\nCan you do nights?',
  createdAt: SAMPLE_NOW,
};
