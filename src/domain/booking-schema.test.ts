import { describe, it, expect } from 'vitest';
import {
  BOOKING_FORM_DEFAULTS,
  MAX_LOCATIONS,
  MAX_UPLOAD_BYTES,
  ROOT_ERROR_KEY,
  bookingFormSchema,
  bookingPayloadSchema,
  fieldErrors,
  julyFirstOf,
  minBookingDate,
} from './booking-schema.ts';

const VALID_FORM = {
  firstName: 'Priya',
  lastName: 'Shah',
  businessName: 'Northern Roast',
  email: 'priya@northernroast.co.uk',
  phone: '0161 496 0000',
  preferredDate: '2026-07-14',
  quantity: '5',
  locationAddress: '12 Oldham Street, Manchester',
  specialInstructions: '',
  workType: 'day',
};

const VALID_PAYLOAD = {
  firstName: 'Priya',
  lastName: 'Shah',
  email: 'priya@northernroast.co.uk',
  phone: '0161 496 0000',
  preferredDate: '2026-07-14',
  quantity: 5,
  locationAddress: '12 Oldham Street, Manchester',
  specialInstructions: 'Near the café entrance',
  totalPrice: 349,
  locationCoordinates: [{ address: '12 Oldham Street, Manchester', lat: 53.4839, lng: -2.2356 }],
  workType: 'night',
  uploadedFiles: [
    { filename: 'a1b2c3.png', originalName: 'logo.png', fileSize: 20_480, mimeType: 'image/png' },
  ],
};

function formErrors(override: Record<string, unknown>): Record<string, string> {
  const result = bookingFormSchema.safeParse({ ...VALID_FORM, ...override });
  return result.success ? {} : fieldErrors(result.error);
}

function payloadErrors(override: Record<string, unknown>): Record<string, string> {
  const result = bookingPayloadSchema.safeParse({ ...VALID_PAYLOAD, ...override });
  return result.success ? {} : fieldErrors(result.error);
}

describe('bookingFormSchema', () => {
  it('accepts a complete form and trims its text', () => {
    const result = bookingFormSchema.parse({ ...VALID_FORM, firstName: '  Priya ', quantity: ' 12 ' });
    expect(result.firstName).toBe('Priya');
    expect(result.quantity).toBe('12');
  });

  it.each([
    ['firstName', '', 'First name is required'],
    ['firstName', '   ', 'First name is required'],
    ['firstName', undefined, 'First name is required'],
    ['lastName', '', 'Last name is required'],
    ['businessName', '', 'Business name is required'],
    ['email', '', 'Valid email is required'],
    ['email', 'priya@', 'Valid email is required'],
    ['email', 'not an email', 'Valid email is required'],
    ['phone', '', 'Phone number is required'],
    ['preferredDate', '', 'Preferred date is required'],
    ['preferredDate', undefined, 'Preferred date is required'],
    ['preferredDate', '2026-06-30', 'Bookings are only available from July onwards'],
    ['preferredDate', '2027-01-15', 'Bookings are only available from July onwards'],
    ['preferredDate', '2026-02-30', 'Preferred date must be a valid date'],
    ['preferredDate', '14/07/2026', 'Preferred date must be a valid date'],
    ['quantity', 'abc', 'Invalid quantity value'],
    ['quantity', '', 'Invalid quantity value'],
    ['quantity', '4', 'Minimum 5 patches required'],
    ['quantity', '1', 'Minimum 5 patches required'],
    ['quantity', '5.5', 'Minimum 5 patches required'],
    ['quantity', '-10', 'Minimum 5 patches required'],
    ['locationAddress', '', 'Location address is required'],
    ['workType', '', 'Please select work type'],
    ['workType', 'evening', 'Please select work type'],
    ['workType', undefined, 'Please select work type'],
    ['firstName', 'x'.repeat(101), 'First name must be 100 characters or fewer'],
  ])('%s = %j → "%s"', (field, value, message) => {
    expect(formErrors({ [field]: value })).toEqual({ [field]: message });
  });

  it.each(['2025-07-01', '2026-07-01', '2031-07-01', '2026-12-31'])('accepts %s', (date) => {
    expect(formErrors({ preferredDate: date })).toEqual({});
  });

  it.each(['2025-06-30', '2026-06-30', '2031-06-30', '2026-01-01'])('refuses %s', (date) => {
    expect(formErrors({ preferredDate: date })).toEqual({
      preferredDate: 'Bookings are only available from July onwards',
    });
  });

  it('leaves special instructions optional', () => {
    expect(formErrors({ specialInstructions: undefined })).toEqual({});
  });

  it('reports every missing field of an empty form at once', () => {
    expect(formErrors({ ...BOOKING_FORM_DEFAULTS })).toEqual({
      firstName: 'First name is required',
      lastName: 'Last name is required',
      businessName: 'Business name is required',
      email: 'Valid email is required',
      phone: 'Phone number is required',
      preferredDate: 'Preferred date is required',
      locationAddress: 'Location address is required',
    });
  });

  it('starts with 5 patches of day work', () => {
    expect(BOOKING_FORM_DEFAULTS).toMatchObject({ quantity: '5', workType: 'day' });
  });
});

describe('bookingPayloadSchema', () => {
  it('accepts the payload the browser sends, without a business name', () => {
    const payload = bookingPayloadSchema.parse(VALID_PAYLOAD);
    expect(payload.quantity).toBe(5);
    expect(payload.businessName).toBeUndefined();
  });

  it('keeps a business name when one is sent', () => {
    expect(bookingPayloadSchema.parse({ ...VALID_PAYLOAD, businessName: ' Northern Roast ' }).businessName).toBe(
      'Northern Roast',
    );
  });

  it('drops fields it does not know', () => {
    const payload = bookingPayloadSchema.parse({ ...VALID_PAYLOAD, status: 'completed', isPaid: true });
    expect(payload).not.toHaveProperty('status');
    expect(payload).not.toHaveProperty('isPaid');
  });

  it('defaults missing lists to empty', () => {
    const { locationCoordinates: _locations, uploadedFiles: _files, ...rest } = VALID_PAYLOAD;
    const payload = bookingPayloadSchema.parse(rest);
    expect(payload.locationCoordinates).toEqual([]);
    expect(payload.uploadedFiles).toEqual([]);
  });

  it.each([
    ['firstName', '', 'First name is required'],
    ['lastName', '', 'Last name is required'],
    ['email', 'priya', 'Valid email is required'],
    ['phone', '', 'Phone number is required'],
    ['preferredDate', '', 'Preferred date is required'],
    ['preferredDate', '2026-06-30', 'Bookings are only available from July onwards'],
    ['quantity', 4, 'Minimum 5 patches required'],
    ['quantity', 5.5, 'Minimum 5 patches required'],
    ['quantity', '5', 'Invalid quantity value'],
    ['quantity', null, 'Invalid quantity value'],
    ['quantity', 1_000_000, 'For more than 1000 patches, please contact us for a quote'],
    ['locationAddress', ' ', 'Location address is required'],
    ['workType', 'dusk', 'Please select work type'],
    ['totalPrice', 'free', 'Invalid total price'],
    ['locationCoordinates', [{ address: 'Leeds', lat: 91, lng: 0 }], 'Latitude must be between -90 and 90'],
    ['locationCoordinates', [{ address: 'Leeds', lat: 53.8, lng: -181 }], 'Longitude must be between -180 and 180'],
    ['locationCoordinates', [{ address: '', lat: 53.8, lng: -1.5 }], 'Location address is required'],
    [
      'locationCoordinates',
      Array.from({ length: MAX_LOCATIONS + 1 }, () => ({ address: 'Leeds', lat: 53.8, lng: -1.5 })),
      'Select at most 50 locations',
    ],
    [
      'uploadedFiles',
      [{ filename: '../../etc/passwd', originalName: 'x.png', fileSize: 1, mimeType: 'image/png' }],
      'Invalid file name',
    ],
    [
      'uploadedFiles',
      [{ filename: 'a.exe', originalName: 'a.exe', fileSize: 1, mimeType: 'application/x-msdownload' }],
      'Only PNG, JPG, SVG and PDF files are accepted',
    ],
    [
      'uploadedFiles',
      [{ filename: 'a.pdf', originalName: 'a.pdf', fileSize: MAX_UPLOAD_BYTES + 1, mimeType: 'application/pdf' }],
      'Files must be 10MB or smaller',
    ],
    [
      'uploadedFiles',
      Array.from({ length: 21 }, (_, i) => ({
        filename: `f${i}.png`,
        originalName: 'logo.png',
        fileSize: 1,
        mimeType: 'image/png',
      })),
      'Attach at most 20 files',
    ],
  ])('%s = %j → "%s"', (field, value, message) => {
    expect(payloadErrors({ [field]: value })).toEqual({ [field]: message });
  });

  it('reports a body that is not an object under the root key', () => {
    const result = bookingPayloadSchema.safeParse('hello');
    expect(result.success).toBe(false);
    if (!result.success) expect(Object.keys(fieldErrors(result.error))).toEqual([ROOT_ERROR_KEY]);
  });
});

describe('booking dates', () => {
  it.each([
    [2026, '2026-07-01'],
    [2031, '2031-07-01'],
  ])('1 July %i is %s', (year, date) => {
    expect(julyFirstOf(year)).toBe(date);
  });

  it.each([
    [new Date(2026, 0, 10), '2026-07-01'],
    [new Date(2026, 8, 10), '2026-07-01'],
    [new Date(2027, 11, 31), '2027-07-01'],
  ])('the earliest date on %s is %s', (today, date) => {
    expect(minBookingDate(today)).toBe(date);
  });
});
