import type { BookingFormValues } from '../../domain/booking-schema.ts';
import { WORKING_HOURS } from '../../content/working-hours.ts';
import type { WorkType } from '../../domain/pricing.ts';

// The booking form's fields (public-site.md §2 "Booking"): their order, the error keys and the
// labels of the work types. Part of the form's client state (booking-store.ts).

export type FieldName = keyof BookingFormValues;

/** Order of the fields on the page, which is also the order of the error summary. */
export const FIELD_ORDER: readonly FieldName[] = [
  'firstName',
  'lastName',
  'businessName',
  'email',
  'phone',
  'preferredDate',
  'workType',
  'quantity',
  'locationAddress',
  'specialInstructions',
];

/** Extra error keys for things that are not form values but can block a submit. */
export const LOCATIONS_KEY = 'locationCoordinates';
export const FILES_KEY = 'uploadedFiles';
export type ErrorKey = FieldName | typeof LOCATIONS_KEY | typeof FILES_KEY;
export type FormErrors = Partial<Record<ErrorKey, string>>;

/** The error summary's order: the page's, with the files and the map where they stand on it. */
export const ERROR_ORDER: readonly ErrorKey[] = [
  ...FIELD_ORDER.slice(0, FIELD_ORDER.indexOf('quantity') + 1),
  FILES_KEY,
  LOCATIONS_KEY,
  ...FIELD_ORDER.slice(FIELD_ORDER.indexOf('quantity') + 1),
];

export const WORK_TYPE_LABELS: Record<WorkType, { name: string; hours: string }> = {
  day: { name: 'Day', hours: WORKING_HOURS.day },
  night: { name: 'Night', hours: WORKING_HOURS.night },
};

export const LOCATION_SEPARATOR = '; ';
