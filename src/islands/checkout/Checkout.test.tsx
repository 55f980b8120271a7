// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PAYMENT_MESSAGES } from '../../content/payment-messages.ts';
import { Unavailable } from './CheckoutNotices.tsx';
import { PENDING_BOOKING_KEY, type PendingBooking } from './pending-booking.ts';
import { DATE_STILL_TAKEN } from './ChooseAnotherDate.tsx';

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

describe('/checkout: choosing another date after a customer paid first for this one', () => {
  let root: Root;
  let container: HTMLElement;
  const posted: unknown[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: {} };
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
    posted.length = 0;
    vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
      if (url.includes('/api/bookings/unavailable-dates')) return Response.json({ unavailableDates: ['2027-08-01'] });
      posted.push(JSON.parse(String(init?.body)));
      return Response.json(answer.body, { status: answer.status });
    });
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
    vi.unstubAllGlobals();
  });
  const type = async (value: string) => {
    const field = container.querySelector<HTMLInputElement>('#checkout-new-date')!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(field, value);
      field.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await act(async () => {
      container.querySelector('form')!.dispatchEvent(new Event('submit', { bubbles: true, cancelable: true }));
    });
  };
  const errorText = () => container.querySelector('#checkout-new-date-error')?.textContent?.replace('Error: ', '');

  it('refuses a date known to be full, shows the server’s refusal, and carries on with the new date', async () => {
    const chosen: PendingBooking[] = [];
    const withToken = { ...booking, checkoutToken: 'token-42' };
    await act(async () =>
      root.render(<Unavailable setup={{ kind: 'conflict', message: PAYMENT_MESSAGES.dateNoLongerAvailable }} booking={withToken} onRetry={() => {}} onDateChosen={(next) => chosen.push(next)} />),
    );
    await type('2027-08-01');
    expect(errorText()).toBe(DATE_STILL_TAKEN);
    expect(posted).toEqual([]);

    answer = { status: 409, body: { error: '2 August 2027 is closed. Please choose another day.' } };
    await type('2027-08-02');
    expect(errorText()).toBe('2 August 2027 is closed. Please choose another day.');

    answer = { status: 200, body: { bookingId: 42, preferredDate: '2027-08-03' } };
    await type('2027-08-03');
    expect(posted.at(-1)).toEqual({ bookingId: 42, checkoutToken: 'token-42', date: '2027-08-03' });
    expect(chosen).toEqual([{ ...withToken, preferredDate: '2027-08-03' }]);
    expect(JSON.parse(localStorage.getItem(PENDING_BOOKING_KEY)!)).toMatchObject({ preferredDate: '2027-08-03', quantity: '10' });
  });

  it("offers days from today in the UK: at 00:30 in London (23:30 UTC) yesterday is no longer offered", async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2027-07-14T23:30:00Z'));
    try {
      await act(async () =>
        root.render(<Unavailable setup={{ kind: 'conflict', message: PAYMENT_MESSAGES.dateNoLongerAvailable }} booking={{ ...booking, checkoutToken: 't' }} onRetry={() => {}} onDateChosen={() => {}} />),
      );
      expect(container.querySelector<HTMLInputElement>('#checkout-new-date')!.min).toBe('2027-07-15');
    } finally {
      vi.useRealTimers();
    }
  });
});
