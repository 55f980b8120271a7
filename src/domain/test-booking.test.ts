import { describe, it, expect } from 'vitest';
import { detectTestBooking } from './test-booking.ts';

const REAL = {
  firstName: 'Priya',
  lastName: 'Shah',
  email: 'priya@northernroast.co.uk',
  locationAddress: '12 Oldham Street, Manchester M1 1JQ',
};

describe('detectTestBooking', () => {
  it.each([
    ['first name "Test"', { firstName: 'Test' }],
    ['last name "TESTING"', { lastName: 'TESTING' }],
    ['first name "Demo"', { firstName: 'Demo' }],
    ['last name "Sample-Smith"', { lastName: 'Sample-Smith' }],
    ['name "John Doe" across both fields', { firstName: 'John', lastName: 'Doe' }],
    ['name "jane doe" in one field', { firstName: 'jane doe', lastName: '' }],
    ['e-mail "test@x.com"', { email: 'test@x.com' }],
    ['e-mail "a.test@x.co.uk"', { email: 'a.test@x.co.uk' }],
    ['e-mail "test123@gmail.com"', { email: 'test123@gmail.com' }],
    ['e-mail "john.doe@gmail.com"', { email: 'john.doe@gmail.com' }],
    ['e-mail at example.com', { email: 'priya@example.com' }],
    ['e-mail "asdf@asdf.com"', { email: 'asdf@asdf.com' }],
    ['address "123 Fake Street"', { locationAddress: '123 Fake Street, Leeds' }],
    ['address "qwerty"', { locationAddress: 'qwerty' }],
  ])('flags a booking with %s', (_, override) => {
    expect(detectTestBooking({ ...REAL, ...override })).toBe(true);
  });

  it.each([
    ['a real booking', {}],
    ['e-mail "contest@x.com"', { email: 'contest@x.com' }],
    ['business-like name "Testament Ltd"', { lastName: 'Testament Ltd' }],
    ['first name "Johnny" and last name "Doerr"', { firstName: 'Johnny', lastName: 'Doerr' }],
    ['first name "John" only', { firstName: 'John', lastName: 'Smith' }],
    ['address "Attestation House"', { locationAddress: 'Attestation House, Leeds' }],
    ['e-mail "demonstrate@x.com"', { email: 'demonstrate@x.com' }],
    ['"John" in the name and "Doe" in the address', { firstName: 'John', locationAddress: 'Doe Lane, York' }],
    ['missing fields', { email: null, locationAddress: undefined }],
  ])('does not flag %s', (_, override) => {
    expect(detectTestBooking({ ...REAL, ...override })).toBe(false);
  });
});
