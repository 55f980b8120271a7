import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { setupBookingHeaders } from '../fixtures/bookings.ts';
import { ADMIN_PASSWORD, TRANSPARENT_PNG } from '../fixtures/e2e-server.ts';

// The booking form end to end (public-site.md §2 "Booking", §4, §5, §8): a person
// fills it by keyboard and mouse, pins two places on the map, uploads a logo, sees the price
// and reaches /checkout with pendingBooking stored.
//
// The test server runs with GEOCODER_URL=off (playwright.config.ts), so address lookups answer 503
// and map pins get the spec's fallback text, whatever the network; a test that needs a found
// address answers /api/geocode/* itself, as the server would.

/** A real 16x16 PNG logo (a green dot on ink): the server judges uploads by their content. */
const LOGO_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAMklEQVR42mMQEhP5TwlmGLwGmByfhoKJNgBdIyGDqGsAIc3YDBluBgx8LFAlIQ29zAQAN3GloO3K8RYAAAAASUVORK5CYII=',
  'base64',
);

const FALLBACK_ADDRESS = /^Location -?\d+\.\d{6}, -?\d+\.\d{6}$/;
const ERROR_SUMMARY = '[aria-labelledby="booking-error-summary-title"]';

/** The four promises of the confirmation screen (public-site.md §2 "Booking"). */
const CONFIRMATION_PROMISES = [
  'We will contact you within 24 hours to discuss your design',
  'You will receive a confirmation email with your booking details',
  'Your campaign will be completed within 5-7 working days',
  'You will receive photo proof of every patch',
];

/** Answers the map's reverse lookups as the server does with a working geocoder. */
async function answerReverseGeocode(page: Page, address: string) {
  await page.route('**/api/geocode/reverse?*', (route) => {
    const query = new URL(route.request().url()).searchParams;
    return route.fulfill({ json: { address, lat: Number(query.get('lat')), lng: Number(query.get('lng')) } });
  });
}

/** Holds requests matching `url` until `release()`, so a test can look at the page while they are in flight. */
async function holdRequests(page: Page, url: string | ((url: URL) => boolean)) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

/** Each project books its own dates, so the two projects never share a day's capacity. */
function dateFor(projectName: string, day: number): string {
  const month = projectName === 'mobile' ? '08' : '09';
  return `2027-${month}-${String(day).padStart(2, '0')}`;
}

async function openBookingForm(page: Page) {
  await page.route(/^https:\/\/[a-z]\.tile\.openstreetmap\.org\//, (route) =>
    route.fulfill({ status: 200, contentType: 'image/png', body: TRANSPARENT_PNG }),
  );
  await page.goto('/booking');
  // Astro drops the island's `ssr` attribute once React has hydrated it.
  await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
}

/** Scrolls to section 6, as a person does, and waits for the map: Leaflet loads when it nears the screen. */
async function showMap(page: Page) {
  const map = page.getByTestId('booking-map');
  await map.scrollIntoViewIfNeeded();
  await expect(map.locator('.leaflet-container')).toBeVisible();
  return map;
}

/** Everything but the map, typed the quick way; for tests about what happens after submitting. */
async function fillRequiredFields(page: Page, date: string) {
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Last name').fill('Lovelace');
  await page.getByLabel('Business name').fill('Analytical Coffee Ltd');
  await page.getByLabel('Email').fill('ada@analytical.example');
  await page.getByLabel('Phone number').fill('0191 496 0000');
  await page.getByLabel('Preferred date').fill(date);
}

async function pinOnePlace(page: Page) {
  const map = await showMap(page);
  await map.click({ position: { x: 80, y: 90 } });
  await expect(page.getByTestId('selected-location')).toHaveText([FALLBACK_ADDRESS]);
}

/**
 * Leaves `freePatches` free on a date, the way the business really fills one. Only a paid booking
 * holds a share of a day ("the customer who pays first gets the day"), and this server takes no
 * payments, so the owner sets the day's capacity instead (PUT /api/admin/schedule/days/{date}), as
 * staff do for a short-handed day: to the customer the date then has that much room left, and at 0
 * it is full. Signed in through `request`'s own cookies, from an address of its own.
 */
async function leaveFreePatches(request: APIRequestContext, origin: string, date: string, freePatches: number) {
  const headers = { Origin: origin, 'X-Forwarded-For': setupBookingHeaders(origin)['X-Forwarded-For']! };
  expect((await request.post('/api/admin/login', { headers, data: { password: ADMIN_PASSWORD } })).status()).toBe(204);
  const set = await request.put(`/api/admin/schedule/days/${date}`, { headers, data: { capacity: freePatches, reason: null } });
  expect(set.status()).toBe(200);
}

/** Leaves no room on a date: what the customer sees on a fully booked day. */
async function fillDay(request: APIRequestContext, origin: string, date: string) {
  await leaveFreePatches(request, origin, date, 0);
}

test.describe('booking form', () => {
  test('a person books 10 night patches at two map locations with a logo and reaches checkout', async ({ page }, testInfo) => {
    // The whole journey, typed key by key, with an upload and a real booking: longer than one step.
    test.setTimeout(60_000);
    await openBookingForm(page);
    await expect(page.getByRole('heading', { level: 1, name: 'Book Your Patches' })).toBeVisible();
    for (const title of ['Personal Information', 'Select Date', 'Work Type', 'Patch Quantity', 'Upload Branding Assets', 'Location and Instructions']) {
      await expect(page.getByRole('heading', { level: 2, name: title })).toBeVisible();
    }

    // Section 1 by keyboard: type, Tab to the next field.
    await page.getByLabel('First name').focus();
    for (const [text, next] of [
      ['Ada', 'Last name'],
      ['Lovelace', 'Business name'],
      ['Analytical Coffee Ltd', 'Email'],
      ['ada@analytical.example', 'Phone number'],
    ] as const) {
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
      await expect(page.getByLabel(next)).toBeFocused();
    }
    await page.keyboard.type('0191 496 0000');

    const summary = page.getByTestId('booking-summary');
    const total = page.getByTestId('booking-total');
    await expect(total).toHaveText('£349');

    // Section 2.
    const date = dateFor(testInfo.project.name, 14);
    await page.getByLabel('Preferred date').fill(date);
    await expect(summary).toContainText(new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(date)));

    // Section 3 by keyboard: arrow keys move between the radio cards.
    await page.getByRole('radio', { name: /Day work/ }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: /Night work/ })).toBeChecked();
    await expect(summary).toContainText('Night (6pm - 6am)');

    // Section 6 with the mouse: two clicks on the map. The test server's geocoder is off, so
    // each place gets the spec's fallback address.
    const map = await showMap(page);
    await map.click({ position: { x: 60, y: 70 } });
    await map.click({ position: { x: 170, y: 130 } });
    const pinned = page.getByTestId('selected-location');
    await expect(pinned).toHaveCount(2);
    await expect(pinned.nth(0)).toHaveText(FALLBACK_ADDRESS);
    await expect(pinned.nth(1)).toHaveText(FALLBACK_ADDRESS);
    await expect(map.locator('.booking-pin')).toHaveCount(2);
    const addresses = (await pinned.allTextContents()).join('; ');
    await expect(page.getByLabel('Location address')).toHaveValue(addresses);

    // Two locations set 5 patches (§4); the person then chooses the 10-patch tile.
    await expect(page.getByRole('radio', { name: /5 patches/ })).toBeChecked();
    await expect(summary).toContainText('5 patches');
    await expect(total).toHaveText('£449');
    await page.getByText('10 patches', { exact: true }).click();
    await expect(page.getByRole('radio', { name: /10 patches/ })).toBeChecked();
    await expect(summary).toContainText('10 patches');
    await expect(total).toHaveText('£799');

    // Section 5: a real PNG logo, with its progress bar and the spec's toast.
    await page.getByLabel('Choose files').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: LOGO_PNG });
    const upload = page.getByTestId('upload-item');
    await expect(upload).toContainText('Uploaded');
    await expect(upload.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('File uploaded');
    await expect(toast).toContainText('logo.png has been uploaded successfully');
    await toast.getByRole('button', { name: 'Dismiss notification' }).click();

    await page.getByLabel('Special instructions (optional)').fill('Outside the front door, please.');

    // The booking and then /checkout are held until the page has been looked at.
    const releaseBooking = await holdRequests(page, '**/api/bookings');
    const releaseCheckout = await holdRequests(page, (url) => url.pathname === '/checkout');
    const submitted = page.waitForRequest((request) => request.url().endsWith('/api/bookings') && request.method() === 'POST');
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/bookings') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page.getByRole('button', { name: 'Submitting...' })).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toHaveCount(0);
    releaseBooking();

    const request = await submitted;
    expect(request.headers()['idempotency-key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const payload = request.postDataJSON();
    expect(payload).toMatchObject({ quantity: 10, workType: 'night', preferredDate: date, businessName: 'Analytical Coffee Ltd' });
    expect(payload.locationCoordinates).toHaveLength(2);
    expect(payload.uploadedFiles).toEqual([expect.objectContaining({ originalName: 'logo.png', mimeType: 'image/png' })]);

    const response = await answered;
    expect(response.status()).toBe(201);
    const booking = await response.json();

    // The toast lasts 5 s: read its title and text in one look, before anything slower.
    await expect(toast).toContainText(/Booking Submitted Successfully!.*We'll send you a confirmation email shortly\./s);
    await expect(page.getByRole('heading', { name: 'Booking Confirmed!' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Booking Confirmed!' }).getByRole('listitem')).toHaveText(CONFIRMATION_PROMISES);
    await expect(page.getByRole('link', { name: 'Return to Home' })).toHaveAttribute('href', '/');
    releaseCheckout();
    await page.waitForURL('**/checkout');

    const pending = await page.evaluate(() => JSON.parse(localStorage.getItem('pendingBooking') ?? 'null'));
    expect(pending).toMatchObject({
      bookingId: booking.id,
      // Handed out once by the server; /checkout needs it to start the payment.
      checkoutToken: booking.checkoutToken,
      totalPrice: 799,
      quantity: '10',
      workType: 'night',
      preferredDate: date,
      firstName: 'Ada',
      email: 'ada@analytical.example',
      locationAddress: addresses,
    });
  });

  test('submitting an empty form lists every problem at the top and moves focus there', async ({ page }) => {
    await openBookingForm(page);
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();

    const problems = page.locator(ERROR_SUMMARY);
    await expect(problems.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
    await expect(problems).toBeFocused();
    // The missing pin is listed with the rest; it also stands for the empty location field, which pins fill.
    await expect(problems.getByRole('link')).toHaveText([
      'First name is required',
      'Last name is required',
      'Business name is required',
      'Valid email is required',
      'Phone number is required',
      'Preferred date is required',
      'Please select at least one location on the map.',
    ]);
    // The summary's toast is for a missing location alone; here the summary says it all.
    await expect(page.getByTestId('toast')).toHaveCount(0);

    // Each error also sits beside its field, tied to it for assistive technology.
    const firstName = page.getByLabel('First name');
    await expect(firstName).toHaveAttribute('aria-invalid', 'true');
    await expect(firstName).toHaveAccessibleDescription(/First name is required/);

    await problems.getByRole('link', { name: 'Please select at least one location on the map.' }).click();
    await expect(page.getByLabel('Search for a location')).toBeFocused();
    await expect(page.getByLabel('Search for a location')).toHaveAccessibleDescription(/Please select at least one location on the map\./);

    await problems.getByRole('link', { name: 'Valid email is required' }).click();
    await expect(page.getByLabel('Email')).toBeFocused();

    // Fixing a field takes its error away.
    await page.keyboard.type('ada@analytical.example');
    await expect(problems.getByRole('link', { name: 'Valid email is required' })).toHaveCount(0);
    await expect(page.getByLabel('Email')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
  });

  test('asks for a map location when everything else is filled in', async ({ page }, testInfo) => {
    await openBookingForm(page);
    await fillRequiredFields(page, dateFor(testInfo.project.name, 15));
    await page.getByLabel('Location address').fill('Grey Street, Newcastle');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();

    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Location Required');
    await expect(toast).toContainText('Please select at least one location on the map.');
    const problems = page.locator(ERROR_SUMMARY);
    await expect(problems).toBeFocused();
    await expect(problems.getByRole('link')).toHaveText(['Please select at least one location on the map.']);
    await problems.getByRole('link').click();
    await expect(page.getByLabel('Search for a location')).toBeFocused();

    // Placing a pin takes the problem away.
    await pinOnePlace(page);
    await expect(problems).toHaveCount(0);
  });

  test('a date booked up while the form was open is refused by the server and marked', async ({ page, request, baseURL }, testInfo) => {
    const date = dateFor(testInfo.project.name, 22);
    await openBookingForm(page);
    await fillRequiredFields(page, date);
    await pinOnePlace(page);
    await fillDay(request, baseURL!, date);

    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    const toast = page.getByTestId('toast');
    // The spec's toast for a fully booked date (§8), as for a date known to be full.
    await expect(toast).toContainText('Date Unavailable');
    await expect(toast).toContainText('This date is fully booked. Please select another date.');
    await expect(toast).not.toContainText('Booking Failed');
    const problems = page.locator(ERROR_SUMMARY);
    await expect(problems).toBeFocused();
    await expect(problems.getByRole('link')).toHaveText(['This date is fully booked. Please select another date.']);
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
    await expect(page).toHaveURL(/\/booking$/);
    const dateField = page.getByLabel('Preferred date');
    await expect(dateField).toHaveValue('');

    // The form now knows the date is full.
    await dateField.fill(dateFor(testInfo.project.name, 23));
    await dateField.fill(date);
    await expect(dateField).toHaveValue('');
    await expect(toast).toContainText('Date Unavailable');
  });

  test('a 409 about the Idempotency-Key is shown but does not mark the date unavailable', async ({ page }, testInfo) => {
    const date = dateFor(testInfo.project.name, 24);
    await openBookingForm(page);
    await fillRequiredFields(page, date);
    await pinOnePlace(page);
    await page.route('**/api/bookings', (route) =>
      route.fulfill({ status: 409, json: { error: 'Idempotency-Key was already used with a different request' } }),
    );

    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Idempotency-Key was already used with a different request');
    await expect(page.getByRole('button', { name: 'Proceed to Payment' })).toBeEnabled();
    await expect(page.locator(ERROR_SUMMARY)).toHaveCount(0);

    // The date is still choosable: leaving it and coming back keeps it.
    const dateField = page.getByLabel('Preferred date');
    await dateField.fill(dateFor(testInfo.project.name, 25));
    await dateField.fill(date);
    await expect(dateField).toHaveValue(date);
    await expect(toast).not.toContainText('Date Unavailable');
  });

  test('a retry after a network failure sends the same Idempotency-Key', async ({ page }, testInfo) => {
    await openBookingForm(page);
    await fillRequiredFields(page, dateFor(testInfo.project.name, 16));
    await pinOnePlace(page);

    const keys: string[] = [];
    await page.route('**/api/bookings', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      // The first attempt never reaches the server, as on a dropped connection.
      if (keys.length === 1) return route.abort('connectionreset');
      return route.continue();
    });

    const submit = page.getByRole('button', { name: 'Proceed to Payment' });
    await submit.click();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Booking Failed');
    await expect(toast).toContainText('There was an error submitting your booking.');
    await expect(submit).toBeEnabled();

    await submit.click();
    await expect(page.getByRole('heading', { name: 'Booking Confirmed!' })).toBeVisible();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    await page.waitForURL('**/checkout');
  });

  test('a date that is fully booked is cleared with a toast', async ({ page, request, baseURL }, testInfo) => {
    const fullDate = dateFor(testInfo.project.name, 20);
    await fillDay(request, baseURL!, fullDate);
    const unavailable = await (await request.get('/api/bookings/unavailable-dates')).json();
    expect(unavailable.unavailableDates).toContain(fullDate);

    await openBookingForm(page);
    const dateField = page.getByLabel('Preferred date');
    await dateField.fill(dateFor(testInfo.project.name, 21));
    await expect(dateField).toHaveValue(dateFor(testInfo.project.name, 21));
    await dateField.fill(fullDate);
    await expect(dateField).toHaveValue('');
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Date Unavailable');
    await expect(toast).toContainText('This date is fully booked. Please select another date.');
  });

  test('a full date typed before the list of unavailable dates arrives is cleared when it does', async ({ page, request, baseURL }, testInfo) => {
    const fullDate = dateFor(testInfo.project.name, 12);
    await fillDay(request, baseURL!, fullDate);
    // Hold the list back until the date is in the field, as on a slow connection.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/bookings/unavailable-dates', async (route) => {
      await released;
      await route.continue();
    });
    await openBookingForm(page);
    const dateField = page.getByLabel('Preferred date');
    await dateField.fill(fullDate);
    await expect(dateField).toHaveValue(fullDate);
    release();
    await expect(dateField).toHaveValue('');
    await expect(page.getByTestId('toast')).toContainText('This date is fully booked. Please select another date.');
  });

  test('a keyboard user adds a location from the search box', async ({ page }) => {
    // The test server's geocoder is off; stand in for its search answer.
    await page.route('**/api/geocode/search?*', (route) =>
      route.fulfill({
        json: [
          { address: 'Grey Street, Newcastle upon Tyne NE1 6EE', lat: 54.9718, lng: -1.6126 },
          { address: 'Grey Street, Whitley Bay NE26 1AA', lat: 55.0434, lng: -1.4478 },
        ],
      }),
    );
    await openBookingForm(page);
    const search = page.getByRole('combobox', { name: 'Search for a location' });
    await search.focus();
    await page.keyboard.type('Grey Street');
    const options = page.getByRole('listbox', { name: 'Places' }).getByRole('option');
    await expect(options).toHaveCount(2);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(options.nth(1)).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('selected-location')).toHaveText(['Grey Street, Whitley Bay NE26 1AA']);
    await expect(search).toHaveValue('');
    await expect(search).toBeFocused();

    // Enter straight away takes the first place.
    await page.keyboard.type('Grey Street');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('selected-location')).toHaveText([
      'Grey Street, Whitley Bay NE26 1AA',
      'Grey Street, Newcastle upon Tyne NE1 6EE',
    ]);
    await expect(page.getByLabel('Location address')).toHaveValue('Grey Street, Whitley Bay NE26 1AA; Grey Street, Newcastle upon Tyne NE1 6EE');

    // And removes one again from the list.
    await page.getByRole('button', { name: 'Remove Grey Street, Whitley Bay NE26 1AA' }).press('Enter');
    await expect(page.getByTestId('selected-location')).toHaveText(['Grey Street, Newcastle upon Tyne NE1 6EE']);
  });

  test('a map click gets the address the geocoder finds, and pins fill the location field', async ({ page }) => {
    const address = 'Grey Street, Newcastle upon Tyne NE1 6EE';
    await answerReverseGeocode(page, address);
    await openBookingForm(page);

    const locationField = page.getByLabel('Location address');
    await expect(locationField).toHaveAccessibleDescription(
      'Filled in from your pins, and rewritten whenever you add, move or remove one. Put directions for the crew in Special instructions.',
    );
    const instructions = page.getByLabel('Special instructions (optional)');
    await instructions.fill('Left of the bank doors, please.');
    await locationField.fill('Somewhere near the fountain');

    const map = await showMap(page);
    await map.click({ position: { x: 120, y: 100 } });
    await expect(page.getByTestId('selected-location')).toHaveText([address]);
    // As the hint says: the pins write the location field; directions stay in Special instructions.
    await expect(locationField).toHaveValue(address);
    await expect(instructions).toHaveValue('Left of the bank doors, please.');
  });

  test('with the geocoder off, a keyboard-only person pins the map centre and the location field is filled', async ({ page }) => {
    await openBookingForm(page);
    const map = page.getByRole('region', { name: 'Map of locations' });
    const addPin = page.getByRole('button', { name: 'Add a pin at the map centre' });

    // Search cannot help without a geocoder, and says what to do instead. Focus brings section 6
    // into view, and with it the map, which loads as it nears the screen.
    await page.getByRole('combobox', { name: 'Search for a location' }).focus();
    await expect(addPin).toBeEnabled();
    await page.keyboard.type('Grey Street');
    await expect(
      page.getByText('Search is not available right now. Click the map instead, or move it with the arrow keys and use Add a pin at the map centre.'),
    ).toBeVisible();

    await page.keyboard.press('Tab');
    await expect(addPin).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(map).toBeFocused();
    await expect(map).toHaveAccessibleDescription(/With a keyboard, move the map with the arrow keys, then use Add a pin at the map centre\./);
    // One press of the right arrow moves the map 80 px east; wait for it to settle.
    await page.keyboard.press('ArrowRight');
    await expect(map.locator('.leaflet-map-pane')).toHaveAttribute('style', /translate3d\(-80px, 0px, 0px\)/);

    await page.keyboard.press('Shift+Tab');
    await expect(addPin).toBeFocused();
    await page.keyboard.press('Enter');
    const pinned = page.getByTestId('selected-location');
    await expect(pinned).toHaveText([FALLBACK_ADDRESS]);
    await expect(map.locator('.booking-pin')).toHaveCount(1);
    const text = (await pinned.textContent())!;
    // East of where the map opened (Newcastle, -1.6178): the pin is where the person moved the map.
    expect(Number(text.split(', ')[1])).toBeGreaterThan(-1.6178);
    await expect(page.getByLabel('Location address')).toHaveValue(text);
    await expect(addPin).toBeFocused();
  });

  test('a day with room for fewer patches says how many are free, keeps the date, and takes a smaller booking', async ({ page, request, baseURL }, testInfo) => {
    const date = dateFor(testInfo.project.name, 26);
    await leaveFreePatches(request, baseURL!, date, 5);
    await openBookingForm(page);
    await fillRequiredFields(page, date);
    await pinOnePlace(page);
    await page.getByText('10 patches', { exact: true }).click();
    const submit = page.getByRole('button', { name: 'Proceed to Payment' });
    await submit.click();

    const longDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(date));
    const message = `Only 5 patches are still free on ${longDate}. Choose 5 or fewer patches, or another date.`;
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Booking Failed');
    await expect(toast).toContainText(message);
    const problems = page.locator(ERROR_SUMMARY);
    await expect(problems).toBeFocused();
    await expect(problems.getByRole('link')).toHaveText([message]);
    const dateField = page.getByLabel('Preferred date');
    await expect(dateField).toHaveValue(date);
    await expect(dateField).toHaveAccessibleDescription(new RegExp(`Only 5 patches are still free on ${longDate}`));

    // Fewer patches answer it.
    await page.getByText('5 patches', { exact: true }).click();
    await expect(problems).toHaveCount(0);
    await expect(dateField).not.toHaveAttribute('aria-invalid', 'true');

    // The date was not marked fully booked: leaving it and coming back keeps it.
    await dateField.fill(dateFor(testInfo.project.name, 27));
    await dateField.fill(date);
    await expect(dateField).toHaveValue(date);
    await expect(toast).not.toContainText('This date is fully booked');

    await submit.click();
    await expect(page.getByRole('heading', { name: 'Booking Confirmed!' })).toBeVisible();
    await page.waitForURL('**/checkout');
  });

  test('a file whose content is not an image or PDF is refused by the server with the upload failure toast', async ({ page }) => {
    await openBookingForm(page);
    // Named and typed as a PNG, so the browser sends it; the server reads the bytes.
    await page.getByLabel('Choose files').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('not really a picture') });
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Upload failed');
    await expect(toast).toContainText('Failed to upload logo.png');
    await expect(page.getByTestId('upload-item')).toContainText('Failed: Unsupported file type. Please upload a PNG, JPG, SVG or PDF.');
  });

  test('dragging a pin looks its address up again; clicking it removes it; a wrong file type is dropped with a note', async ({ page }) => {
    await openBookingForm(page);
    await pinOnePlace(page);
    const pinned = page.getByTestId('selected-location');
    const before = await pinned.textContent();

    const pin = page.getByTestId('booking-map').locator('.booking-pin');
    const box = (await pin.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 + 40, box.y + box.height / 2 + 30, { steps: 8 });
    await page.mouse.up();
    await expect(pinned).toHaveText([FALLBACK_ADDRESS]);
    await expect(pinned).not.toHaveText([before!]);
    await expect(page.getByLabel('Location address')).toHaveValue((await pinned.textContent())!);

    await pin.click();
    await expect(pinned).toHaveCount(0);
    await expect(pin).toHaveCount(0);
    await expect(page.getByLabel('Location address')).toHaveValue('');

    await page.getByLabel('Choose files').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await expect(page.getByText('notes.txt was not added: only PNG, JPG, SVG and PDF files are accepted.')).toBeVisible();
    await expect(page.getByTestId('upload-item')).toHaveCount(0);
  });

  test('a logo dropped on the upload area is uploaded and can be removed', async ({ page }) => {
    await openBookingForm(page);
    const files = await page.evaluateHandle((bytes) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([new Uint8Array(bytes)], 'dropped-logo.png', { type: 'image/png' }));
      transfer.items.add(new File(['GIF89a'], 'animation.gif', { type: 'image/gif' }));
      return transfer;
    }, [...LOGO_PNG]);
    const dropzone = page.getByTestId('upload-dropzone');
    await dropzone.dispatchEvent('dragenter', { dataTransfer: files });
    await dropzone.dispatchEvent('drop', { dataTransfer: files });

    const item = page.getByTestId('upload-item');
    await expect(item).toHaveCount(1);
    await expect(item).toContainText('dropped-logo.png');
    await expect(item).toContainText('Uploaded');
    await expect(page.getByText('animation.gif was not added: only PNG, JPG, SVG and PDF files are accepted.')).toBeVisible();
    await expect(page.getByTestId('toast')).toContainText('dropped-logo.png has been uploaded successfully');

    await page.getByRole('button', { name: 'Remove dropped-logo.png' }).click();
    await expect(item).toHaveCount(0);
  });

  test('serves the form in the page HTML, with the map placeholder until Leaflet loads', async ({ request }) => {
    const html = await (await request.get('/booking')).text();
    expect(html).toContain('Personal Information');
    expect(html).toContain('Proceed to Payment');
    expect(html).toContain('Loading map...');
    // The page's CSP refuses inline style attributes in served markup.
    expect(html).not.toMatch(/<[^>]+\sstyle="/);
  });

  test('says so when the map cannot load, and keeps the search box @desktop', async ({ page }) => {
    await page.route(/leaflet[^/]*\.css$/, (route) => route.abort());
    await openBookingForm(page);
    const map = page.getByTestId('booking-map');
    await map.scrollIntoViewIfNeeded();
    await expect(map).toContainText('The map could not be loaded. Use the search box above to add your locations.');
    await expect(map.locator('.leaflet-container')).toHaveCount(0);
    await expect(page.getByLabel('Search for a location')).toBeEditable();
  });

  test('loads the map only when a person scrolls to it @mobile', async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await openBookingForm(page);
    // Everything the first screen asks for has arrived, and the map still waits below the fold.
    await page.waitForLoadState('networkidle');
    const map = page.getByTestId('booking-map');
    await expect(map).toContainText('Loading map...');
    await expect(map.locator('.leaflet-container')).toHaveCount(0);
    const beforeScrolling = scripts.length;
    await showMap(page);
    expect(scripts.length).toBeGreaterThan(beforeScrolling);
  });

    test('has no detectable accessibility problems, also while showing errors', async ({ page }) => {
    // Two full axe passes over a long form with a live map take a while on a busy machine.
    test.setTimeout(60_000);
    await openBookingForm(page);
    await showMap(page);
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
    expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  });

  test('the custom quantity accepts 10 or more and prices each extra patch', async ({ page }) => {
    await openBookingForm(page);
    await page.getByText('Custom', { exact: true }).click();
    const custom = page.getByLabel('Number of patches');
    await expect(custom).toHaveValue('10');
    await custom.fill('25');
    await expect(page.getByTestId('booking-total')).toHaveText('£1,274');
    await custom.fill('7');
    await custom.blur();
    await expect(custom).toHaveValue('25');
    await expect(page.getByText('Custom orders start at 10 patches, so the quantity stays at 25.')).toBeVisible();
    await custom.fill('');
    await custom.blur();
    await expect(custom).toHaveValue('10');
    await expect(page.getByTestId('booking-total')).toHaveText('£599');
    await page.getByText('5 patches', { exact: true }).click();
    await expect(custom).toHaveCount(0);
    await expect(page.getByTestId('booking-total')).toHaveText('£349');
  });
});
