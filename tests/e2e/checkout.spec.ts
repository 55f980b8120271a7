import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { BUSINESS } from '../../src/content/business.ts';
import { PROJECT_STEPS } from '../../src/domain/project-steps.ts';
import { PENDING_BOOKING as pendingBooking, storePendingBooking as storeBooking } from '../fixtures/pending-booking.ts';

// The e2e server runs without Stripe keys, so /checkout shows its "not available" path; the
// success page's status call is answered by page.route (the real one needs a Stripe intent).

const UNDER_REVIEW = 'We have received your payment and are checking it. We will contact you within 24 hours.';
const PAYMENT_INTENT = 'pi_3TestIntent';
const CLIENT_SECRET = 'pi_3TestIntent_secret_abc123';
const SUCCESS_URL = `/payment-success?payment_intent=${PAYMENT_INTENT}&payment_intent_client_secret=${CLIENT_SECRET}&redirect_status=succeeded`;

const stored = (page: Page, key: string) => page.evaluate((name) => localStorage.getItem(name), key);

/** The value beside a label in a summary list (<dt>label</dt><dd>value</dd>). */
const valueOf = (page: Page, label: string) =>
  page.locator('dl > div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');

/** A status answer: just the paymentStatus, or it with more of the answer's fields. */
type StatusReply = string | { paymentStatus: string; [field: string]: unknown };

/**
 * Answers GET /api/payments/status, only for the intent and secret the redirect carried. Given a
 * list, the n-th call gets the n-th answer (the last one from then on), as when the webhook lands
 * while the page is asking.
 */
async function answerStatus(page: Page, replies: StatusReply | StatusReply[], details: Record<string, unknown> = {}) {
  const asked: string[] = [];
  const answers = (Array.isArray(replies) ? replies : [replies]).map((reply) =>
    typeof reply === 'string' ? { paymentStatus: reply } : reply,
  );
  await page.route('**/api/payments/status?*', (route) => {
    const url = new URL(route.request().url());
    asked.push(url.search);
    const matches = url.searchParams.get('payment_intent') === PAYMENT_INTENT && url.searchParams.get('client_secret') === CLIENT_SECRET;
    const answer = answers[Math.min(asked.length, answers.length) - 1];
    return matches
      ? route.fulfill({ json: { bookingId: 42, ...answer, ...details } })
      : route.fulfill({ status: 404, json: { error: 'Payment not found' } });
  });
  return asked;
}

test.describe('/checkout', () => {
  test('shows the booking summary and says plainly that online payment is not available', async ({ page }) => {
    const outside: string[] = [];
    page.on('request', (request) => {
      if (/stripe|create-payment-intent/.test(request.url())) outside.push(request.url());
    });
    await storeBooking(page, pendingBooking);
    await page.goto('/checkout');

    const summary = page.getByRole('region', { name: 'Business Pack Reverse Graffiti' });
    await expect(summary).toBeVisible();
    await expect(valueOf(page, 'Booking ID')).toHaveText('#42');
    await expect(valueOf(page, 'Patches')).toHaveText('10');
    await expect(valueOf(page, 'Date')).toHaveText('14 July 2027');
    await expect(valueOf(page, 'Location')).toHaveText(pendingBooking.locationAddress);
    await expect(page.getByTestId('checkout-total')).toHaveText('£799');

    const notice = page.getByRole('alert').filter({ hasText: "Online payment isn't available right now" });
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('Your booking is saved with booking ID #42');
    await expect(notice.getByRole('link', { name: BUSINESS.phone })).toHaveAttribute('href', BUSINESS.phoneHref);
    await expect(notice.getByRole('link', { name: BUSINESS.email })).toHaveAttribute('href', BUSINESS.emailHref);
    await expect(page.getByText('Setting up secure payment...')).toHaveCount(0);
    // Without a publishable key the page neither loads Stripe.js nor asks for an intent.
    expect(outside).toEqual([]);
    // The booking stays stored until the success page takes it.
    expect(await stored(page, 'pendingBooking')).not.toBeNull();
  });

  test('names a one-patch booking Test Item', async ({ page }) => {
    await storeBooking(page, { ...pendingBooking, quantity: '1', workType: 'day', totalPrice: 45 });
    await page.goto('/checkout');
    await expect(page.getByRole('heading', { level: 2, name: 'Test Item' })).toBeVisible();
    await expect(page.getByTestId('checkout-total')).toHaveText('£45');
  });

  test('sends a visitor without a pending booking to /booking', async ({ page }) => {
    await storeBooking(page, null);
    await page.goto('/checkout');
    await expect(page.getByRole('heading', { name: "There's no booking to pay for yet" })).toBeVisible();
    const link = page.getByRole('link', { name: 'Start your booking' });
    await expect(link).toHaveAttribute('href', '/booking');
    await link.click();
    await expect(page).toHaveURL(/\/booking$/);
  });

  test('has no accessibility violations @desktop', async ({ page }) => {
    await storeBooking(page, pendingBooking);
    await page.goto('/checkout');
    await expect(page.getByText("Online payment isn't available right now")).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });
});

test.describe('/payment-success', () => {
  test('shows the paid booking, its estimated completion and what happens next, and removes pendingBooking', async ({ page }) => {
    const asked = await answerStatus(page, 'paid');
    await storeBooking(page, pendingBooking);
    await page.goto(SUCCESS_URL);

    await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible();
    expect(asked).toHaveLength(1);
    await expect(page.getByTestId('toast')).toContainText('Payment Successful');
    await expect(page.getByTestId('toast')).toContainText('Your booking has been confirmed!');
    await expect(valueOf(page, 'Booking ID')).toHaveText('#42');
    await expect(valueOf(page, 'Patches')).toHaveText('10');
    await expect(valueOf(page, 'Preferred date')).toHaveText('14 July 2027');
    await expect(valueOf(page, 'Work type')).toHaveText('Night');
    await expect(valueOf(page, 'Amount paid')).toHaveText('£799');
    await expect(valueOf(page, 'Estimated completion')).toHaveText('21 July 2027');

    const timeline = page.getByRole('region', { name: 'What happens next' });
    await expect(timeline.getByRole('listitem')).toHaveCount(5);
    for (const step of PROJECT_STEPS) {
      await expect(timeline).toContainText(step.name);
      await expect(timeline).toContainText(step.timeframe);
    }
    await expect(page.getByRole('region', { name: 'Need help?' }).getByRole('link', { name: BUSINESS.phone })).toBeVisible();
    const next = page.getByRole('navigation', { name: 'Where next' });
    await expect(next.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    await expect(next.getByRole('link', { name: 'See our work' })).toHaveAttribute('href', '/gallery');
    await expect(next.getByRole('link', { name: 'Book more patches' })).toHaveAttribute('href', '/booking');

    expect(await stored(page, 'pendingBooking')).toBeNull();
    // A reload still shows the booking (kept under lastBooking).
    await page.reload();
    await expect(valueOf(page, 'Estimated completion')).toHaveText('21 July 2027');
  });

  test('prefers the server’s figures to this browser’s copy, and shows them with no copy at all', async ({ page }) => {
    await answerStatus(page, 'paid', { amountPaid: 689, preferredDate: '2027-07-20', quantity: 12, workType: 'day' });
    await storeBooking(page, pendingBooking);
    await page.goto(SUCCESS_URL);

    await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible();
    await expect(valueOf(page, 'Patches')).toHaveText('12');
    await expect(valueOf(page, 'Preferred date')).toHaveText('20 July 2027');
    await expect(valueOf(page, 'Work type')).toHaveText('Day');
    await expect(valueOf(page, 'Amount paid')).toHaveText('£689');
    await expect(valueOf(page, 'Estimated completion')).toHaveText('27 July 2027');

    await storeBooking(page, null);
    await page.goto(SUCCESS_URL);
    await expect(valueOf(page, 'Booking ID')).toHaveText('#42');
    await expect(valueOf(page, 'Amount paid')).toHaveText('£689');
    await expect(valueOf(page, 'Patches')).toHaveText('12');
  });

  test('says a payment is still processing and does not call it paid', async ({ page }) => {
    await answerStatus(page, 'processing');
    await storeBooking(page, { ...pendingBooking, workType: undefined });
    await page.goto(SUCCESS_URL);

    await expect(page.getByRole('heading', { level: 1, name: 'Your payment is processing' })).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText('Processing');
    await expect(valueOf(page, 'Amount due')).toHaveText('£799');
    await expect(valueOf(page, 'Amount paid')).toHaveCount(0);
    // Work type defaults to Day.
    await expect(valueOf(page, 'Work type')).toHaveText('Day');
    await expect(page.getByTestId('toast')).toHaveCount(0);
    expect(await stored(page, 'pendingBooking')).toBeNull();
  });

  test('asks again while the payment is processing and confirms it once the webhook has landed', async ({ page }) => {
    const asked = await answerStatus(page, ['processing', 'processing', 'paid']);
    await storeBooking(page, pendingBooking);
    await page.goto(SUCCESS_URL);

    await expect(page.getByRole('heading', { level: 1, name: 'Your payment is processing' })).toBeVisible();
    await expect(page.getByTestId('toast')).toHaveCount(0);
    // The page asks again after 1 s and 2 s; the third answer is paid.
    await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible({ timeout: 15_000 });
    await expect(page.getByTestId('payment-status')).toHaveText('Paid');
    await expect(page.getByTestId('toast')).toContainText('Payment Successful');
    await expect(page.getByTestId('toast')).toContainText('Your booking has been confirmed!');
    await expect(valueOf(page, 'Amount paid')).toHaveText('£799');
    expect(asked).toHaveLength(3);
  });

  test('stops asking after six answers of processing and keeps saying so', async ({ page }) => {
    // The page's clock is driven by the test, so half a minute of back-off passes at once.
    await page.clock.install();
    const asked = await answerStatus(page, 'processing');
    await storeBooking(page, pendingBooking);
    await page.goto(SUCCESS_URL);
    await expect(page.getByRole('heading', { level: 1, name: 'Your payment is processing' })).toBeVisible();

    await expect
      .poll(async () => {
        await page.clock.runFor(16_000);
        return asked.length;
      })
      .toBe(6);
    await page.clock.runFor(10 * 60_000);
    await expect(page.getByRole('heading', { level: 1, name: 'Your payment is processing' })).toBeVisible();
    await expect(page.getByTestId('toast')).toHaveCount(0);
    expect(asked).toHaveLength(6);
  });

  test('says honestly that a payment is being checked when the server says so, and stops asking', async ({ page }) => {
    // The webhook found the amount did not match while the page was asking.
    await page.clock.install();
    const asked = await answerStatus(page, ['processing', { paymentStatus: 'processing', message: UNDER_REVIEW }]);
    await storeBooking(page, pendingBooking);
    await page.goto(SUCCESS_URL);
    await expect(page.getByText("Your bank is still confirming the payment. You don't need to pay again")).toBeVisible();

    await expect
      .poll(async () => {
        await page.clock.runFor(1_000);
        return asked.length;
      })
      .toBe(2);

    await expect(page.getByText(UNDER_REVIEW)).toBeVisible();
    await expect(page.getByText('Your bank is still confirming the payment')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1, name: 'Your payment is processing' })).toBeVisible();
    await expect(page.getByTestId('payment-status')).toHaveText('Processing');
    await expect(valueOf(page, 'Amount paid')).toHaveCount(0);
    await expect(page.getByTestId('toast')).toHaveCount(0);
    // Nothing will change in the next half minute: the page does not keep asking.
    await page.clock.runFor(10 * 60_000);
    expect(asked).toHaveLength(2);
  });

  test('says a failed payment did not go through and lets the visitor try again', async ({ page }) => {
    await answerStatus(page, 'failed');
    await storeBooking(page, pendingBooking);
    await page.goto(SUCCESS_URL);

    await expect(page.getByRole('heading', { level: 1, name: 'Your payment did not go through' })).toBeVisible();
    // The booking is put back so checkout can take the payment again.
    await expect.poll(() => stored(page, 'pendingBooking')).not.toBeNull();
    await page.getByRole('link', { name: 'Try the payment again' }).click();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(page.getByRole('heading', { level: 2, name: 'Business Pack Reverse Graffiti' })).toBeVisible();
  });

  test('does not claim success when the payment cannot be checked', async ({ page }) => {
    await answerStatus(page, 'paid');
    await storeBooking(page, pendingBooking);
    // A secret that is not the intent's: the server answers 404.
    await page.goto(`/payment-success?payment_intent=${PAYMENT_INTENT}&payment_intent_client_secret=forged`);
    await expect(page.getByRole('heading', { level: 1, name: "We couldn't check your payment here" })).toBeVisible();
    await expect(page.getByText('Payment received')).toHaveCount(0);
    await expect(valueOf(page, 'Booking ID')).toHaveText('#42');
  });

  test('has no accessibility violations @desktop', async ({ page }) => {
    await answerStatus(page, 'paid');
    await storeBooking(page, pendingBooking);
    await page.goto(SUCCESS_URL);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment received' })).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((violation) => violation.id)).toEqual([]);
  });
});
