import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { londonTomorrow } from '../../src/domain/schedule.ts';
import { setupBookingHeaders } from '../fixtures/bookings.ts';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

// Each test walks a whole tab (sign-in, maps, axe scans) on a shared 2-core machine.
test.describe.configure({ timeout: 90_000 });

async function openTab(page: Page, name: 'Locations' | 'Workers') {
  // Map tiles never leave the machine: an empty answer is enough for Leaflet.
  await page.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  await signInAsStaff(page, name);
}

async function expectNoSeriousViolations(page: Page) {
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

test.describe('Locations tab', () => {
  test('lists the stops of a route whose map cannot load @desktop', async ({ page }) => {
    await page.route(/leaflet[^/]*\.css$/, (route) => route.abort());
    await openTab(page, 'Locations');
    await page.getByRole('tab', { name: 'Route Groups' }).click();
    const routes = page.getByRole('list', { name: 'Route groups' });
    await expect(routes.getByText('The map could not be loaded; the stops are listed below.').first()).toBeVisible();
    await expect(routes.getByRole('link', { name: /Open route in Maps/ }).first()).toBeVisible();
    await expect(routes.locator('.leaflet-container')).toHaveCount(0);
  });

  test('shows the seeded regions, then route groups with a map, and changes the group size', async ({ page }) => {
    await openTab(page, 'Locations');
    const regions = page.getByRole('list', { name: 'Bookings per region' });
    await expect(regions).toContainText('Greater Manchester');
    await expect(regions).toContainText('Merseyside');
    await expect(regions).toContainText('Tyne and Wear');
    await expectNoSeriousViolations(page);

    await page.getByRole('tab', { name: 'By Region' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Route Groups' })).toHaveAttribute('aria-selected', 'true');

    const routes = page.getByRole('list', { name: 'Route groups' });
    await expect(routes.getByRole('heading', { name: /^Route 1:/ })).toBeVisible();
    await expect(routes).toContainText(/Estimated saving: \d+ minutes/);
    const mapsLink = routes.getByRole('link', { name: /Open route in Maps/ }).first();
    await expect(mapsLink).toHaveAttribute('href', /^https:\/\/www\.google\.com\/maps\/dir\//);
    // Leaflet draws a numbered marker per stop.
    await expect(routes.locator('.leaflet-container').first()).toBeVisible();
    await expect(routes.locator('.route-stop').first()).toHaveText('1');
    // Leaflet's own sheet arrives with the map (its panes are positioned by it), never in the
    // page's head, where it would hold up the sign-in gate's first paint.
    await expect(routes.locator('.leaflet-pane').first()).toHaveCSS('position', 'absolute');
    const served = await (await page.request.get('/admin')).text();
    expect(served).not.toMatch(/<link[^>]+leaflet[^>]*\.css/);

    const sizes = page.getByLabel('Stops per route');
    await expect(sizes).toHaveValue('5');
    const countAtFive = await routes.getByRole('heading', { name: /^Route \d+:/ }).count();
    await sizes.selectOption('3');
    await expect(routes.getByRole('heading', { name: /^Route 1:/ })).toBeVisible();
    expect(await routes.getByRole('heading', { name: /^Route \d+:/ }).count()).toBeGreaterThanOrEqual(countAtFive);
    await expectNoSeriousViolations(page);
  });
});

test.describe('Workers tab', () => {
  test('adds a worker, previews tomorrow and sends the routes', async ({ page, baseURL }, testInfo) => {
    // A booking for tomorrow, so there is a route to send (the seed has none on a moving date).
    const created = await page.request.post('/api/bookings', {
      headers: setupBookingHeaders(baseURL!),
      data: {
        firstName: 'Grace',
        lastName: 'Hopper',
        businessName: 'Compiler Cafe',
        email: 'grace@compiler.co.uk',
        phone: '0113 496 0000',
        preferredDate: londonTomorrow(new Date()),
        quantity: 5,
        locationAddress: 'Briggate, Leeds LS1 6HD',
        specialInstructions: '',
        totalPrice: 0,
        locationCoordinates: [{ address: 'Briggate, Leeds LS1 6HD', lat: 53.7973, lng: -1.5422 }],
        workType: 'day',
        uploadedFiles: [],
      },
    });
    expect(created.status()).toBe(201);

    await openTab(page, 'Workers');
    await expect(page.getByText('Notifications are also sent automatically every day at 6 PM for the next day.')).toBeVisible();

    // Add a worker (one e-mail per project: both share the server).
    const email = `crew-${testInfo.project.name}@installers.co.uk`;
    const workers = page.getByRole('region', { name: 'Workers' });
    await workers.getByLabel('Email').fill('not-an-email');
    await workers.getByRole('button', { name: 'Add worker' }).click();
    await expect(workers.getByText('Valid email is required')).toBeVisible();
    await workers.getByLabel('Email').fill(email);
    await workers.getByLabel('Name (optional)').fill('Sam Crew');
    await workers.getByRole('button', { name: 'Add worker' }).click();
    await expect(workers.getByRole('row', { name: new RegExp(email) })).toContainText('Active');

    const preview = page.getByRole('region', { name: 'Tomorrow’s installations' });
    await expect(preview.getByRole('list', { name: 'Routes for tomorrow' })).toContainText('Grace Hopper');
    await expect(preview.getByRole('link', { name: /Open route in Maps/ }).first()).toHaveAttribute('href', /google\.com\/maps\/dir/);
    await expectNoSeriousViolations(page);

    const send = page.getByRole('region', { name: 'Send tomorrow’s routes' });
    await send.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(send.getByText('Valid email is required')).toBeVisible();
    await send.getByLabel('Worker email').fill(email);
    await send.getByLabel('Worker name (optional)').fill('Sam');
    await send.getByRole('button', { name: 'Send', exact: true }).click();
    await expect(page.getByTestId('toast')).toContainText('Notifications Sent');

    // Deactivate, then remove behind a confirmation.
    const row = workers.getByRole('row', { name: new RegExp(email) });
    await row.getByRole('button', { name: /Deactivate/ }).click();
    await expect(row).toContainText('Inactive');
    await row.getByRole('button', { name: /Remove/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this worker?' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Remove worker' }).click();
    await expect(workers.getByRole('row', { name: new RegExp(email) })).toHaveCount(0);
  });
});
