import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import Stripe from 'stripe';
import { startNpmStart, type NpmStart } from '../../bench/lib/npm-start.ts';
import { freePort } from '../../scripts/free-port.ts';
import { bookingPayload, setupBookingHeaders } from '../fixtures/bookings.ts';
import { ADMIN_PASSWORD } from '../fixtures/e2e-server.ts';
import { bookingAtStep, openProject, signInAsStaff } from '../fixtures/staff-setup.ts';
import { startFakeStripe, type FakeStripe } from '../setup/fake-stripe.ts';

// Stencil proof sign-off on a phone, both sides at once: staff send a proof from the project
// card, the customer asks for changes, approves version 2, then asks for a change after approval.
// The e2e server has no Stripe keys, so in the first test that change takes the "will be invoiced"
// path and staff waive it from the dashboard. The second test starts a server of its own with
// Stripe keys and the local Stripe-compatible API (tests/setup/fake-stripe.ts), and the customer
// pays the £100 in the page; Stripe.js cannot load offline, so its URL serves
// tests/fixtures/fake-stripe-js.js, which confirms the intent on that API over HTTP.

const LOGO = fileURLToPath(new URL('../fixtures/logo.png', import.meta.url));
const FAKE_STRIPE_JS = fileURLToPath(new URL('../fixtures/fake-stripe-js.js', import.meta.url));
const EMAIL = 'noor@hartleyflorist.co.uk';

async function track(page: Page, bookingId: number, email = EMAIL) {
  await page.goto('/track-project');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Booking ID').fill(String(bookingId));
  await page.getByRole('button', { name: 'Track Project' }).click();
  await expect(page.getByRole('heading', { name: `Booking #${bookingId}` })).toBeVisible();
  return page.getByTestId('customer-proof');
}

test('@mobile a customer signs off the stencil proof while staff follow each state on the project card', async ({ browser, request, baseURL }) => {
  // Two browsers and a dozen round trips: a long flow, however busy the machine.
  test.setTimeout(180_000);
  const created = await request.post('/api/bookings', {
    headers: setupBookingHeaders(baseURL!),
    data: bookingPayload({ firstName: 'Noor', lastName: 'Hartley', email: EMAIL, businessName: 'Hartley Florist', preferredDate: '2027-11-09' }),
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };

  const staffContext = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const customerContext = await browser.newContext({
    viewport: { width: 375, height: 740 },
    // Its own client address, so the tracking form's per-client limit is this test's alone.
    extraHTTPHeaders: { 'X-Forwarded-For': setupBookingHeaders(baseURL!)['X-Forwarded-For']! },
  });
  const staff = await staffContext.newPage();
  const customer = await customerContext.newPage();

  // Staff take the project to step 2 and send version 1.
  await signInAsStaff(staff);
  const card = () => staff.getByTestId('project').filter({ hasText: `Booking #${id} - Noor Hartley` });
  // Staff reload to see the customer's decisions: the list closes, so the project opens again.
  const reopen = async () => {
    await staff.reload();
    await openProject(staff, id, 'Noor Hartley');
  };
  await openProject(staff, id, 'Noor Hartley');
  for (const [label, name] of [['Consult', 'Step 1: Design Consultation'], ['Stencil', 'Step 2: Stencil Creation']] as const) {
    await card().getByRole('button', { name: new RegExp(`^${label}`) }).click();
    const dialog = staff.getByRole('dialog', { name });
    await dialog.getByRole('button', { name: 'Update Progress' }).click();
    await expect(dialog).toBeHidden();
  }
  const panel = () => staff.getByTestId(`proof-panel-${id}`);
  await expect(panel().getByTestId('proof-state')).toHaveText('No proof sent yet.');
  await panel().getByLabel('New proof (PNG, JPG, SVG or PDF)').setInputFiles(LOGO);
  await panel().getByLabel('Note for the customer (optional)').fill('First layout, logo centred.');
  await panel().getByRole('button', { name: 'Send proof to customer' }).click();
  await expect(panel().getByTestId('proof-state')).toHaveText(/^Version 1 awaiting sign-off for a few minutes\.$/);

  // The customer sees version 1 large, with the £100 notice, and asks for changes.
  let proof = await track(customer, id);
  await expect(proof).toContainText('Version 1');
  await expect(proof).toContainText('First layout, logo centred.');
  await expect(proof).toContainText('a stencil change after approval costs an extra £100');
  const image = proof.getByRole('img', { name: 'Stencil proof, version 1' });
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth)).toBeGreaterThan(0);
  await proof.getByRole('button', { name: 'Request changes' }).click();
  await proof.getByLabel('What should we change?').fill('Please make the flowers pink.');
  await proof.getByRole('button', { name: 'Send change request' }).click();
  await expect(proof.getByRole('status')).toContainText('You asked for changes');

  // Staff see the comment and send version 2.
  await reopen();
  await expect(panel().getByTestId('proof-state')).toContainText('Changes requested on version 1');
  await expect(panel()).toContainText('Please make the flowers pink.');
  await panel().getByLabel('New proof (PNG, JPG, SVG or PDF)').setInputFiles(LOGO);
  await panel().getByRole('button', { name: 'Send proof to customer' }).click();
  await expect(panel().getByTestId('proof-state')).toHaveText(/^Version 2 awaiting sign-off/);

  // The customer approves version 2; version 1 and its comment stay listed.
  proof = await track(customer, id);
  await expect(proof).toContainText('Version 2');
  await expect(proof.getByText('Earlier versions')).toBeVisible();
  await expect(proof).toContainText('“Please make the flowers pink.”');
  const axe = await new AxeBuilder({ page: customer }).include('[data-testid="customer-proof"]').analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  await proof.getByRole('button', { name: 'Approve version 2' }).click();
  await customer.getByRole('dialog', { name: 'Approve version 2?' }).getByRole('button', { name: 'Yes, approve version 2' }).click();
  await expect(proof.getByTestId('change-after-approval')).toContainText('You approved version 2');

  await reopen();
  await expect(panel().getByTestId('proof-state')).toContainText('Version 2 approved on');
  await expect(card()).toContainText('Step 3 of 5');

  // A change after approval: without card payments the page says it will be invoiced.
  await proof.getByRole('button', { name: 'Ask for a change after approval' }).click();
  await proof.getByLabel('What should we change?').fill('Our new phone number, please.');
  await proof.getByRole('button', { name: 'Continue to payment (£100)' }).click();
  await expect(proof.getByRole('status')).toContainText('will be invoiced');

  // Staff waive the £100 (with a reason); the approval reopens for version 3.
  await reopen();
  const unpaid = panel().getByTestId('stencil-change-unpaid');
  await expect(unpaid).toContainText('Our new phone number, please.');
  await unpaid.getByLabel('Reason for waiving the £100').fill('Goodwill: first campaign');
  await unpaid.getByRole('button', { name: 'Waive £100' }).click();
  await expect(panel().getByTestId('proof-state')).toContainText('Changes requested on version 2');
  // The person who waived it, by name (the bootstrap owner here).
  await expect(panel()).toContainText('waived by Owner');

  proof = await track(customer, id);
  await expect(proof.getByRole('status')).toContainText('You asked for changes');

  await staffContext.close();
  await customerContext.close();
});

test.describe('a change after approval paid by card', () => {
  const WEBHOOK_SECRET = 'whsec_browser_stencil_change';
  const PUBLISHABLE_KEY = 'pk_test_browser_stencil_change';
  const PAYER = 'ivo@petrovjoinery.co.uk';
  let stripeApi: FakeStripe | undefined;
  let site: NpmStart | undefined;
  let dataDir: string | undefined;

  // A server of this test's own, with Stripe keys, on the local Stripe-compatible API. The site's
  // build is the one the suite's server made (its pages carry no publishable key): the
  // stencil-change answer gives the server's key, so nothing is rebuilt.
  test.beforeAll(async () => {
    // `npm start` creates its database on a busy machine: generous, and it only waits for /api/health.
    test.setTimeout(300_000);
    stripeApi = await startFakeStripe();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'stencil-change-e2e-'));
    const port = await freePort();
    site = await startNpmStart({
      PORT: port,
      DATA_DIR: dataDir,
      SITE_URL: `http://127.0.0.1:${port}`,
      ADMIN_PASSWORD,
      GEOCODER_URL: 'off',
      TRUST_PROXY: 'true',
      STRIPE_SECRET_KEY: 'sk_test_browser_stencil_change',
      PUBLIC_STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY,
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripeApi.url,
    });
  });

  test.afterAll(async () => {
    await site?.stop();
    await stripeApi?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  /** Stripe.js from its own URL is the test stand-in; Stripe's API is the local one, over HTTP. */
  async function routeStripe(context: BrowserContext, api: FakeStripe) {
    await context.route('https://js.stripe.com/**', (route) => route.fulfill({ path: FAKE_STRIPE_JS, contentType: 'text/javascript' }));
    await context.route('https://api.stripe.com/**', async (route) => {
      const request = route.request();
      const url = new URL(request.url());
      const answer = await fetch(`${api.url}${url.pathname}${url.search}`, {
        method: request.method(),
        headers: { 'Content-Type': (await request.headerValue('content-type')) ?? 'application/x-www-form-urlencoded' },
        body: request.method() === 'GET' ? undefined : request.postData(),
      });
      await route.fulfill({ status: answer.status, headers: Object.fromEntries(answer.headers), body: Buffer.from(await answer.arrayBuffer()) });
    });
  }

  /** Stripe's signed webhook, as Stripe sends it, for the intent as the Stripe API now has it. */
  async function deliverSucceeded(baseUrl: string, intentId: string) {
    const payload = JSON.stringify({
      id: `evt_browser_${intentId}`,
      object: 'event',
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      type: 'payment_intent.succeeded',
      data: { object: stripeApi!.intents.get(intentId) },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET, timestamp: Math.floor(Date.now() / 1000) });
    const response = await fetch(`${baseUrl}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Stripe-Signature': signature },
      body: payload,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  test('@mobile the customer pays £100 in the page, and the signed webhook brings the change to staff once', async ({ browser }) => {
    test.setTimeout(180_000);
    const baseURL = site!.baseUrl;
    const api = stripeApi!;
    const staffContext = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 } });
    const customerContext = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 } });
    await routeStripe(customerContext, api);
    const staff = await staffContext.newPage();
    const customer = await customerContext.newPage();

    // Staff (signed in through the API) have a project at step 2 and send version 1 from its card.
    const { id } = await bookingAtStep(staff, baseURL, { firstName: 'Ivo', lastName: 'Petrov', email: PAYER, businessName: 'Petrov Joinery', preferredDate: '2027-11-16' }, 2);
    // Staff notifications are not filed under the booking: the site-wide list, by kind.
    const staffMessages = async () => {
      const response = await staff.request.get('/api/admin/messages?kind=proof-changes-staff');
      expect(response.status()).toBe(200);
      return ((await response.json()) as { subject: string }[]).filter((message) => message.subject.includes(`booking #${id},`));
    };
    const panel = () => staff.getByTestId(`proof-panel-${id}`);
    const reopen = async () => {
      await staff.goto('/admin');
      await expect(staff.getByRole('tab', { name: 'Projects' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
      await openProject(staff, id, 'Ivo Petrov');
    };
    await reopen();
    await panel().getByLabel('New proof (PNG, JPG, SVG or PDF)').setInputFiles(LOGO);
    await panel().getByRole('button', { name: 'Send proof to customer' }).click();
    await expect(panel().getByTestId('proof-state')).toHaveText(/^Version 1 awaiting sign-off/);

    // The customer approves version 1, then asks for a change and pays for it by card.
    let proof = await track(customer, id, PAYER);
    await proof.getByRole('button', { name: 'Approve version 1' }).click();
    await customer.getByRole('dialog', { name: 'Approve version 1?' }).getByRole('button', { name: 'Yes, approve version 1' }).click();
    await expect(proof.getByTestId('change-after-approval')).toContainText('You approved version 1');
    await proof.getByRole('button', { name: 'Ask for a change after approval' }).click();
    await proof.getByLabel('What should we change?').fill('Add our new web address, please.');
    await proof.getByRole('button', { name: 'Continue to payment (£100)' }).click();
    const pay = proof.getByRole('button', { name: 'Pay £100' });
    await expect(pay).toBeEnabled();
    await proof.getByLabel('Card number').fill('4242 4242 4242 4242');
    await pay.click();
    await expect(proof.getByRole('status')).toContainText('Payment received. Your change request goes to our studio as soon as the payment is confirmed');

    // Stripe.js confirmed the £100 intent on the Stripe API, with the server's publishable key.
    const confirms = api.requests.filter((request) => request.method === 'POST' && request.path.endsWith('/confirm'));
    expect(confirms).toHaveLength(1);
    expect(confirms[0]!.params).toMatchObject({ key: PUBLISHABLE_KEY, payment_method: 'pm_card_visa' });
    const intentId = /^\/v1\/payment_intents\/(\w+)\/confirm$/.exec(confirms[0]!.path)![1]!;
    expect(api.intents.get(intentId)).toMatchObject({ status: 'succeeded', amount: 10_000, amount_received: 10_000, currency: 'gbp' });

    // Until Stripe's webhook says so, nothing reaches the studio: the approval stands, unpaid.
    await reopen();
    await expect(panel().getByTestId('proof-state')).toContainText('Version 1 approved on');
    await expect(panel().getByTestId('stencil-change-unpaid')).toContainText('£100 unpaid');
    expect(await staffMessages()).toEqual([]);

    // The signed webhook applies it; the same event again changes nothing.
    expect(await deliverSucceeded(baseURL, intentId)).toEqual({ status: 200, body: { received: true } });
    expect(await deliverSucceeded(baseURL, intentId)).toMatchObject({ status: 200, body: { received: true, duplicate: true } });

    await reopen();
    await expect(panel().getByTestId('proof-state')).toContainText('Changes requested on version 1');
    await expect(panel()).toContainText('Add our new web address, please.');
    await expect(panel()).toContainText(/Change after approval \(£100\): paid /);
    await expect(panel().getByTestId('stencil-change-unpaid')).toHaveCount(0);
    const told = await staffMessages();
    expect(told).toHaveLength(1);
    expect(told[0]!.subject).toContain('(after approval)');

    proof = await track(customer, id, PAYER);
    await expect(proof.getByRole('status')).toContainText('You asked for changes');
    await expect(proof.getByTestId('change-after-approval')).toHaveCount(0);

    await staffContext.close();
    await customerContext.close();
  });
});
