import { MIN_PATCHES } from './pricing.ts';
import type { BookingFormValues } from './booking-schema.ts';

// The booking contract's words, limits and defaults without its zod schemas (booking-schema.ts
// re-exports all of this), so the booking form's first bundle can carry them and load zod only
// when it validates.

export const BOOKING_MESSAGES = {
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  businessNameRequired: 'Business name is required',
  emailInvalid: 'Valid email is required',
  phoneRequired: 'Phone number is required',
  preferredDateRequired: 'Preferred date is required',
  preferredDateBeforeJuly: 'Bookings are only available from July onwards',
  quantityInvalid: 'Invalid quantity value',
  quantityBelowMinimum: 'Minimum 5 patches required',
  locationAddressRequired: 'Location address is required',
  workTypeRequired: 'Please select work type',
} as const;

// Limits the spec leaves open, chosen to keep rows and requests bounded.
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const PHONE_MAX_LENGTH = 30;
export const ADDRESS_MAX_LENGTH = 2000;
export const INSTRUCTIONS_MAX_LENGTH = 2000;
export const FILE_NAME_MAX_LENGTH = 255;
export const MAX_PATCHES = 1000;
export const MAX_LOCATIONS = 50;
export const MAX_UPLOADED_FILES = 20;
/** Booking ids are PostgreSQL integers: a larger number (e.g. a browser timestamp) is no booking's id. */
export const MAX_BOOKING_ID = 2_147_483_647;

// Section 5, "Uploads": png, jpeg, jpg, svg and pdf up to 10MB.
export const MAX_UPLOAD_BYTES = 10_485_760;
export const ALLOWED_UPLOAD_EXTENSIONS = ['png', 'jpeg', 'jpg', 'svg', 'pdf'] as const;
export const ALLOWED_UPLOAD_MIME_TYPES = [
  'image/png',
  'image/jpeg',
  'image/svg+xml',
  'application/pdf',
] as const;

export function julyFirstOf(year: number): string {
  return `${String(year).padStart(4, '0')}-07-01`;
}

/** The date input's minimum: 1 July of the current year (section 5). */
export function minBookingDate(today: Date): string {
  return julyFirstOf(today.getFullYear());
}

export const BOOKING_FORM_DEFAULTS: BookingFormValues = {
  firstName: '',
  lastName: '',
  businessName: '',
  email: '',
  phone: '',
  preferredDate: '',
  quantity: String(MIN_PATCHES),
  locationAddress: '',
  specialInstructions: '',
  workType: 'day',
};

/**
 * A booking's places as the form stores them: the selected locations joined with '; ' in
 * locationAddress (admin-dashboard.md §2: "Addresses are split on semicolons").
 */
export function splitAddresses(locationAddress: string): string[] {
  return locationAddress
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * Unpaid bookings (api.md "Abuse and availability"): the customer who pays first gets the day, so
 * an unpaid booking reserves nothing (services/bookings/availability.ts); one client may have at
 * most MAX_UNPAID_HOLDS_PER_CLIENT unpaid bookings made within UNPAID_HOLD_MINUTES, and the hourly
 * job withdraws an unpaid booking's calendar invitation after as long. The booking form, the
 * confirmation e-mail and the terms say this to customers from here.
 */
export const UNPAID_HOLD_MINUTES = 60;
export const MAX_UNPAID_HOLDS_PER_CLIENT = 2;

/** What the booking form and the terms tell customers about unpaid bookings. */
export const HOLD_NOTICE = 'Your date is reserved once you pay. If someone pays for it first, checkout tells you and keeps your booking.';
export const HOLD_TERMS =
  'Your date is reserved once your booking is paid: an unpaid booking does not reserve it. If another customer pays for the same date first, ' +
  'checkout tells you, nothing is charged, and we keep your booking so that we can move it to another date with you. ' +
  `You can have at most ${MAX_UNPAID_HOLDS_PER_CLIENT} unpaid bookings at a time.`;
