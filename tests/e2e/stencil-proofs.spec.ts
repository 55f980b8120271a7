import { fileURLToPath } from 'node:url';
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { bookingPayload, setupBookingHeaders } from '../fixtures/bookings.ts';
import { ADMIN_PASSWORD } from '../fixtures/e2e-server.ts';
import { openProject } from '../fixtures/staff-setup.ts';

// Stencil proof sign-off on a phone, both sides at once: staff send a proof from the project
// card, the customer asks for changes, approves version 2, then asks for a change after approval.
// The e2e server has no Stripe keys, so that change takes the "will be invoiced" path and staff
// waive it from the dashboard; the card payment itself is covered by tests/api/stencil-proofs.test.ts
// against the local Stripe-compatible API (Stripe.js cannot load offline).

const LOGO = fileURLToPath(new URL('../fixtures/logo.png', import.meta.url));
const EMAIL = 'noor@hartleyflorist.co.uk';

async function signIn(page: Page) {
  await page.goto('/admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: 'Unlock Dashboard' }).click();
  await expect(page.getByRole('tab', { name: 'Projects' })).toHaveAttribute('aria-selected', 'true');
}

async function track(page: Page, bookingId: number) {
  await page.goto('/track-project');
  await page.getByLabel('Email').fill(EMAIL);
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
  await signIn(staff);
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
  await expect(panel()).toContainText('waived by admin');

  proof = await track(customer, id);
  await expect(proof.getByRole('status')).toContainText('You asked for changes');

  await staffContext.close();
  await customerContext.close();
});
