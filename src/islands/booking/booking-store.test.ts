import { describe, expect, it } from 'vitest';
import { BOOKING_FORM_DEFAULTS, MAX_UPLOAD_BYTES, type BookingFormValues } from '../../domain/booking-schema.ts';
import {
  $locations,
  $uploads,
  $values,
  activeTile,
  attemptFor,
  bookingSummary,
  buildPayload,
  buildPendingBooking,
  digitsOnly,
  displayTotalPence,
  earliestBookingDate,
  fallbackAddress,
  fileRejectionReason,
  isDateUnavailable,
  isOnlyLocationMissing,
  joinAddresses,
  orderedErrors,
  parseUnavailableDates,
  pickKnown,
  prefillFromBooking,
  quantityAfterLocationsChange,
  quantityAfterTile,
  quantityFromCustomDraft,
  reconcileErrors,
  standingRefusal,
  uploadedFilesOf,
  uploadStatusText,
  withLocationCheck,
  type Refusal,
  type SelectedLocation,
  type UploadItem,
} from './booking-store.ts';
import { validateForm } from './form-validation.ts';

const FILLED: BookingFormValues = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  businessName: 'Analytical Coffee',
  email: 'ada@example.com',
  phone: '0191 496 0000',
  preferredDate: '2027-07-20',
  quantity: '10',
  locationAddress: 'Grey Street, Newcastle',
  specialInstructions: '',
  workType: 'night',
};

function pins(count: number): SelectedLocation[] {
  return Array.from({ length: count }, (_, index) => ({ id: index + 1, lat: 54.97 + index / 1000, lng: -1.61, address: `Street ${index + 1}` }));
}

describe('fallbackAddress', () => {
  it.each([
    [54.9783, -1.6178, 'Location 54.978300, -1.617800'],
    [54.123456789, -1.000000449, 'Location 54.123457, -1.000000'],
    [0, 0, 'Location 0.000000, 0.000000'],
  ])('(%s, %s) → %s', (lat, lng, expected) => {
    expect(fallbackAddress(lat, lng)).toBe(expected);
  });
});

describe('joinAddresses', () => {
  it("joins the chosen addresses with '; ' and leaves out pins still being looked up", () => {
    const locations = [...pins(2), { id: 9, lat: 1, lng: 2, address: null }];
    expect(joinAddresses(locations)).toBe('Street 1; Street 2');
    expect(joinAddresses([])).toBe('');
  });
});

describe('quantity and map link (§4)', () => {
  it.each([
    // [locations, current, expected]
    [1, { quantity: '10', isCustom: false }, { quantity: '5', isCustom: false }],
    [5, { quantity: '10', isCustom: true }, { quantity: '5', isCustom: false }],
    [6, { quantity: '5', isCustom: false }, { quantity: '10', isCustom: false }],
    [10, { quantity: '25', isCustom: true }, { quantity: '10', isCustom: false }],
    [11, { quantity: '5', isCustom: false }, { quantity: '11', isCustom: true }],
    [0, { quantity: '10', isCustom: false }, { quantity: '10', isCustom: false }],
    [3, { quantity: '1', isCustom: false }, { quantity: '1', isCustom: false }],
  ])('%i locations with %o → %o', (count, current, expected) => {
    expect(quantityAfterLocationsChange(current, count)).toEqual(expected);
  });

  it('tiles: 5 and 10 turn custom mode off, Custom turns it on at 10', () => {
    expect(quantityAfterTile('5')).toEqual({ quantity: '5', isCustom: false });
    expect(quantityAfterTile('10')).toEqual({ quantity: '10', isCustom: false });
    expect(quantityAfterTile('custom')).toEqual({ quantity: '10', isCustom: true });
  });

  it.each([
    [{ quantity: '5', isCustom: false }, '5'],
    [{ quantity: '10', isCustom: false }, '10'],
    [{ quantity: '10', isCustom: true }, 'custom'],
    [{ quantity: '1', isCustom: false }, null],
  ] as const)('the chosen tile for %o is %s', (state, tile) => {
    expect(activeTile(state)).toBe(tile);
  });

  it.each([
    ['', '25', '10'],
    ['12', '10', '12'],
    ['1', '12', '12'],
    ['9', '12', '12'],
    ['010', '12', '10'],
  ])('custom draft %j with quantity %s → %s', (draft, current, expected) => {
    expect(quantityFromCustomDraft(draft, current)).toBe(expected);
  });

  it('keeps only digits in the custom input', () => {
    expect(digitsOnly('1e2')).toBe('12');
    expect(digitsOnly('-15.5')).toBe('155');
    expect(digitsOnly('abc')).toBe('');
  });
});

describe('dates', () => {
  it('offers 1 July of this year until it has passed, then today', () => {
    expect(earliestBookingDate(new Date(2027, 2, 10))).toBe('2027-07-01');
    expect(earliestBookingDate(new Date(2027, 6, 1))).toBe('2027-07-01');
    expect(earliestBookingDate(new Date(2026, 10, 22))).toBe('2026-11-22');
  });

  it('finds a chosen date in the unavailable list', () => {
    expect(isDateUnavailable('2027-07-20', ['2027-07-19', '2027-07-20'])).toBe(true);
    expect(isDateUnavailable('2027-07-21', ['2027-07-20'])).toBe(false);
    expect(isDateUnavailable('', [''])).toBe(false);
  });

  it('reads the unavailable-dates answer, defaulting to an empty list', () => {
    expect(parseUnavailableDates({ unavailableDates: ['2027-07-20', 'soon', 3, '2027-02-30'] })).toEqual(['2027-07-20']);
    expect(parseUnavailableDates({})).toEqual([]);
    expect(parseUnavailableDates(null)).toEqual([]);
  });
});

describe('fileRejectionReason (§5 uploads)', () => {
  it.each([
    { name: 'logo.png', type: 'image/png' },
    { name: 'LOGO.JPG', type: 'image/jpeg' },
    { name: 'photo.jpeg', type: 'image/jpeg' },
    { name: 'mark.svg', type: 'image/svg+xml' },
    { name: 'brief.pdf', type: 'application/pdf' },
    { name: 'mark.svg', type: '' },
  ])('accepts $name ($type)', (file) => {
    expect(fileRejectionReason({ ...file, size: 2048 })).toBeNull();
  });

  it.each([
    [{ name: 'logo.gif', type: 'image/gif', size: 10 }, 'logo.gif was not added: only PNG, JPG, SVG and PDF files are accepted.'],
    [{ name: 'notes.txt', type: 'text/plain', size: 10 }, 'notes.txt was not added: only PNG, JPG, SVG and PDF files are accepted.'],
    [{ name: 'logo', type: 'image/png', size: 10 }, 'logo was not added: only PNG, JPG, SVG and PDF files are accepted.'],
    [{ name: 'fake.png', type: 'text/html', size: 10 }, 'fake.png was not added: only PNG, JPG, SVG and PDF files are accepted.'],
    [{ name: 'big.pdf', type: 'application/pdf', size: MAX_UPLOAD_BYTES + 1 }, 'big.pdf was not added: files must be 10MB or smaller.'],
    [{ name: 'empty.png', type: 'image/png', size: 0 }, 'empty.png was not added: the file is empty.'],
  ])('refuses %o', (file, reason) => {
    expect(fileRejectionReason(file)).toBe(reason);
  });

  it('accepts a file of exactly 10485760 bytes', () => {
    expect(fileRejectionReason({ name: 'max.png', type: 'image/png', size: MAX_UPLOAD_BYTES })).toBeNull();
  });

  it('sends only finished uploads', () => {
    const result = { filename: 'a1.png', originalName: 'logo.png', fileSize: 70, mimeType: 'image/png' as const };
    const items: UploadItem[] = [
      { id: 1, name: 'logo.png', size: 70, status: 'done', progress: 1, result },
      { id: 2, name: 'other.png', size: 70, status: 'uploading', progress: 0.5 },
      { id: 3, name: 'bad.png', size: 70, status: 'failed', progress: 0, error: 'Unsupported' },
    ];
    expect(uploadedFilesOf(items)).toEqual([result]);
  });
});

describe('validation and errors', () => {
  it('gives the spec messages for an empty form, in page order', () => {
    const errors = validateForm({ ...BOOKING_FORM_DEFAULTS });
    expect(orderedErrors(errors)).toEqual([
      { key: 'firstName', message: 'First name is required' },
      { key: 'lastName', message: 'Last name is required' },
      { key: 'businessName', message: 'Business name is required' },
      { key: 'email', message: 'Valid email is required' },
      { key: 'phone', message: 'Phone number is required' },
      { key: 'preferredDate', message: 'Preferred date is required' },
      { key: 'locationAddress', message: 'Location address is required' },
    ]);
  });

  it('accepts a filled form', () => {
    expect(validateForm(FILLED)).toEqual({});
  });

  it('refuses June and a quantity below 5', () => {
    expect(validateForm({ ...FILLED, preferredDate: '2027-06-30', quantity: '4' })).toEqual({
      preferredDate: 'Bookings are only available from July onwards',
      quantity: 'Minimum 5 patches required',
    });
  });

  it('keeps only the fields the form can show from a 400 answer, in page order', () => {
    expect(pickKnown({ quantity: 'Minimum 5 patches required', firstName: 'First name is required', surprise: 'x' })).toEqual({
      firstName: 'First name is required',
      quantity: 'Minimum 5 patches required',
    });
    expect(orderedErrors(pickKnown({ locationCoordinates: 'Invalid locations', phone: 'Phone number is required' })).map((e) => e.key)).toEqual([
      'phone',
      'locationCoordinates',
    ]);
  });

  it('removes fixed errors and does not add new ones until the next submit', () => {
    const shown = { firstName: 'First name is required', email: 'Valid email is required' };
    const current = { email: 'Valid email is required', phone: 'Phone number is required' };
    expect(reconcileErrors(shown, current)).toEqual({ email: 'Valid email is required' });
  });
});

describe('the map in the error summary (§5 "Location Required")', () => {
  const MISSING_PIN = 'Please select at least one location on the map.';

  it('lists the missing pin with the other problems, in page order, in place of the empty location field', () => {
    const formErrors = validateForm({ ...BOOKING_FORM_DEFAULTS });
    const keys = orderedErrors(withLocationCheck(formErrors, 0)).map((error) => error.key);
    expect(keys).toEqual([...orderedErrors(formErrors).map((error) => error.key).filter((key) => key !== 'locationAddress'), 'locationCoordinates']);
    expect(withLocationCheck(formErrors, 0).locationCoordinates).toBe(MISSING_PIN);
    expect(isOnlyLocationMissing(withLocationCheck(formErrors, 0))).toBe(false);
  });

  it('is the only problem of an otherwise filled form without pins', () => {
    const errors = withLocationCheck(validateForm(FILLED), 0);
    expect(errors).toEqual({ locationCoordinates: MISSING_PIN });
    expect(isOnlyLocationMissing(errors)).toBe(true);
  });

  it('adds nothing once a pin is placed, and keeps an emptied location field as a problem', () => {
    expect(withLocationCheck(validateForm(FILLED), 1)).toEqual({});
    expect(withLocationCheck(validateForm({ ...FILLED, locationAddress: '' }), 2)).toEqual({
      locationAddress: 'Location address is required',
    });
    expect(isOnlyLocationMissing({})).toBe(false);
  });
});

describe('standingRefusal: the server on a day with too little room', () => {
  const refusal: Refusal = {
    preferredDate: '2027-09-26',
    quantity: '10',
    errors: { preferredDate: 'Only 5 patches are still free on 26 September 2027. Choose 5 or fewer patches, or another date.' },
  };

  it.each([
    ['the same date and quantity', { preferredDate: '2027-09-26', quantity: '10' }, refusal.errors],
    ['fewer patches', { preferredDate: '2027-09-26', quantity: '5' }, {}],
    ['another date', { preferredDate: '2027-09-27', quantity: '10' }, {}],
  ])('stands for %s', (_case, values, expected) => {
    expect(standingRefusal(refusal, values)).toEqual(expected);
  });

  it('is nothing before any refusal', () => {
    expect(standingRefusal(null, FILLED)).toEqual({});
  });
});

describe('payload, idempotency and pendingBooking', () => {
  const locations = pins(2);

  it('sends the spec payload with a numeric quantity, the coordinates and the files', () => {
    const file = { filename: 'a1.png', originalName: 'logo.png', fileSize: 70, mimeType: 'image/png' as const };
    const payload = buildPayload({ ...FILLED, firstName: '  Ada ', locationAddress: 'Street 1; Street 2' }, locations, [file]);
    expect(payload).toEqual({
      firstName: 'Ada',
      lastName: 'Lovelace',
      businessName: 'Analytical Coffee',
      email: 'ada@example.com',
      phone: '0191 496 0000',
      preferredDate: '2027-07-20',
      quantity: 10,
      locationAddress: 'Street 1; Street 2',
      specialInstructions: '',
      totalPrice: 799,
      locationCoordinates: [
        { address: 'Street 1', lat: 54.97, lng: -1.61 },
        { address: 'Street 2', lat: 54.971, lng: -1.61 },
      ],
      workType: 'night',
      uploadedFiles: [file],
    });
  });

  it('sends the fallback text for a pin whose address is still being looked up', () => {
    const payload = buildPayload(FILLED, [{ id: 1, lat: 54.5, lng: -1.5, address: null }], []);
    expect(payload.locationCoordinates).toEqual([{ address: 'Location 54.500000, -1.500000', lat: 54.5, lng: -1.5 }]);
  });

  it('reuses the Idempotency-Key for the same booking and makes a new one when it changed', () => {
    let made = 0;
    const newKey = () => `key-${++made}`;
    const first = attemptFor(null, '{"a":1}', newKey);
    expect(first.key).toBe('key-1');
    expect(attemptFor(first, '{"a":1}', newKey)).toBe(first);
    expect(attemptFor(first, '{"a":2}', newKey).key).toBe('key-2');
  });

  it("stores the server's id, price and checkout token with the joined addresses", () => {
    const pending = buildPendingBooking({ ...FILLED, locationAddress: 'typed by hand' }, locations, { id: 42, totalPrice: 799, checkoutToken: 'tok_abc' });
    expect(pending).toEqual({ ...FILLED, totalPrice: 799, bookingId: 42, checkoutToken: 'tok_abc', locationAddress: 'Street 1; Street 2' });
    expect(buildPendingBooking(FILLED, locations, { id: 42 })).not.toHaveProperty('checkoutToken');
  });

  it('falls back to the current timestamp when the answer has no id', () => {
    expect(buildPendingBooking(FILLED, locations, {}, () => 1_790_000_000_000).bookingId).toBe(1_790_000_000_000);
  });
});

describe('bookingSummary', () => {
  it.each([
    ['5', 'day', '£349'],
    ['10', 'day', '£599'],
    ['10', 'night', '£799'],
    ['12', 'day', '£689'],
    ['abc', 'day', '£0'],
  ] as const)('%s %s patches cost %s', (quantity, workType, total) => {
    expect(bookingSummary({ ...FILLED, quantity, workType }, []).total).toBe(total);
  });

  it('describes what has been chosen so far', () => {
    expect(bookingSummary(FILLED, pins(2))).toEqual({
      patches: '10 patches',
      workType: 'Night (6pm - 6am)',
      date: '20 July 2027',
      location: '2 locations',
      total: '£799',
      totalPence: 79_900,
      nightSurcharge: 'includes £200 night work',
    });
    const empty = bookingSummary({ ...BOOKING_FORM_DEFAULTS }, []);
    expect(empty).toMatchObject({ patches: '5 patches', workType: 'Day (9am - 5pm)', date: 'Not selected yet', location: 'Not selected yet', total: '£349', nightSurcharge: null });
  });

  it('prices the display total from the quantity and work type', () => {
    expect(displayTotalPence({ quantity: '11', workType: 'night' })).toBe(59_900 + 4_500 + 11 * 2_000);
  });
});

describe('Book again: the form filled from an earlier booking', () => {
  const logo = { filename: '9f0c1d2e-0000-4000-8000-000000000001.png', originalName: 'roasters-logo.png', fileSize: 48_000, mimeType: 'image/png' as const };

  it('attaches its brand files as they are, each sent again by reference and removable like any upload', () => {
    prefillFromBooking(7, {
      businessName: 'Northern Roasters',
      firstName: 'Amira',
      lastName: 'Khan',
      email: 'amira@northernroasters.co.uk',
      phone: '0161 496 0000',
      quantity: 12,
      workType: 'day',
      locations: [{ address: 'Market Street, Manchester M1 1PT', lat: 53.48, lng: -2.24 }],
      uploadedFiles: [logo],
    });
    expect($values.get()).toMatchObject({ firstName: 'Amira', quantity: '12', workType: 'day', preferredDate: '' });
    expect($locations.get().map((location) => location.address)).toEqual(['Market Street, Manchester M1 1PT']);
    const items = $uploads.get();
    expect(items).toEqual([expect.objectContaining({ name: 'roasters-logo.png', size: 48_000, status: 'done', fromBooking: 7 })]);
    expect(uploadStatusText(items[0]!)).toBe('From booking #7');
    expect(uploadedFilesOf(items)).toEqual([logo]);
  });

  it('says how each upload stands', () => {
    const item: UploadItem = { id: 1, name: 'a.png', size: 1, status: 'uploading', progress: 0.42 };
    expect(uploadStatusText(item)).toBe('Uploading… 42%');
    expect(uploadStatusText({ ...item, status: 'done', progress: 1 })).toBe('Uploaded');
    expect(uploadStatusText({ ...item, status: 'failed', error: 'Too large' })).toBe('Failed: Too large');
  });
});
