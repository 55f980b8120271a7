import { atom, computed, map } from 'nanostores';
import { BOOKING_FORM_DEFAULTS } from '../../domain/booking-limits.ts';
import type { BookingFormValues, UploadedFile } from '../../domain/booking-schema.ts';
import type { QuantityTile } from '../../domain/quantity.ts';
import type { FieldName } from './booking-fields.ts';
import { type SelectedLocation, joinAddresses, quantityAfterLocationsChange, quantityAfterTile } from './booking-locations.ts';
import type { FileLike, UploadItem } from './booking-files.ts';
import { bookingSummary } from './booking-summary.ts';

// Client state of the booking form (public-site.md §2 "Booking", §3, §4). The form and the
// Booking Summary read the same stores; everything that can be a pure function is one, in a module
// of its own noun (fields, locations, dates, files, submit, summary), so the rules are tested
// without a browser (booking-store.test.ts). This module holds the stores and re-exports the rules.

export * from './booking-fields.ts';
export * from './booking-locations.ts';
export * from './booking-dates.ts';
export * from './booking-files.ts';
export * from './booking-submit.ts';
export * from './booking-summary.ts';

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

/** GET /api/bookings/{id}/rebook: a completed booking's form data for "Book again" (api.md). */
export interface RebookData {
  businessName: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  quantity: number;
  workType: FormValues['workType'];
  locations: { address: string; lat: number; lng: number }[];
  /** The booking's brand files by their stored names: attached again as they are, never re-uploaded. */
  uploadedFiles: UploadedFile[];
}

/** The booking to book again, from /booking?rebook=ID (the tracking page's "Book again"). */
export function rebookIdFrom(search: string): number | null {
  const raw = new URLSearchParams(search).get('rebook');
  return raw && /^\d{1,9}$/.test(raw) ? Number(raw) : null;
}

/**
 * Fills the form with an earlier booking: business, contact, work type, its locations, its number
 * of patches and its brand files (already attached, each removable). The date stays empty (the one
 * thing chosen again); the price is the server's.
 */
export function prefillFromBooking(bookingId: number, data: RebookData): void {
  for (const name of ['businessName', 'firstName', 'lastName', 'email', 'phone'] as const) setField(name, data[name]);
  setField('workType', data.workType);
  setField('preferredDate', '');
  commitLocations(data.locations.map((location) => ({ id: nextLocationId++, lat: location.lat, lng: location.lng, address: location.address })));
  // The patches booked last time, which may be more than the locations alone would suggest.
  const quantity = String(data.quantity);
  $values.setKey('quantity', quantity);
  $isCustom.set(quantity !== '5' && quantity !== '10');
  $uploads.set(
    data.uploadedFiles.map((file) => ({
      id: nextUploadId++,
      name: file.originalName,
      size: file.fileSize,
      status: 'done',
      progress: 1,
      result: file,
      fromBooking: bookingId,
    })),
  );
}
