// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PAYMENT_MESSAGES } from '../../content/payment-messages.ts';
import { Unavailable } from './CheckoutNotices.tsx';
import type { PendingBooking } from './pending-booking.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const booking = { bookingId: 42, quantity: '10', totalPrice: 799, preferredDate: '2027-07-14' } as PendingBooking;

// The e2e server has no Stripe keys, so the browser tests never get as far as the server's 409s;
// these render what /checkout shows for each of them.
describe('/checkout when the server answers 409', () => {
  let root: Root;
  let container: HTMLElement;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });
  const show = (message: string) => {
    act(() => root.render(<Unavailable setup={{ kind: 'conflict', message }} booking={booking} onRetry={() => {}} />));
    return container.textContent ?? '';
  };
  const hasContactLinks = () => Boolean(container.querySelector('a[href^="tel:"]') && container.querySelector('a[href^="mailto:"]'));

  it.each([PAYMENT_MESSAGES.alreadyPaid, PAYMENT_MESSAGES.alreadyProcessing])('"%s": nothing more to pay, and a way to track it', (message) => {
    const text = show(message);
    expect(text).toContain(message);
    expect(text).toContain('There is nothing more to pay for booking #42');
    expect(container.querySelector('a[href="/track-project"]')).not.toBeNull();
  });

  it.each([PAYMENT_MESSAGES.cancelled, PAYMENT_MESSAGES.intentConflict])('"%s": nothing charged, and how to reach us', (message) => {
    const text = show(message);
    expect(text).toContain(message);
    expect(text).toContain('Nothing has been charged for booking #42');
    expect(text).not.toContain('nothing more to pay');
    expect(hasContactLinks()).toBe(true);
  });

  it('a date that has gone since: not paid, and how to choose another', () => {
    const text = show(PAYMENT_MESSAGES.dateNoLongerAvailable);
    expect(text).toContain('Your booking (#42) has not been paid, and nothing has been charged');
    expect(text).toContain('We have kept everything you entered');
    expect(hasContactLinks()).toBe(true);
  });
});
