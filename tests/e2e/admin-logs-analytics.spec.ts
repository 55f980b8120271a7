import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

async function openTab(page: Page, name: 'Logs' | 'Analytics') {
  await signInAsStaff(page, name);
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
}

async function expectNoSeriousViolations(page: Page) {
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

test.describe('admin Logs tab', () => {
  test('shows the stats, filters by channel, and says when nothing matches', async ({ page }) => {
    await openTab(page, 'Logs');
    const rows = page.getByTestId('log-row');
    // Newest first: other specs on this shared server may have written many since the seed.
    await expect(rows.first()).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Top channels' })).toBeVisible();
    await expect(page.getByText('Total logs')).toBeVisible();

    await page.getByLabel('Channel', { exact: true }).selectOption('database');
    await expect(rows.filter({ hasText: 'booking_created' })).toHaveCount(0);
    await expect(rows.filter({ hasText: 'Demo data added by npm run db:seed' })).toHaveCount(1);
    await expect(rows.first().getByRole('cell').nth(1)).toHaveText('database');

    await page.getByLabel('Channel', { exact: true }).selectOption('');
    await page.getByLabel('Search', { exact: true }).fill('no log says this 7f3a');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.getByText('No logs matching these filters.')).toBeVisible();
    await expect(rows).toHaveCount(0);

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(rows.first()).toBeVisible();
    // The wide table scrolls inside its box: the page itself never becomes wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(await page.evaluate(() => window.visualViewport!.width));
    await expectNoSeriousViolations(page);
  });
});

test.describe('admin Analytics tab', () => {
  test('shows the seeded page views, the top lists and an accessible daily chart', async ({ page }) => {
    await openTab(page, 'Analytics');
    // db/seed.ts records 7 page views today, three of them of '/', all in the United Kingdom.
    const topPages = page.getByRole('region', { name: 'Top pages (7 days)' });
    await expect(topPages).toContainText('Home Page');
    await expect(page.getByRole('region', { name: 'Top countries (7 days)' })).toContainText('United Kingdom');
    await expect(page.getByRole('region', { name: 'Top cities (7 days)' })).toContainText('Manchester');
    // Staff are not visitors: signing in just now viewed /admin, which is not counted.
    await expect(topPages).not.toContainText('/admin');
    // Events read as words (domain/analytics-events.ts), never as their stored names.
    const events = page.getByRole('region', { name: 'User events (24 hours)' });
    await expect(events).toContainText('Booking form started');
    await expect(events).not.toContainText('_');
    const about = page.getByRole('complementary', { name: 'About this tracking' });
    await expect(about).toContainText('No cookies and no local storage');
    await expect(about).toContainText('Staff are not counted');

    const chart = page.getByRole('img', { name: /Daily page views, last 30 days/ });
    await expect(chart).toBeVisible();
    // Thirty days in the hidden table, the last of them holding today's views.
    const table = page.getByRole('table', { name: 'Page views per day, last 30 days' });
    await expect(table.getByRole('row')).toHaveCount(31);
    const today = Number(await table.getByRole('row').last().getByRole('cell').textContent());
    expect(today).toBeGreaterThanOrEqual(7);
    await expectNoSeriousViolations(page);
  });
});

test.describe('events from public pages', () => {
  test('the booking page sends booking_started once, on the first input', async ({ page }) => {
    const events: string[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/analytics/event')) events.push(String(request.postDataJSON()?.eventName));
    });
    await page.route(/^https:\/\/[a-z]\.tile\.openstreetmap\.org\//, (route) => route.fulfill({ status: 204, body: '' }));
    await page.goto('/booking');
    // Astro drops the island's `ssr` attribute once React has hydrated it.
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    const started = page.waitForRequest((request) => request.url().endsWith('/api/analytics/event') && request.postDataJSON()?.eventName === 'booking_started');
    await page.getByLabel('First name').fill('Ada');
    const request = await started;
    expect(request.postDataJSON()).toEqual({ eventName: 'booking_started', path: '/booking' });

    // More typing sends nothing more: a request issued after these inputs marks the point to count at.
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Email').fill('ada@analytical.example');
    await page.evaluate(() => fetch('/api/health'));
    expect(events).toEqual(['booking_started']);
  });
});
