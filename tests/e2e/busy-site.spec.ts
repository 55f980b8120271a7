import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { stopProcessGroup, waitUntilAnswering } from '../../bench/lib/child-server.ts';
import { freePort } from '../../scripts/free-port.ts';
import { bookingPayload } from '../fixtures/bookings.ts';
import { ADMIN_PASSWORD, TRANSPARENT_PNG } from '../fixtures/e2e-server.ts';
import { HOLD_NOTICE } from '../../src/domain/booking-limits.ts';

// api.md "Abuse and availability": past a site-wide ceiling the forms solve a proof-of-work
// challenge in a web worker, say "Checking…" and keep what was typed, and the customer is served.
// The shared test server has its ceilings raised for every other spec (playwright.config.ts), so
// this spec starts a server of its own from the same build, with each ceiling at 1, and spends it
// from another address before the person arrives.

// One server for both tests: they run in order, in one worker.
test.describe.configure({ mode: 'serial' });

let server: ChildProcess;
let baseUrl: string;
let dataDir: string;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const port = await freePort();
  baseUrl = `http://localhost:${port}`;
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'cp-e2e-busy-'));
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: path.resolve('.'),
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      SITE_URL: baseUrl,
      ADMIN_PASSWORD,
      GEOCODER_URL: 'off',
      TRUST_PROXY: 'true',
      SITE_MAX_BOOKINGS_PER_HOUR: '1',
      SITE_MAX_ENQUIRIES_PER_HOUR: '1',
      SITE_MAX_UPLOADS_PER_HOUR: '1',
      SITE_MAX_TRACKING_LOOKUPS_PER_HOUR: '1',
    },
  });
  await waitUntilAnswering(`${baseUrl}/api/health`, server);
  // Someone else, from another address, has just spent each ceiling.
  const post = (url: string, body: unknown) =>
    fetch(`${baseUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': '203.0.113.9' }, body: JSON.stringify(body) });
  expect((await post('/api/bookings', bookingPayload({ preferredDate: '2027-10-04' }))).status).toBe(201);
  const enquiry = { firstName: 'Sam', lastName: 'Reed', email: 'sam@reedprint.co.uk', phone: '', inquiryType: 'Custom Quote', message: 'A first enquiry of the hour, please.', website: '' };
  expect((await post('/api/contacts', enquiry)).status).toBe(201);
  expect((await post('/api/contacts', enquiry)).status).toBe(428);
});

test.afterAll(async () => {
  if (server) await stopProcessGroup(server);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/** Holds the challenge worker's script until `release()`, so the "Checking…" state can be looked at. */
async function holdWorker(page: Page) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(/challenge-worker[^/]*\.js/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? '')).map((violation) => violation.id)).toEqual([]);
}

test.describe('a busy site still serves its customers', () => {
  test('an enquiry: the form checks, says so, keeps what was typed, then sends', async ({ page }, testInfo) => {
    await page.goto(`${baseUrl}/contact`);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    const form = page.locator('form[aria-labelledby="contact-form-title"]');
    await form.getByLabel('First name').fill('Megan');
    await form.getByLabel('Last name').fill('Clarke');
    await form.getByLabel('Email').fill('megan@lanternevents.co.uk');
    await form.getByLabel('Inquiry type').selectOption('Custom Quote');
    const message = 'Twelve patches around the arena for our festival weekend, please.';
    await form.getByLabel('Message').fill(message);

    const release = await holdWorker(page);
    await form.getByRole('button', { name: 'Send Message' }).click();
    await expect(form.getByRole('button', { name: 'Checking…' })).toBeDisabled();
    const toast = page.getByTestId('toast');
    await expect(toast).toContainText('Checking…');
    await expect(toast).toContainText('What you typed is kept.');
    await expect(form.getByLabel('Message')).toHaveValue(message);
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: testInfo.outputPath('contact-checking.png') });

    release();
    await expect(toast).toContainText('Message Sent Successfully!');
    await expect(form.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  test('a booking: the form checks, says so, and reaches checkout', async ({ page }, testInfo) => {
    await page.route(/^https:\/\/[a-z]\.tile\.openstreetmap\.org\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TRANSPARENT_PNG }));
    await page.goto(`${baseUrl}/booking`);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByLabel('First name').fill('Ada');
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Business name').fill('Analytical Coffee Ltd');
    await page.getByLabel('Email').fill('ada@analytical.example');
    await page.getByLabel('Phone number').fill('0191 496 0000');
    await page.getByLabel('Preferred date').fill('2027-10-05');
    const map = page.getByTestId('booking-map');
    await map.scrollIntoViewIfNeeded();
    await expect(map.locator('.leaflet-container')).toBeVisible();
    await map.click({ position: { x: 80, y: 90 } });
    await expect(page.getByTestId('selected-location')).toHaveCount(1);
    await expect(page.getByText(HOLD_NOTICE)).toBeVisible();

    const release = await holdWorker(page);
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    const checking = page.getByRole('button', { name: 'Checking…' });
    await expect(checking).toBeDisabled();
    await expect(page.getByTestId('toast')).toContainText('Checking…');
    await expect(page.getByLabel('First name')).toHaveValue('Ada');
    await expectNoSeriousAxeViolations(page);
    await checking.scrollIntoViewIfNeeded();
    await page.screenshot({ path: testInfo.outputPath('booking-checking.png') });

    release();
    await expect(page).toHaveURL(/\/checkout/);
  });
});

test.describe('a customer past every ceiling, on a slow phone', () => {
  // api.md "Abuse and availability": the wait a customer pays past the ceilings, on a phone four
  // times slower than this machine (Chrome's CPU throttle). A benchmark (docs/PERFORMANCE.md, goal
  // 3 s a challenge): the wait is printed, not asserted; the test asserts the customer is served.
  test('uploads a file and books, each challenge solved in the worker under a 4x CPU throttle @mobile', async ({ page }, testInfo) => {
    test.setTimeout(180_000);
    // Someone else has just spent the upload ceiling too.
    const spent = await fetch(`${baseUrl}/api/upload/parts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: baseUrl, 'x-forwarded-for': '203.0.113.10' },
      body: JSON.stringify({ name: 'x.pdf', size: 1 }),
    });
    expect([201, 428]).toContain(spent.status);
    await page.route(/^https:\/\/[a-z]\.tile\.openstreetmap\.org\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TRANSPARENT_PNG }));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`${baseUrl}/booking`);
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    await page.getByLabel('First name').fill('Grace');
    await page.getByLabel('Last name').fill('Hopper');
    await page.getByLabel('Business name').fill('Compiler Coffee Ltd');
    await page.getByLabel('Email').fill('grace@compiler.example');
    await page.getByLabel('Phone number').fill('0191 496 0001');
    await page.getByLabel('Preferred date').fill('2027-10-06');
    const map = page.getByTestId('booking-map');
    await map.scrollIntoViewIfNeeded();
    await expect(map.locator('.leaflet-container')).toBeVisible();
    await map.click({ position: { x: 80, y: 90 } });
    await expect(page.getByTestId('selected-location')).toHaveCount(1);

    const uploadStarted = Date.now();
    await page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: TRANSPARENT_PNG });
    await expect(page.getByText(/Uploaded$/)).toBeVisible({ timeout: 60_000 });
    const uploadSeconds = (Date.now() - uploadStarted) / 1000;

    const bookingStarted = Date.now();
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page).toHaveURL(/\/checkout/, { timeout: 60_000 });
    const bookingSeconds = (Date.now() - bookingStarted) / 1000;
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const line = `Past every ceiling, 4x CPU throttle: upload ${uploadSeconds.toFixed(1)} s, booking to checkout ${bookingSeconds.toFixed(1)} s (each with a challenge solved in the worker)`;
    console.log(line);
    testInfo.annotations.push({ type: 'wait', description: line });
  });
});
