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

// The tests share the seeded stops and count the ones done: one at a time, in this order.
test.describe.configure({ mode: 'default' });

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
  await stop.getByRole('button', { name: 'Yes, it’s done' }).click();
  await expect(stop.getByTestId('crew-status')).toHaveText(/^Done · \d{2}:\d{2}$/);
  await expect(stop.getByTestId('crew-done')).toContainText(/Done at \d{2}:\d{2}/);
  await expect(stop.getByTestId('crew-done')).toContainText('2 photos sent');
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

test("a stop's card has the customer's instructions, the stencil, a call to the office, and Done asked once and undone @mobile", async ({ page }) => {
  test.setTimeout(90_000);
  await page.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  // The page's clock, moved on at the end to see the undo window close.
  await page.clock.install();
  const link = crewLink();
  const token = link.searchParams.get('t')!;
  const serverStop = async (bookingId: number) => {
    const day = await (await page.request.get('/api/crew/day', { headers: { Authorization: `Bearer ${token}` } })).json();
    return day.stops.find((item: { bookingId: number }) => item.bookingId === bookingId) as { status: string; photos: { photoType: string }[] };
  };
  await page.goto(`${link.pathname}${link.search}`);
  const stops = page.getByTestId('crew-stop');
  await expect(stops).toHaveCount(3);

  // The seeded instructions, each on its own customer's card only.
  const jamal = stops.filter({ has: page.getByRole('heading', { name: /Jamal/ }) });
  await expect(jamal.getByTestId('crew-instructions')).toContainText('Access via the side alley off Blossom Street.');
  await expect(jamal.getByTestId('crew-stencil')).toContainText('ancoats-bakehouse-logo.png');
  await expect(jamal.getByTestId('crew-stencil')).toContainText('600 x 400 mm');
  const ellie = stops.filter({ has: page.getByRole('heading', { name: /Ellie/ }) });
  await expect(ellie.getByTestId('crew-instructions')).toHaveCount(0);
  await expect(ellie.getByTestId('crew-stencil')).toContainText('No approved stencil proof yet');
  // Ellie's two streets: one tap navigates through both.
  const navigate = ellie.getByRole('link', { name: /Navigate/ });
  await expect(navigate).toContainText('Navigate (2)');
  const directions = new URL((await navigate.getAttribute('href'))!);
  expect(directions.searchParams.get('waypoints')).toBe('53.479400,-2.248700');
  expect(directions.searchParams.get('destination')).toBe('53.481000,-2.243700');

  // One tap calls the office.
  const call = jamal.getByRole('link', { name: /Call the office/ });
  await expect(call).toHaveAttribute('href', 'tel:+441614960123');
  await expect(call).toContainText('0161 496 0123');
  const box = (await call.boundingBox())!;
  expect(box.height).toBeGreaterThanOrEqual(44);
  await jamal.scrollIntoViewIfNeeded();
  await shot(page, 'crew-card-375');

  // The stop this test works on: one with instructions that the first test left alone.
  const target = (await stops.first().getByRole('heading').textContent())!.includes('Jamal')
    ? stops.filter({ has: page.getByRole('heading', { name: /Noah/ }) })
    : jamal;
  const bookingId = Number(await target.getAttribute('data-booking-id'));
  await expect(target.getByTestId('crew-instructions')).toBeVisible();

  // Done asks once; "Not yet" changes nothing.
  await target.getByRole('button', { name: 'Mark done' }).click();
  const question = target.getByRole('group', { name: /Mark .+’s stop done\?/ });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Yes, it’s done' })).toBeFocused();
  await shot(page, 'crew-confirm-done-375');
  await question.getByRole('button', { name: 'Not yet' }).click();
  await expect(question).toHaveCount(0);
  expect((await serverStop(bookingId)).status).not.toBe('done');

  await target.getByRole('button', { name: 'Mark done' }).click();
  await question.getByRole('button', { name: 'Yes, it’s done' }).click();
  await expect(target.getByTestId('crew-status')).toHaveText(/^Done · \d{2}:\d{2}$/);
  await expect(target.getByTestId('crew-done')).toContainText(/You can undo until \d{2}:\d{2}\./);
  expect((await serverStop(bookingId)).status).toBe('done');
  await shot(page, 'crew-undo-375');

  // Undo: the stop and the project are back where they were.
  await target.getByRole('button', { name: /^Undo/ }).click();
  await expect(target.getByRole('button', { name: 'Mark done' })).toBeVisible();
  // Shown at once, sent through the phone's queue: the badge loses "waiting to send" once the server has it.
  await expect(target.getByTestId('crew-status')).toHaveText(/^(Planned|On the way|Working)( · \d{2}:\d{2})?$/);
  await expect.poll(async () => (await serverStop(bookingId)).status).not.toBe('done');

  // Done again, then a photo still goes to the done stop.
  await target.getByRole('button', { name: 'Mark done' }).click();
  await question.getByRole('button', { name: 'Yes, it’s done' }).click();
  await expect(target.getByTestId('crew-status')).toHaveText(/^Done · \d{2}:\d{2}$/);
  await expect(target.getByRole('group', { name: 'Add a photo' })).toBeVisible();
  await target.getByTestId('photo-after').setInputFiles(PHOTO);
  await expect(target.locator('label', { hasText: 'After' })).toContainText('✓ 1 sent');
  await expect(target.getByTestId('crew-status')).toHaveText(/^Done · \d{2}:\d{2}$/);
  const served = await serverStop(bookingId);
  expect(served.status).toBe('done');
  expect(served.photos.map((photo) => photo.photoType)).toEqual(['after']);
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await shot(page, 'crew-done-photo-375');

  // Five minutes on, the card no longer offers Undo (the server would answer 409).
  await expect(target.getByRole('button', { name: /^Undo/ })).toBeVisible();
  await page.clock.fastForward('05:01');
  await expect(target.getByRole('button', { name: /^Undo/ })).toHaveCount(0);
  await expect(target.getByTestId('crew-done')).toContainText(/Done at \d{2}:\d{2}/);
});
