import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { DEMO_CREW_LINK_FILE, DEMO_CREW_TOMORROW_LINK_FILE } from '../../db/seed.ts';
import { crewDayLabel } from '../../src/domain/crew.ts';
import { testSettings } from '../../src/server/env.ts';
import { signInAsStaff } from '../fixtures/staff-setup.ts';
import { londonTomorrow } from '../../src/domain/schedule.ts';

// A crew's whole day on the seeded data, on a phone: open the link from the e-mail, On my way,
// a before photo, an after photo taken with no signal and sent when it returns, Done; and the
// customer's tracking page showing it. It changes the demo stops, so it runs after the specs
// that count them (playwright.config.ts).

const PHOTO = path.resolve('tests/fixtures/logo.png');

function crewLink(file = DEMO_CREW_LINK_FILE): URL {
  const dataDir = testSettings().e2eDataDir;
  if (!dataDir) throw new Error('E2E_DATA_DIR is not set: run the browser tests with npm run test:e2e');
  return new URL(readFileSync(path.join(dataDir, file), 'utf8').trim());
}

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

test('a crew works through a stop, with a photo taken offline sent when back online @mobile', async ({ page, context, browser }) => {
  test.setTimeout(120_000);
  await page.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  await context.grantPermissions(['geolocation']);
  await context.setGeolocation({ latitude: 53.4845, longitude: -2.229, accuracy: 15 });
  const link = crewLink();
  const token = link.searchParams.get('t')!;

  await page.goto(`${link.pathname}${link.search}`);
  const stop = page.getByTestId('crew-stop').first();
  await expect(stop).toBeVisible();
  // The token leaves the address bar once the page has it.
  await expect(page).toHaveURL(/\/crew$/);
  await expect(page.getByRole('heading', { name: 'Sam Carter’s stops' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Your stops in order' }).getByTestId('crew-stop')).toHaveCount(3);
  await expect(page.getByText('Night work, 6pm - 6am')).toBeVisible();
  // Staff scheduled Ellie's installation before she paid: her card says so, and only hers.
  const ellie = page.getByTestId('crew-stop').filter({ has: page.getByRole('heading', { name: /Ellie/ }) });
  await expect(ellie.getByTestId('crew-unpaid')).toHaveText('unpaid');
  await expect(page.getByTestId('crew-unpaid')).toHaveCount(1);
  await expect(stop.getByRole('link', { name: /Navigate/ })).toHaveAttribute('href', /^https:\/\/maps\.google\.com\/\?daddr=53\.48/);
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await shot(page, 'crew-day-375');

  const firstName = (await stop.getByRole('heading').textContent())!.replace(/^Stop \d+: /, '');
  await stop.getByRole('button', { name: 'On my way' }).click();
  await expect(stop.getByTestId('crew-status')).toHaveText(/^On the way · \d{2}:\d{2}$/);

  await stop.getByTestId('photo-before').setInputFiles(PHOTO);
  await expect(stop.getByText('✓ 1 sent')).toBeVisible();
  await expect(stop.getByTestId('crew-status')).toHaveText(/^Working · \d{2}:\d{2}$/);

  // No signal: the after photo waits on the phone, and says so.
  await context.setOffline(true);
  await stop.getByTestId('photo-after').setInputFiles(PHOTO);
  await expect(page.getByTestId('crew-waiting')).toContainText('1 photo waiting to upload');
  await expect(stop.getByText('1 photo waiting')).toBeVisible();
  await shot(page, 'crew-offline-375');
  await context.setOffline(false);
  await expect(page.getByTestId('crew-waiting')).toHaveCount(0);
  await expect(stop.locator('label', { hasText: 'After' })).toContainText('✓ 1 sent');
  await shot(page, 'crew-working-375');

  await stop.getByRole('button', { name: 'Mark done' }).click();
  await expect(stop.getByTestId('crew-status')).toHaveText(/^Done · \d{2}:\d{2}$/);
  await expect(stop).toContainText('2 photos sent; done at');
  await expect(page.getByText('1 of 3 stops done')).toBeVisible();
  await shot(page, 'crew-done-375');

  // Sent once each: the server holds one before and one after photo for the stop.
  const day = await (await page.request.get('/api/crew/day', { headers: { Authorization: `Bearer ${token}` } })).json();
  const served = day.stops.find((item: { customerFirstName: string }) => item.customerFirstName === firstName);
  expect(served.photos.map((photo: { photoType: string }) => photo.photoType).sort()).toEqual(['after', 'before']);
  expect(served.status).toBe('done');

  // The customer's tracking page shows the crew's news with the time.
  const emails: Record<string, string> = { Jamal: 'jamal@ancoatsbakehouse.example', Ellie: 'ellie@deansgateclimbing.example', Noah: 'noah@quaysnightmarket.example' };
  await page.goto('/track-project');
  // The form keeps early typing only once the island is awake.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
  await page.getByLabel('Email').fill(emails[firstName]!);
  await page.getByLabel('Booking ID').fill(String(served.bookingId));
  await page.getByRole('button', { name: 'Track Project' }).click();
  await expect(page.getByTestId('crew-status')).toContainText('Your patches are installed');
  await expect(page.getByTestId('crew-status')).toContainText(/Finished at \d{2}:\d{2}/);
  await expect(page.getByTestId('timeline').locator('li[data-step="4"]')).toHaveAttribute('data-state', 'current');
  await shot(page, 'crew-customer-tracking-375');

  // Staff see the same stop done, with the time and the worker, in the Workers tab's crew day,
  // and only on its own day.
  const office = await browser.newContext({ viewport: page.viewportSize()! });
  const staff = await office.newPage();
  await staff.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  await signInAsStaff(staff, 'Workers');
  const panel = staff.getByTestId('crew-day-panel');
  const today = panel.getByRole('button', { name: 'Today' });
  await expect(today).toHaveAttribute('aria-pressed', 'true');
  const servedRow = panel.getByTestId('crew-board-stop').filter({ hasText: new RegExp(`#${served.bookingId}(?!\\d)`) });
  await expect(servedRow).toContainText(/Done \d{2}:\d{2} · Sam Carter/);
  await shot(staff, 'crew-board-375');
  await panel.getByRole('button', { name: 'Tomorrow' }).click();
  await expect(panel.getByRole('button', { name: 'Tomorrow' })).toHaveAttribute('aria-pressed', 'true');
  await expect(today).toHaveAttribute('aria-pressed', 'false');
  await expect(panel.locator(`[data-date="${londonTomorrow(new Date())}"]`)).toBeVisible();
  await expect(servedRow).toHaveCount(0);
  await office.close();
});

test("a link opened before its day says which day it opens @mobile", async ({ page }) => {
  const link = crewLink(DEMO_CREW_TOMORROW_LINK_FILE);
  await page.goto(`${link.pathname}${link.search}`);
  await expect(page.getByRole('heading', { name: 'Your day has not started' })).toBeVisible();
  const tomorrow = londonTomorrow(new Date());
  await expect(page.getByText(`This link opens on ${crewDayLabel(tomorrow)}`)).toBeVisible();
  await expect(page.getByTestId('crew-stop')).toHaveCount(0);
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await shot(page, 'crew-link-not-yet-375');
});

test('a link that does not work says so and offers nothing else @mobile', async ({ page }) => {
  await page.goto('/crew?t=NotARealCrewLinkToken-000000000');
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await expect(page.getByText('This crew link is not valid. Ask the office for a new one.')).toBeVisible();
  const response = await page.request.get('/crew');
  expect(response.headers()['permissions-policy']).toBe('camera=(), microphone=(), geolocation=(self), payment=()');
  expect(await response.text()).toContain('<meta name="robots" content="noindex"');
  await shot(page, 'crew-link-ended-375');
});
