import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { testSettings } from '../../src/server/env.ts';
import { REVIEW_POLICY } from '../../src/content/review-policy.ts';
import { DEMO_REVIEW_LINK_FILE } from '../../db/seed.ts';

// After the sale: an enquiry from /contact, the invited review on /review and the public page
// of a completed project. These specs add an enquiry and a published review, so
// playwright.config.ts runs them after the specs that count the seeded ones. On their own:
//   npm run test:e2e -- tests/e2e/customer-after-sale.spec.ts --no-deps --workers=1

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`)).toEqual([]);
}

/** The link db/seed.ts created for the latest completed demo booking (Tom's). */
function seededReviewPath(): string {
  const dataDir = testSettings().e2eDataDir;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the browser tests with npm run test:e2e');
  const url = new URL(readFileSync(path.join(dataDir, DEMO_REVIEW_LINK_FILE), 'utf8').trim());
  return `${url.pathname}${url.search}`;
}

/** The form hydrates when scrolled into view; typing before that would be lost. */
async function openContactForm(page: Page) {
  await page.goto('/contact');
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.scrollIntoViewIfNeeded();
  await expect(page.locator('astro-island', { has: form })).not.toHaveAttribute('ssr');
  return form;
}

async function firstCompletedProjectId(request: APIRequestContext): Promise<number> {
  for (let id = 1; id <= 20; id += 1) {
    if ((await request.get(`/api/gallery/${id}`)).ok()) return id;
  }
  throw new Error('The seed has no completed project');
}

test.describe('contact form on /contact', () => {
  test('shows each error beside its field, then sends, thanks and resets', async ({ page }) => {
    const form = await openContactForm(page);
    const send = form.getByRole('button', { name: 'Send Message' });
    await send.click();

    const firstName = form.getByLabel('First name');
    await expect(firstName).toBeFocused();
    await expect(firstName).toHaveAccessibleDescription(/First name is required/);
    await expect(form.getByLabel('Last name')).toHaveAccessibleDescription(/Last name is required/);
    await expect(form.getByLabel('Email')).toHaveAccessibleDescription(/Valid email is required/);
    await expect(form.getByLabel('Inquiry type')).toHaveAccessibleDescription(/Please select an inquiry type/);
    await expect(form.getByLabel('Message')).toHaveAccessibleDescription(/Message must be at least 10 characters/);
    await expectNoSeriousAxeViolations(page);

    await firstName.fill('Megan');
    await expect(form.getByText('First name is required')).toHaveCount(0);
    await form.getByLabel('Last name').fill('Clarke');
    await form.getByLabel('Email').fill('megan@lanternevents.co.uk');
    await form.getByLabel('Inquiry type').selectOption('Custom Quote');
    await form.getByLabel('Message').fill('Too short');
    await send.click();
    await expect(form.getByLabel('Message')).toBeFocused();
    await expect(form.getByLabel('Message')).toHaveAccessibleDescription(/Message must be at least 10 characters/);

    await form.getByLabel('Message').fill('Twelve patches around the arena for our festival weekend, please.');
    await send.click();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Message Sent Successfully!');
    await expect(toast).toContainText("We'll get back to you within 24 hours.");
    for (const label of ['First name', 'Last name', 'Email', 'Message']) await expect(form.getByLabel(label)).toHaveValue('');
    await expect(form.getByLabel('Inquiry type')).toHaveValue('');
    await expect(send).toBeEnabled();
  });

  test("says 'Failed to Send Message' with the server's words, keeping what was typed", async ({ page }) => {
    await page.route('**/api/contacts', (route) =>
      route.fulfill({ status: 429, json: { error: 'Too many requests. Please wait a moment and try again.' } }),
    );
    const form = await openContactForm(page);
    await form.getByLabel('First name').fill('Megan');
    await form.getByLabel('Last name').fill('Clarke');
    await form.getByLabel('Email').fill('megan@lanternevents.co.uk');
    await form.getByLabel('Inquiry type').selectOption('Partnership');
    await form.getByLabel('Message').fill('We would like to work together on events.');
    await form.getByRole('button', { name: 'Send Message' }).click();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Failed to Send Message');
    await expect(toast).toContainText('Too many requests. Please wait a moment and try again.');
    await expect(form.getByLabel('First name')).toHaveValue('Megan');
  });
});

test.describe('review by invitation on /review', () => {
  // The seeded link works once, so one viewport spends it.
  test('takes the review once; the link then says it has been used @desktop', async ({ page }) => {
    const reviewPath = seededReviewPath();
    await page.goto(reviewPath);
    await expect(page.getByRole('heading', { name: 'Review your project, Tom' })).toBeVisible();
    await expect(page.getByText(REVIEW_POLICY.points[0])).toBeVisible();
    await expectNoSeriousAxeViolations(page);

    const submit = page.getByRole('button', { name: 'Submit Review' });
    await submit.click();
    await expect(page.getByText('Please choose an overall rating from 1 to 5 stars')).toBeVisible();

    // The stars are a radio group: arrow keys move the choice.
    const overall = page.getByRole('group', { name: /Overall rating/ });
    await overall.getByRole('radio', { name: '1 star' }).focus();
    await page.keyboard.press('Space');
    for (let step = 0; step < 3; step += 1) await page.keyboard.press('ArrowRight');
    await expect(overall.getByRole('radio', { name: '4 stars' })).toBeChecked();
    await expect(page.getByText('Please choose an overall rating from 1 to 5 stars')).toHaveCount(0);

    await page.locator('label[for="timeliness-5"]').click();
    await expect(page.getByRole('group', { name: /Timeliness/ }).getByRole('radio', { name: '5 stars' })).toBeChecked();
    const words = 'The bike logo outside the shop drew people in all week. Booked, approved and done fast.';
    await page.getByLabel('Your review').fill(words);
    await submit.click();
    await expect(page.getByRole('heading', { name: 'Thank you, Tom!' })).toBeVisible();

    await page.goto(reviewPath);
    await expect(page.getByRole('heading', { name: 'This review link can no longer be used' })).toBeVisible();

    // Published at once, signed with first name and initial.
    const reviews = (await (await page.request.get('/api/reviews/public')).json()) as Array<{ reviewText: string; customerName: string; rating: number }>;
    expect(reviews.find((review) => review.reviewText === words)).toMatchObject({ customerName: 'Tom B.', rating: 4 });
  });

  test('explains a missing link and an unknown one, accessibly', async ({ page }) => {
    await page.goto('/review');
    await expect(page.getByRole('heading', { name: 'Review link needed' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
    await expectNoSeriousAxeViolations(page);

    await page.goto('/review?t=not-a-real-token');
    await expect(page.getByRole('heading', { name: 'Review link not found' })).toBeVisible();
  });
});

test.describe('public project page /gallery/{id}', () => {
  test('shows a completed project: area, date, patches, and nothing about the customer', async ({ page, request }) => {
    const id = await firstCompletedProjectId(request);
    const response = await page.goto(`/gallery/${id}`);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1, name: /^Reverse graffiti in / })).toBeVisible();
    await expect(page.getByText('Patches', { exact: true })).toBeVisible();
    await expect(page.getByText('Completed', { exact: true })).toBeVisible();
    await expect(page).toHaveTitle(/^Completed project in .+ \| Clean Patch$/);
    const text = await page.locator('main').innerText();
    for (const personal of ['Priya', 'Shah', 'Tom', 'Birchall', '@', 'Street', '£']) expect(text).not.toContain(personal);
    await expectNoSeriousAxeViolations(page);
  });

  test('says when a project is not public', async ({ page }) => {
    await page.goto('/gallery/987654');
    await expect(page.getByRole('heading', { name: 'Project not found' })).toBeVisible();
  });

  test('shows the review policy beside the reviews on /gallery', async ({ page }) => {
    await page.goto('/gallery');
    const policy = page.getByRole('region', { name: REVIEW_POLICY.title });
    for (const point of REVIEW_POLICY.points) await expect(policy).toContainText(point);
  });
});
