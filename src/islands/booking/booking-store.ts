import { atom, computed, map } from 'nanostores';
import {
  ALLOWED_UPLOAD_EXTENSIONS,
  ALLOWED_UPLOAD_MIME_TYPES,
  BOOKING_FORM_DEFAULTS,
  MAX_UPLOAD_BYTES,
  minBookingDate,
} from '../../domain/booking-limits.ts';
import type { BookingFormValues, BookingPayloadInput, LocationCoordinate, UploadedFile } from '../../domain/booking-schema.ts';
import { WORKING_HOURS } from '../../content/working-hours.ts';
import { formatLongDate, isIsoDate } from '../../domain/format.ts';
import { NIGHT_SURCHARGE_PER_PATCH_PENCE, computeTotalPricePence, formatPounds, type WorkType } from '../../domain/pricing.ts';
import { normalizeCustomInput, quantityForLocationCount, selectTile, type QuantityTile } from '../../domain/quantity.ts';

// Client state of the booking form (public-site.md §2 "Booking", §3, §4). The form and the
// Booking Summary read the same stores; everything that can be a pure function is one, so the
// rules are tested without a browser (booking-store.test.ts).

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

const ERROR_ORDER: readonly ErrorKey[] = [
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

// ---------------------------------------------------------------------------------------------
// Locations and the quantity they imply
// ---------------------------------------------------------------------------------------------

export interface SelectedLocation {
  id: number;
  lat: number;
  lng: number;
  /** null while the reverse lookup is still running. */
  address: string | null;
}

/** The spec's fallback when geocoding fails (§4 "Map"): 'Location {lat}, {lng}' with 6 decimals. */
export function fallbackAddress(lat: number, lng: number): string {
  return `Location ${lat.toFixed(6)}, ${lng.toFixed(6)}`;
}

/** The location field's text: the selected addresses joined with '; ' (§3 "Pending booking"). */
export function joinAddresses(locations: readonly SelectedLocation[]): string {
  return locations
    .map((location) => location.address)
    .filter((address): address is string => Boolean(address))
    .join(LOCATION_SEPARATOR);
}

export function toCoordinates(locations: readonly SelectedLocation[]): LocationCoordinate[] {
  return locations.map(({ lat, lng, address }) => ({ lat, lng, address: address ?? fallbackAddress(lat, lng) }));
}

export interface QuantityState {
  quantity: string;
  isCustom: boolean;
}

/**
 * What the form's quantity becomes after the set of locations changed (§4 "Quantity and map
 * link"). The rule applies on each change only, so a person can still pick another tile after
 * placing their pins.
 */
export function quantityAfterLocationsChange(current: QuantityState, locationCount: number): QuantityState {
  return quantityForLocationCount(locationCount, current.quantity) ?? current;
}

export function quantityAfterTile(tile: QuantityTile): QuantityState {
  return selectTile(tile);
}

/** The tile that shows as chosen for a quantity state. */
export function activeTile({ quantity, isCustom }: QuantityState): QuantityTile | null {
  if (isCustom) return 'custom';
  if (quantity === '5' || quantity === '10') return quantity;
  return null;
}

/** Keeps only digits: the custom input never holds anything that could not become a count. */
export function digitsOnly(text: string): string {
  return text.replace(/\D+/g, '');
}

/**
 * The custom input while someone types: a draft of digits. The quantity follows the draft as soon
 * as it is a valid custom count (empty reverts to 10, §4); a draft below 10 leaves the quantity as
 * it was until the person finishes typing.
 */
export function quantityFromCustomDraft(draft: string, currentQuantity: string): string {
  return normalizeCustomInput(draft) ?? currentQuantity;
}

// ---------------------------------------------------------------------------------------------
// Dates
// ---------------------------------------------------------------------------------------------

/** A calendar date in the person's own time zone, as the date input uses. */
export function localIsoDate(date: Date): string {
  const month = String(date.getMonth() + 1).padStart(2, '0');
  const day = String(date.getDate()).padStart(2, '0');
  return `${String(date.getFullYear()).padStart(4, '0')}-${month}-${day}`;
}

/**
 * The date input's minimum. The spec sets it to 1 July of the current year (§5); once that day has
 * passed, today is the earliest date the server accepts, so offering earlier days would only lead
 * to an error after submitting.
 */
export function earliestBookingDate(today: Date): string {
  const julyFirst = minBookingDate(today);
  const todayIso = localIsoDate(today);
  return todayIso > julyFirst ? todayIso : julyFirst;
}

export function isDateUnavailable(date: string, unavailableDates: readonly string[]): boolean {
  return date !== '' && unavailableDates.includes(date);
}

/** Reads the unavailable-dates answer defensively: the spec's default is an empty list. */
export function parseUnavailableDates(answer: unknown): string[] {
  const list = (answer as { unavailableDates?: unknown } | null)?.unavailableDates;
  return Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string' && isIsoDate(item)) : [];
}

// ---------------------------------------------------------------------------------------------
// Files
// ---------------------------------------------------------------------------------------------

export const ACCEPT_ATTRIBUTE = [...ALLOWED_UPLOAD_EXTENSIONS.map((extension) => `.${extension}`), ...ALLOWED_UPLOAD_MIME_TYPES].join(',');

export interface FileLike {
  name: string;
  size: number;
  type: string;
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot === -1 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * Why a chosen file cannot be uploaded, or null when it may be sent (§5 "Uploads"). The browser
 * judges by name and reported type; the server checks the content itself.
 */
export function fileRejectionReason(file: FileLike): string | null {
  const extension = extensionOf(file.name);
  const isAllowedExtension = (ALLOWED_UPLOAD_EXTENSIONS as readonly string[]).includes(extension);
  const isAllowedType = file.type === '' || (ALLOWED_UPLOAD_MIME_TYPES as readonly string[]).includes(file.type);
  if (!isAllowedExtension || !isAllowedType) {
    return `${file.name} was not added: only PNG, JPG, SVG and PDF files are accepted.`;
  }
  if (file.size > MAX_UPLOAD_BYTES) return `${file.name} was not added: files must be 10MB or smaller.`;
  if (file.size === 0) return `${file.name} was not added: the file is empty.`;
  return null;
}

export type UploadStatus = 'uploading' | 'done' | 'failed';

export interface UploadItem {
  id: number;
  name: string;
  size: number;
  status: UploadStatus;
  /** 0 to 1. */
  progress: number;
  result?: UploadedFile;
  error?: string;
}

export function uploadedFilesOf(items: readonly UploadItem[]): UploadedFile[] {
  return items.flatMap((item) => (item.status === 'done' && item.result ? [item.result] : []));
}

// ---------------------------------------------------------------------------------------------
// Validation and the payload
// ---------------------------------------------------------------------------------------------

// validateForm lives in form-validation.ts: it needs zod, which the form loads on first use.

/** Maps a 400 answer's `fields` onto the form's own keys, ignoring anything the form cannot show. */
export function pickKnown(fields: Record<string, string>): FormErrors {
  const errors: FormErrors = {};
  for (const key of ERROR_ORDER) {
    const message = fields[key];
    if (message) errors[key] = message;
  }
  return errors;
}

export function orderedErrors(errors: FormErrors): { key: ErrorKey; message: string }[] {
  return ERROR_ORDER.flatMap((key) => {
    const message = errors[key];
    return message ? [{ key, message }] : [];
  });
}

/** The spec's words when no pin is placed (§5, §8). */
export const LOCATION_REQUIRED = { title: 'Location Required', description: 'Please select at least one location on the map.' };

/**
 * Adds the map to the form's errors when no pin is placed. The pins fill the location field, so
 * without one that field is empty too; one pin fixes both, and the summary lists the map once.
 */
export function withLocationCheck(errors: FormErrors, locationCount: number): FormErrors {
  if (locationCount > 0) return errors;
  const found: FormErrors = { ...errors, [LOCATIONS_KEY]: LOCATION_REQUIRED.description };
  delete found.locationAddress;
  return found;
}

/** True when a missing pin is the only thing stopping the booking. */
export function isOnlyLocationMissing(errors: FormErrors): boolean {
  const keys = Object.keys(errors);
  return keys.length === 1 && keys[0] === LOCATIONS_KEY;
}

/** A 409 whose fields say how to fit the booking (a day with too little room), and what it judged. */
export interface Refusal {
  preferredDate: string;
  quantity: string;
  errors: FormErrors;
}

/**
 * Only the server knows a day's room, so its answer stands while the date and quantity it judged
 * are unchanged, and goes as soon as either changes.
 */
export function standingRefusal(refusal: Refusal | null, values: Pick<BookingFormValues, 'preferredDate' | 'quantity'>): FormErrors {
  if (!refusal || refusal.preferredDate !== values.preferredDate || refusal.quantity !== values.quantity) return {};
  return refusal.errors;
}

/**
 * After a failed submit, fixing a field removes its error at once, but new errors only appear on
 * the next submit (the GOV.UK pattern: the summary does not grow while someone types).
 */
export function reconcileErrors(shown: FormErrors, current: FormErrors): FormErrors {
  const next: FormErrors = {};
  for (const key of Object.keys(shown) as ErrorKey[]) {
    const message = current[key];
    if (message) next[key] = message;
  }
  return next;
}

export function buildPayload(
  values: BookingFormValues,
  locations: readonly SelectedLocation[],
  files: readonly UploadedFile[],
): BookingPayloadInput & { businessName: string } {
  const quantity = Number(values.quantity);
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    businessName: values.businessName.trim(),
    email: values.email.trim(),
    phone: values.phone.trim(),
    preferredDate: values.preferredDate,
    quantity,
    locationAddress: values.locationAddress.trim(),
    specialInstructions: values.specialInstructions?.trim() ?? '',
    // Display only: the server prices the booking itself (api.md).
    totalPrice: displayTotalPence(values) / 100,
    locationCoordinates: toCoordinates(locations),
    workType: values.workType,
    uploadedFiles: [...files],
  };
}

export interface IdempotencyAttempt {
  key: string;
  body: string;
}

/**
 * One Idempotency-Key per booking attempt: a retry or a double click of the same booking reuses
 * it; a changed booking (after fixing an error) is a new attempt with a new key.
 */
export function attemptFor(previous: IdempotencyAttempt | null, body: string, newKey: () => string): IdempotencyAttempt {
  return previous && previous.body === body ? previous : { key: newKey(), body };
}

export interface BookingAnswer {
  id?: number | string;
  totalPrice?: number;
  /** Proves to POST /api/create-payment-intent that this browser made the booking. */
  checkoutToken?: string;
}

/** localStorage `pendingBooking` (§3): the form values, the server's price and id, the joined addresses. */
export function buildPendingBooking(
  values: BookingFormValues,
  locations: readonly SelectedLocation[],
  answer: BookingAnswer,
  now: () => number = Date.now,
) {
  return {
    ...values,
    totalPrice: typeof answer.totalPrice === 'number' ? answer.totalPrice : displayTotalPence(values) / 100,
    bookingId: answer.id ?? now(),
    ...(typeof answer.checkoutToken === 'string' ? { checkoutToken: answer.checkoutToken } : {}),
    locationAddress: joinAddresses(locations),
  };
}

// ---------------------------------------------------------------------------------------------
// The Booking Summary
// ---------------------------------------------------------------------------------------------

function patchCount(quantity: string): number | null {
  const count = Number(quantity);
  return quantity.trim() !== '' && Number.isSafeInteger(count) && count >= 0 ? count : null;
}

/** The price shown while someone fills the form; 0 while the quantity is not a count. */
export function displayTotalPence(values: Pick<BookingFormValues, 'quantity' | 'workType'>): number {
  const count = patchCount(values.quantity);
  return count === null ? 0 : computeTotalPricePence(count, values.workType);
}

export interface BookingSummary {
  patches: string;
  workType: string;
  date: string;
  location: string;
  total: string;
  totalPence: number;
  nightSurcharge: string | null;
}

export const NOT_CHOSEN = 'Not selected yet';

export function bookingSummary(values: BookingFormValues, locations: readonly SelectedLocation[]): BookingSummary {
  const count = patchCount(values.quantity);
  const totalPence = displayTotalPence(values);
  const workType = WORK_TYPE_LABELS[values.workType];
  const isNight = values.workType === 'night' && count !== null && count > 0;
  const locationCount = locations.length;
  return {
    patches: count === null ? NOT_CHOSEN : `${count} ${count === 1 ? 'patch' : 'patches'}`,
    workType: `${workType.name} (${workType.hours})`,
    date: isIsoDate(values.preferredDate) ? formatLongDate(values.preferredDate) : NOT_CHOSEN,
    location:
      locationCount === 0
        ? NOT_CHOSEN
        : `${locationCount} ${locationCount === 1 ? 'location' : 'locations'}`,
    total: formatPounds(totalPence),
    totalPence,
    nightSurcharge: isNight ? `includes ${formatPounds(count * NIGHT_SURCHARGE_PER_PATCH_PENCE)} night work` : null,
  };
}

// ---------------------------------------------------------------------------------------------
// Stores
// ---------------------------------------------------------------------------------------------

/** specialInstructions is optional in the schema but the form always holds a string. */
export type FormValues = Required<BookingFormValues>;

export const $values = map<FormValues>({ ...BOOKING_FORM_DEFAULTS, specialInstructions: '' });
export const $isCustom = atom(false);
export const $locations = atom<SelectedLocation[]>([]);
export const $uploads = atom<UploadItem[]>([]);
export const $summary = computed([$values, $locations], bookingSummary);

let nextLocationId = 1;
let nextUploadId = 1;

export function setField<K extends FieldName>(name: K, value: FormValues[K]): void {
  // nanostores types setKey's value through a conditional type TypeScript cannot narrow for a generic K.
  $values.setKey(name, value as never);
}

export function chooseTile(tile: QuantityTile): void {
  const next = quantityAfterTile(tile);
  $values.setKey('quantity', next.quantity);
  $isCustom.set(next.isCustom);
}

function commitLocations(locations: SelectedLocation[]): void {
  const next = quantityAfterLocationsChange(
    { quantity: $values.get().quantity, isCustom: $isCustom.get() },
    locations.length,
  );
  $locations.set(locations);
  $values.setKey('quantity', next.quantity);
  $values.setKey('locationAddress', joinAddresses(locations));
  $isCustom.set(next.isCustom);
}

export function addLocation(lat: number, lng: number, address: string | null): number {
  const id = nextLocationId++;
  commitLocations([...$locations.get(), { id, lat, lng, address }]);
  return id;
}

export function updateLocation(id: number, patch: Partial<Omit<SelectedLocation, 'id'>>): void {
  const locations = $locations.get();
  if (!locations.some((location) => location.id === id)) return;
  $locations.set(locations.map((location) => (location.id === id ? { ...location, ...patch } : location)));
  $values.setKey('locationAddress', joinAddresses($locations.get()));
}

export function removeLocation(id: number): void {
  commitLocations($locations.get().filter((location) => location.id !== id));
}

export function addUpload(file: FileLike): number {
  const id = nextUploadId++;
  $uploads.set([...$uploads.get(), { id, name: file.name, size: file.size, status: 'uploading', progress: 0 }]);
  return id;
}

export function updateUpload(id: number, patch: Partial<Omit<UploadItem, 'id'>>): void {
  $uploads.set($uploads.get().map((item) => (item.id === id ? { ...item, ...patch } : item)));
}

export function removeUpload(id: number): void {
  $uploads.set($uploads.get().filter((item) => item.id !== id));
}
