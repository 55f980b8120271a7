import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { bookingPayload, setupBookingHeaders } from '../fixtures/bookings.ts';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

async function openTab(page: Page, name: 'Bookings' | 'Logs') {
  await signInAsStaff(page, name);
}

/** The open dialog is what this test adds to the page; the tabs behind it have their own scans. */
async function expectNoSeriousAxeViolations(page: Page) {
  const scan = await new AxeBuilder({ page }).include('dialog[open]').analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

const pageFitsTheScreen = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= (window.visualViewport?.width ?? window.innerWidth));

// Staff read what a customer was sent and send it again, on a phone as on a desk. Each project
// books its own customer, so the two runs never read each other's messages.
test('staff open a booking’s messages, read one as sent and resend it', async ({ page, request, baseURL }, testInfo) => {
  // A sign-in, a booking, two lists and an accessibility scan: a ceiling for a busy shared
  // machine, not a wait (each step waits for its own state).
  test.setTimeout(150_000);
  const email = `iris.${testInfo.project.name}@hollowaycycles.co.uk`;
  const created = await request.post('/api/bookings', {
    headers: setupBookingHeaders(baseURL!),
    data: bookingPayload({ firstName: 'Iris', lastName: 'Holloway', email, preferredDate: testInfo.project.name === 'mobile' ? '2027-12-08' : '2027-12-09' }),
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: number };
  const policyErrors: string[] = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) policyErrors.push(message.text());
  });

  await openTab(page, 'Bookings');
  const row = page.locator(`[data-testid="booking-row"][data-booking-id="${id}"]`);
  await row.getByRole('button', { name: `Messages of booking #${id} (Iris Holloway)` }).click();
  const dialog = page.getByRole('dialog', { name: `Messages for booking #${id}` });
  const cards = dialog.getByTestId('message-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText('Booking confirmation');
  await expect(cards.first()).toContainText(`To ${email}`);
  await expect(cards.first()).toContainText(`#${id}`);
  expect(await pageFitsTheScreen(page)).toBe(true);

  await cards.first().getByRole('button').click();
  await expect(dialog.getByRole('heading', { level: 3 })).toContainText(`booking #${id}`);
  await expect(dialog.getByRole('region', { name: 'Plain text of the message' })).toContainText('TRACK YOUR PROJECT');
  // The calendar invite is listed and downloads from the message.
  const invite = dialog.getByRole('link', { name: 'installation.ics' });
  await expect(invite).toHaveAttribute('href', /\/api\/admin\/messages\/\d+\/attachments\/0$/);

  // Checked before the HTML part opens: axe cannot run inside a frame that allows no script.
  await expectNoSeriousAxeViolations(page);

  // The HTML part renders in a frame that may run nothing. (The scan above injects styles of its
  // own, which the policy refuses: only what follows counts.)
  policyErrors.length = 0;
  await dialog.getByRole('button', { name: 'HTML' }).click();
  const frame = dialog.locator('iframe[title="HTML part of the message"]');
  await expect(frame).toHaveAttribute('sandbox', '');
  await expect(page.frameLocator('iframe[title="HTML part of the message"]').getByRole('heading', { name: 'Track your project' })).toBeVisible();
  expect(await pageFitsTheScreen(page)).toBe(true);
  // The message's inline styles are left out rather than refused by the dashboard's policy.
  expect(policyErrors).toEqual([]);

  await dialog.getByRole('button', { name: 'Resend' }).dblclick();
  await expect(page.getByTestId('toast')).toContainText('Message Queued');
  // One resend per opening: another copy means opening the message again.
  await expect(dialog.getByRole('button', { name: 'Resent' })).toBeDisabled();
  await dialog.getByRole('button', { name: '← All messages' }).click();
  // A double click queues one copy.
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(1)).toContainText('Resend of #');

  // The Messages tab lists every message, found here by its recipient.
  await dialog.getByRole('button', { name: 'Close' }).click();
  await page.getByRole('tab', { name: 'Messages' }).click();
  await page.getByLabel('Recipient').fill(email);
  await page.getByRole('button', { name: 'Show messages' }).click();
  const listed = page.getByRole('region', { name: /Messages, newest first/ }).getByTestId('message-card');
  await expect(listed).toHaveCount(2);
  await expect(listed.first()).toContainText(`Booking #${id}`);
  await page.getByLabel('Kind').selectOption('enquiry-acknowledgement');
  await expect(page.getByText('No messages match these filters.')).toBeVisible();
  expect(await pageFitsTheScreen(page)).toBe(true);
});
