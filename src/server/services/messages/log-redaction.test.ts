import { describe, expect, it } from 'vitest';
import { isSecretKey, redactMetadata, redactText, REDACTED } from './log-redaction.ts';

describe('secret-named metadata keys', () => {
  it.each([
    ['password', true],
    ['newPassword', true],
    ['api_token', true],
    ['clientSecret', true],
    ['client-secret', true],
    ['totpCode', true],
    ['code', true],
    ['cardNumber', true],
    ['card', true],
    ['Authorization', true],
    ['apiKey', true],
    ['postcode', false],
    ['paymentIntentId', false],
    ['bookingId', false],
    ['quantity', false],
    ['region', false],
  ])('%s → secret: %s', (key, expected) => {
    expect(isSecretKey(key)).toBe(expected);
  });
});

describe('card-like digit runs in text', () => {
  it.each([
    ['Paid with 4242424242424242 today', `Paid with ${REDACTED} today`],
    ['Card 4242 4242 4242 4242 was used', `Card ${REDACTED} was used`],
    ['Card 4000-0566-5566-5556 declined', `Card ${REDACTED} declined`],
    ['Amex 378282246310005', `Amex ${REDACTED}`],
    // Twelve digits or fewer are order numbers, phone numbers and amounts, not cards.
    ['Booking #123 for 07700900123', 'Booking #123 for 07700900123'],
    ['Total 123456789012', 'Total 123456789012'],
    ['2026-11-22 10:00', '2026-11-22 10:00'],
  ])('%s', (input, expected) => {
    expect(redactText(input)).toBe(expected);
  });
});

describe('redactMetadata', () => {
  it('replaces secret values at any depth and leaves the rest as it was', () => {
    const input = {
      bookingId: 12,
      postcode: 'SW1A 1AA',
      password: 'hunter2',
      nested: { clientSecret: 'pi_1_secret_2', note: 'card 4242424242424242', list: [{ token: 'abc' }, 'fine'] },
      isTest: false,
      missing: null,
    };
    expect(redactMetadata(input)).toEqual({
      bookingId: 12,
      postcode: 'SW1A 1AA',
      password: REDACTED,
      nested: { clientSecret: REDACTED, note: `card ${REDACTED}`, list: [{ token: REDACTED }, 'fine'] },
      isTest: false,
      missing: null,
    });
    // The caller's object is not changed.
    expect(input.password).toBe('hunter2');
  });
});
