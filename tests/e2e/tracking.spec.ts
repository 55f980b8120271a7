import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { BUSINESS } from '../../src/content/business.ts';
import { PROJECT_STEPS } from '../../src/domain/project-steps.ts';
import { DEMO_TRACKING_TOKEN } from '../../db/seed.ts';

// /track-project against the seeded server (db/seed.ts): demo bookings get ids 1..6 in seed
// order. Booking 1 is completed with photos and has the seed's fixed demo link; 3 is at step 4,
// 4 at step 2, 5 at step 1. Every test tracks from the same address and the limit is 10 tries
// in 10 minutes per client, so the step-by-step checks run once (@desktop) and the phone runs
// only the link.

const NOT_FOUND = 'Booking not found. Please check your email and booking ID are correct.';
const SEEDED = {
  1: { email: 'priya@northernroast.example', step: 5, completed: true },
  3: { email: 'aisha@balticyoga.example', step: 4, completed: false },
  4: { email: 'gareth@quaysidegin.example', step: 2, completed: false },
  5: { email: 'hannah@kelhambooks.example', step: 1, completed: false },
} as const;

async function trackByForm(page: Page, email: string, bookingId: number) {
  await page.goto('/track-project');
  const button = page.getByRole('button', { name: 'Track Project' });
  await expect(button).toBeDisabled();
  await page.getByLabel('Email').fill(email);
  await expect(button).toBeDisabled();
  await page.getByLabel('Booking ID').fill(String(bookingId));
  await expect(button).toBeEnabled();
  await button.click();
}

const stepItem = (page: Page, step: number) => page.getByTestId('timeline').locator(`li[data-step="${step}"]`);

test('shows each seeded booking at its own step, with text badges and dates @desktop', async ({ page }) => {
  for (const [id, booking] of Object.entries(SEEDED).filter(([id]) => id !== '1')) {
    await trackByForm(page, booking.email, Number(id));
    await expect(page.getByRole('heading', { name: `Booking #${id}` })).toBeFocused();
    for (const step of PROJECT_STEPS) {
      const item = stepItem(page, step.step);
      if (step.step < booking.step) {
        await expect(item.getByText('Completed', { exact: true })).toBeVisible();
      } else if (step.step === booking.step) {
        await expect(item.getByText('Current Step', { exact: true })).toBeVisible();
      } else {
        await expect(item.getByText('Current Step', { exact: true })).toHaveCount(0);
        await expect(item.getByText('Completed', { exact: true })).toHaveCount(0);
      }
    }
    // The seed stamps each reached step's date on the preferred date's morning.
    await expect(stepItem(page, 1).locator('time')).toHaveCount(1);
    if (booking.step < 4) await expect(page.getByTestId('photos-empty')).toBeVisible();
  }
  await expect(page.getByRole('heading', { name: 'Need help?' })).toBeVisible();
  await expect(page.locator('#main').getByRole('link', { name: BUSINESS.phone })).toBeVisible();

  await page.getByRole('button', { name: 'Track another project' }).click();
  await expect(page.getByLabel('Email')).toHaveValue('');
  await expect(page.getByLabel('Email')).toBeFocused();
});

test("answers a wrong e-mail with the spec's message in an alert @desktop", async ({ page }) => {
  await trackByForm(page, 'someone@else.example', 1);
  await expect(page.getByRole('alert')).toHaveText(NOT_FOUND);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);
});

test('opens a completed project from its e-mail link and removes the token from the address @mobile', async ({ page }) => {
  const event = page.waitForRequest((request) => request.url().endsWith('/api/analytics/event'));
  await page.goto(`/track-project?t=${DEMO_TRACKING_TOKEN}`);
  await expect(page.getByRole('heading', { name: 'Booking #1' })).toBeVisible();
  expect(new URL(page.url()).search).toBe('');
  expect((await event).postDataJSON()).toEqual({ eventName: 'tracking_viewed', path: '/track-project' });
  for (const step of PROJECT_STEPS) await expect(stepItem(page, step.step).getByText('Completed', { exact: true })).toBeVisible();
  const gallery = page.getByRole('region', { name: 'Project photos' });
  await expect(gallery.getByRole('heading', { name: 'Step 4: On-Site Installation' })).toBeVisible();
  await expect(gallery.getByRole('heading', { name: 'Step 5: Photo Documentation' })).toBeVisible();
  await expect(gallery.getByRole('link', { name: /^Download/ }).first()).toHaveAttribute('href', /^\/uploads\/[\w-]+\.png\?download=1$/);
  await expect(gallery.getByText(/\d+(\.\d+)? KB/).first()).toBeVisible();
  // The thumbnails really load from /uploads.
  const thumbnail = gallery.locator('img').first();
  await thumbnail.scrollIntoViewIfNeeded();
  await expect.poll(() => thumbnail.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
});

test('walks the photos in the lightbox by keyboard and returns focus @desktop', async ({ page }) => {
  await page.goto(`/track-project?t=${DEMO_TRACKING_TOKEN}`);
  const thumbnails = page.getByRole('button', { name: /^Open photo \d+ of \d+/ });
  await expect(thumbnails.first()).toBeVisible();
  const total = await thumbnails.count();
  expect(total).toBeGreaterThan(1);

  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => violation.id)).toEqual([]);

  await thumbnails.first().focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: `Photo 1 of ${total}` })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(dialog.getByRole('heading', { name: `Photo 2 of ${total}` })).toBeVisible();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByRole('heading', { name: `Photo ${total} of ${total}` })).toBeVisible();
  await expect(dialog.getByRole('link', { name: /^Download/ })).toBeVisible();
  // Tab stays inside the dialog.
  for (let press = 0; press < 5; press += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(thumbnails.first()).toBeFocused();
});

test('a bad or used link says it has expired and offers the form @mobile', async ({ page }) => {
  // A client address of its own: the failed link spends one of the per-client tries.
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}` });
  await page.goto('/track-project?t=NoSuchLinkNoSuchLinkNoSuch-2026');
  await expect(page.getByRole('alert')).toHaveText(
    'This tracking link has expired. Enter the e-mail address you booked with and your booking ID below to see your project.',
  );
  await expect(page.getByRole('alert')).not.toContainText('check your email');
  await expect(page.getByLabel('Email')).toBeEditable();
  await expect(page.getByLabel('Booking ID')).toBeEditable();
  expect(new URL(page.url()).search).toBe('');
});
