import { describe, expect, it } from 'vitest';
import {
  LAST_BOOKING_KEY,
  checkoutLinkFrom,
  PENDING_BOOKING_KEY,
  formatTotal,
  parsePendingBooking,
  restorePendingBooking,
  serverBookingId,
  serviceName,
  takePendingBooking,
} from './pending-booking.ts';
import { PENDING_BOOKING } from '../../../tests/fixtures/pending-booking.ts';

// The booking the form leaves behind, as the browser tests store it, minus its checkout token:
// older pages stored none, and those must still read.
const { checkoutToken: _token, ...stored } = PENDING_BOOKING;

class MemoryStorage implements Storage {
  private items = new Map<string, string>();
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
}

describe('checkoutLinkFrom', () => {
  it.each([
    ['?booking=12&t=abc_DEF-123', { bookingId: 12, checkoutToken: 'abc_DEF-123' }],
    ['?t=abc&booking=7', { bookingId: 7, checkoutToken: 'abc' }],
    ['', null],
    ['?booking=12', null],
    ['?t=abc', null],
    ['?booking=0&t=abc', null],
    ['?booking=1.5&t=abc', null],
    ['?booking=12&t=', null],
    [`?booking=12&t=${'x'.repeat(201)}`, null],
  ])('%s', (search, expected) => {
    expect(checkoutLinkFrom(search)).toEqual(expected);
  });
});

describe('serviceName', () => {
  it.each([
    ['1', 'Test Item'],
    [' 1 ', 'Test Item'],
    ['5', 'Starter Pack Reverse Graffiti'],
    ['6', 'Business Pack Reverse Graffiti'],
    ['10', 'Business Pack Reverse Graffiti'],
    ['11', 'Custom Reverse Graffiti'],
    ['40', 'Custom Reverse Graffiti'],
    ['3', 'Custom Reverse Graffiti'],
  ])('quantity %j → %s', (quantity, name) => {
    expect(serviceName(quantity)).toBe(name);
  });
});

describe('parsePendingBooking', () => {
  it('reads what the booking form stores', () => {
    expect(parsePendingBooking(JSON.stringify(stored))).toMatchObject({ bookingId: 42, quantity: '10', workType: 'night', totalPrice: 799 });
  });

  it('keeps the checkout token, and reads a booking stored without one', () => {
    expect(parsePendingBooking(JSON.stringify({ ...stored, checkoutToken: 'tok_abc' }))?.checkoutToken).toBe('tok_abc');
    expect(parsePendingBooking(JSON.stringify(stored))).not.toBeNull();
    expect(parsePendingBooking(JSON.stringify({ ...stored, checkoutToken: 7 }))?.checkoutToken).toBeUndefined();
  });

  it('accepts a numeric quantity and defaults the work type to day', () => {
    const { workType: _ignored, ...withoutWorkType } = stored;
    expect(parsePendingBooking(JSON.stringify({ ...withoutWorkType, quantity: 5 }))).toMatchObject({ quantity: '5', workType: 'day' });
  });

  it.each([null, '', 'not json', '[]', JSON.stringify({ quantity: '5' })])('treats %j as no booking', (raw) => {
    expect(parsePendingBooking(raw)).toBeNull();
  });
});

describe('serverBookingId', () => {
  it.each([
    [42, 42],
    ['42', 42],
    [1_732_270_000_000, null],
    ['abc', null],
    [0, null],
  ])('%j → %j', (bookingId, expected) => {
    expect(serverBookingId(parsePendingBooking(JSON.stringify({ ...stored, bookingId }))!)).toBe(expected);
  });
});

describe('the success page hand-over', () => {
  it('removes pendingBooking, keeps lastBooking, and restores it for a retry', () => {
    const storage = new MemoryStorage();
    storage.setItem(PENDING_BOOKING_KEY, JSON.stringify(stored));

    expect(takePendingBooking(storage)?.bookingId).toBe(42);
    expect(storage.getItem(PENDING_BOOKING_KEY)).toBeNull();
    expect(storage.getItem(LAST_BOOKING_KEY)).not.toBeNull();
    // A reload still finds the booking.
    expect(takePendingBooking(storage)?.bookingId).toBe(42);

    restorePendingBooking(storage);
    expect(parsePendingBooking(storage.getItem(PENDING_BOOKING_KEY))?.bookingId).toBe(42);
  });
});

it('formats the stored pounds total', () => {
  expect(formatTotal(799)).toBe('£799');
  expect(formatTotal(1049)).toBe('£1,049');
});
