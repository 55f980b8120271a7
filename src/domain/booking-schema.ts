import * as z from './zod.ts';
import { isIsoDate } from './format.ts';
import { MIN_PATCHES, WORK_TYPES } from './pricing.ts';
import { cleanOneLine } from './text.ts';
import { multiLine, oneLine, requiredOneLine as requiredText, tooLong } from './text-fields.ts';
import {
  ADDRESS_MAX_LENGTH,
  ALLOWED_UPLOAD_MIME_TYPES,
  BOOKING_MESSAGES,
  EMAIL_MAX_LENGTH,
  FILE_NAME_MAX_LENGTH,
  INSTRUCTIONS_MAX_LENGTH,
  MAX_LOCATIONS,
  MAX_PATCHES,
  MAX_UPLOAD_BYTES,
  MAX_UPLOADED_FILES,
  NAME_MAX_LENGTH,
  PHONE_MAX_LENGTH,
  julyFirstOf,
} from './booking-limits.ts';

export * from './booking-limits.ts';

// One contract for the booking form and the server (conventions.md, habit 1). Field messages are
// the texts of public-site.md section 5; the server adds what only it knows (the date is not in
// the past and is available, the price), with an injected clock.

/** Bookings open from 1 July of each year (section 5): a date in January to June is refused. */
export function isFromJulyOnwards(isoDate: string): boolean {
  return isoDate >= julyFirstOf(Number(isoDate.slice(0, 4)));
}

const emailSchema = oneLine(BOOKING_MESSAGES.emailInvalid)
  .max(EMAIL_MAX_LENGTH, { error: BOOKING_MESSAGES.emailInvalid, abort: true })
  .regex(z.regexes.email, { error: BOOKING_MESSAGES.emailInvalid });

// The July rule compares against the date's own year, so 30 June is refused in every year.
const preferredDateSchema = z
  .string({ error: BOOKING_MESSAGES.preferredDateRequired })
  .trim()
  .min(1, { error: BOOKING_MESSAGES.preferredDateRequired, abort: true })
  .refine(isIsoDate, { error: 'Preferred date must be a valid date', abort: true })
  .refine(isFromJulyOnwards, { error: BOOKING_MESSAGES.preferredDateBeforeJuly });

const workTypeSchema = z.enum(WORK_TYPES, { error: BOOKING_MESSAGES.workTypeRequired });

const specialInstructionsSchema = multiLine()
  .max(INSTRUCTIONS_MAX_LENGTH, { error: tooLong('Special instructions', INSTRUCTIONS_MAX_LENGTH) })
  .optional();

const quantityAboveMaximum = `For more than ${MAX_PATCHES} patches, please contact us for a quote`;

function isWholeNumberOfPatches(value: number): boolean {
  return Number.isInteger(value) && value >= MIN_PATCHES;
}

// The form keeps the quantity as text (section 3); something that is not a number at all gets
// 'Invalid quantity value', a number that is not a whole count of 5 or more gets the minimum message.
const quantityTextSchema = z
  .string({ error: BOOKING_MESSAGES.quantityInvalid })
  .trim()
  .refine((value) => value !== '' && Number.isFinite(Number(value)), {
    error: BOOKING_MESSAGES.quantityInvalid,
    abort: true,
  })
  .refine((value) => isWholeNumberOfPatches(Number(value)), {
    error: BOOKING_MESSAGES.quantityBelowMinimum,
    abort: true,
  })
  .refine((value) => Number(value) <= MAX_PATCHES, { error: quantityAboveMaximum });

const quantityNumberSchema = z
  .number({ error: BOOKING_MESSAGES.quantityInvalid })
  .refine(isWholeNumberOfPatches, { error: BOOKING_MESSAGES.quantityBelowMinimum, abort: true })
  .refine((value) => value <= MAX_PATCHES, { error: quantityAboveMaximum });

const personalFields = {
  firstName: requiredText(BOOKING_MESSAGES.firstNameRequired, 'First name', NAME_MAX_LENGTH),
  lastName: requiredText(BOOKING_MESSAGES.lastNameRequired, 'Last name', NAME_MAX_LENGTH),
  email: emailSchema,
  phone: requiredText(BOOKING_MESSAGES.phoneRequired, 'Phone number', PHONE_MAX_LENGTH),
};

const locationAddressSchema = requiredText(
  BOOKING_MESSAGES.locationAddressRequired,
  'Location address',
  ADDRESS_MAX_LENGTH,
);

export const bookingFormSchema = z.object({
  ...personalFields,
  businessName: requiredText(BOOKING_MESSAGES.businessNameRequired, 'Business name', NAME_MAX_LENGTH),
  preferredDate: preferredDateSchema,
  quantity: quantityTextSchema,
  locationAddress: locationAddressSchema,
  specialInstructions: specialInstructionsSchema,
  workType: workTypeSchema,
});

export type BookingFormValues = z.infer<typeof bookingFormSchema>;


export const locationCoordinateSchema = z.object({
  address: locationAddressSchema,
  lat: z
    .number({ error: 'Latitude must be a number' })
    .min(-90, { error: 'Latitude must be between -90 and 90' })
    .max(90, { error: 'Latitude must be between -90 and 90' }),
  lng: z
    .number({ error: 'Longitude must be a number' })
    .min(-180, { error: 'Longitude must be between -180 and 180' })
    .max(180, { error: 'Longitude must be between -180 and 180' }),
});

export type LocationCoordinate = z.infer<typeof locationCoordinateSchema>;

// A stored file's name is one path segment; anything else could reach outside the upload store.
function isPlainFileName(name: string): boolean {
  return !/[/\\]/.test(name) && name !== '.' && name !== '..';
}

export const uploadedFileSchema = z.object({
  filename: z
    .string({ error: 'Invalid file name' })
    .overwrite(cleanOneLine)
    .min(1, { error: 'Invalid file name', abort: true })
    .max(FILE_NAME_MAX_LENGTH, { error: 'Invalid file name', abort: true })
    .refine(isPlainFileName, { error: 'Invalid file name' }),
  originalName: z
    .string({ error: 'Invalid file name' })
    .overwrite(cleanOneLine)
    .min(1, { error: 'Invalid file name' })
    .max(FILE_NAME_MAX_LENGTH, { error: tooLong('File name', FILE_NAME_MAX_LENGTH) }),
  fileSize: z
    .number({ error: 'Invalid file size' })
    .int({ error: 'Invalid file size' })
    .min(0, { error: 'Invalid file size' })
    .max(MAX_UPLOAD_BYTES, { error: 'Files must be 10MB or smaller' }),
  mimeType: z.enum(ALLOWED_UPLOAD_MIME_TYPES, { error: 'Only PNG, JPG, SVG and PDF files are accepted' }),
});

export type UploadedFile = z.infer<typeof uploadedFileSchema>;

// Section 3, "Booking payload sent". businessName is not in the spec's payload but is accepted
// when sent, so the server can keep it; totalPrice is accepted and ignored (api.md: the server
// prices the booking itself).
export const bookingPayloadSchema = z.object({
  ...personalFields,
  businessName: z
    .string()
    .overwrite(cleanOneLine)
    .max(NAME_MAX_LENGTH, { error: tooLong('Business name', NAME_MAX_LENGTH) })
    .optional(),
  preferredDate: preferredDateSchema,
  quantity: quantityNumberSchema,
  locationAddress: locationAddressSchema,
  specialInstructions: specialInstructionsSchema,
  totalPrice: z.number({ error: 'Invalid total price' }).optional(),
  locationCoordinates: z
    .array(locationCoordinateSchema, { error: 'Invalid locations' })
    .max(MAX_LOCATIONS, { error: `Select at most ${MAX_LOCATIONS} locations` })
    .default([]),
  workType: workTypeSchema,
  uploadedFiles: z
    .array(uploadedFileSchema, { error: 'Invalid uploaded files' })
    .max(MAX_UPLOADED_FILES, { error: `Attach at most ${MAX_UPLOADED_FILES} files` })
    .default([]),
});

export type BookingPayloadInput = z.input<typeof bookingPayloadSchema>;
export type BookingPayload = z.infer<typeof bookingPayloadSchema>;

/** Key for issues about the whole value rather than one field (e.g. a body that is not an object). */
export const ROOT_ERROR_KEY = '_root';

/**
 * The first message per top-level field, the shape of the API's `fields` and of the form's inline
 * errors. Issues inside a list (e.g. locationCoordinates[2].lat) are reported on the list's field.
 */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const [field] = issue.path;
    const key = field === undefined ? ROOT_ERROR_KEY : String(field);
    errors[key] ??= issue.message;
  }
  return errors;
}
