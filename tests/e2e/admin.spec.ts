import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { ADMIN_PASSWORD } from '../fixtures/e2e-server.ts';

test.describe('admin gate', () => {
  test('refuses a wrong password, opens with the right one, and locks again at logout', async ({ page }) => {
    await page.goto('/admin');
    const password = page.getByLabel('Password');
    await password.fill('not-the-password');
    await page.getByRole('button', { name: 'Unlock Dashboard' }).click();
    await expect(page.getByTestId('toast')).toContainText('Invalid Password');
    await expect(page.getByTestId('toast')).toContainText('Check your e-mail address and password.');

    await password.fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock Dashboard' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    // The bootstrap owner: the spec's tabs with Messages before Logs, then Team (owners only) and My account.
    await expect(page.getByRole('tab')).toHaveText(['Projects', 'Bookings', 'Schedule', 'Contacts', 'Locations', 'Workers', 'Reviews', 'Messages', 'Logs', 'Analytics', 'Team', 'My account']);
    await expect(page.getByTestId('signed-in-as')).toContainText('Owner');
    await expect(page.getByRole('tab', { name: 'Projects' })).toHaveAttribute('aria-selected', 'true');

    // A reload keeps the server-side session; logout ends it.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByLabel('Password')).toBeVisible();
    await page.reload();
    await expect(page.getByLabel('Password')).toBeVisible();
  });

  test('the sign-in card takes the place of the session check without moving the page', { tag: '@layout' }, async ({ page }) => {
    // Hold the session check until its placeholder is on screen, so both states are measured.
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    await page.route(/\/api\/admin\/session/, async (route) => {
      await held;
      await route.continue();
    });
    const footerTop = () => page.locator('footer').evaluate((footer) => footer.getBoundingClientRect().top);
    await page.goto('/admin');
    await expect(page.getByRole('status').filter({ hasText: 'Checking your session…' })).toBeVisible();
    const whileChecking = await footerTop();
    answer();
    await expect(page.getByLabel('Password')).toBeVisible();
    // Everything below the card stays put (it jumped by about 190 px, a layout shift of 0.15).
    expect(await footerTop()).toBe(whileChecking);
  });

  test('the tabs work by keyboard and the gate has no serious accessibility problems', async ({ page }) => {
    await page.goto('/admin');
    await expect(page.getByLabel('Password')).toBeVisible();
    const gateScan = await new AxeBuilder({ page }).analyze();
    expect(gateScan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);

    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    const projects = page.getByRole('tab', { name: 'Projects' });
    await expect(projects).toBeVisible();
    await projects.focus();
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Bookings' })).toBeFocused();
    await expect(page.getByRole('tab', { name: 'Bookings' })).toHaveAttribute('aria-selected', 'true');
    await page.keyboard.press('End');
    await expect(page.getByRole('tab', { name: 'My account' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel', { name: 'My account' })).toBeVisible();
  });
});

test.describe('admin reviews (completion) tab', () => {
  test('sends a completed project its completion e-mail, after which a review can be requested', async ({ page }, testInfo) => {
    // Both viewports share one seeded server: each takes its own completed project.
    const customer = testInfo.project.name === 'mobile' ? 'Tom Birchall' : 'Priya Shah';
    await page.goto('/admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Reviews' }).click();
    const panel = page.getByRole('tabpanel', { name: 'Reviews' });
    await expect(panel.getByRole('heading', { name: 'Completed projects' })).toBeVisible();
    const project = panel.getByRole('listitem').filter({ hasText: customer });
    await expect(project.getByText('Pending Email')).toBeVisible();
    await expect(project.getByRole('link', { name: /Project page/ })).toHaveAttribute('href', /^\/gallery\/\d+$/);
    await project.getByRole('button', { name: 'Send Completion Email' }).click();
    await expect(page.getByTestId('toast')).toContainText('Completion Email Sent');
    await expect(project.getByRole('button', { name: 'Request Review' })).toBeVisible();
    const scan = await new AxeBuilder({ page }).include('[role="tabpanel"]').analyze();
    expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});

test.describe('admin dashboard frame', () => {
  test('shows the four stat cards and downloads bookings as CSV with a BOM and a header row', async ({ page }) => {
    await page.goto('/admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock Dashboard' }).click();
    const cards = page.getByTestId('stat-card');
    await expect(cards).toHaveCount(4);
    await expect(cards.locator('dt')).toHaveText(['Total Bookings', 'Pending Review', 'Completed Jobs', 'Total Revenue']);
    // The seed has bookings: the total is a number above zero and revenue is in pounds.
    await expect(cards.nth(0).locator('dd')).toHaveText(/^[1-9]\d*$/);
    await expect(cards.nth(3).locator('dd')).toHaveText(/^£[\d,]+\.\d\d$/);
    // On a phone the cards fold into one summary line, which shows every figure whole: the revenue
    // in whole pounds, nothing cut off at the edge.
    const summary = page.getByRole('button', { name: /^Totals/ });
    if (await summary.isVisible()) {
      await expect(summary).toHaveText(/^Totals · \d+ bookings · \d+ pending · £[\d,]+▼$/);
      const line = summary.locator('span').first();
      expect(await line.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    }

    // On a phone the actions fold under their heading.
    const unfold = page.getByRole('button', { name: 'Quick Actions' });
    if (await unfold.isVisible()) await unfold.click();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download bookings (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^cleanpatch-bookings-\d{4}-\d{2}-\d{2}\.csv$/);
    const { readFile } = await import('node:fs/promises');
    const bytes = await readFile((await download.path())!);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toMatch(/^id,createdAt,firstName,lastName,/);
    const scan = await new AxeBuilder({ page }).analyze();
    expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});

test.describe('admin privacy requests', () => {
  test('offers a data download and erases an address after confirmation', async ({ page }, testInfo) => {
    await page.goto('/admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await page.getByRole('tab', { name: 'Contacts' }).click();
    const address = `nobody-${testInfo.project.name}@erase-check.example`;
    await page.getByLabel("Customer's e-mail address").fill(address);
    await expect(page.getByRole('link', { name: 'Download data (JSON)' })).toHaveAttribute(
      'href',
      `/api/admin/privacy/export?email=${encodeURIComponent(address)}`,
    );
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Erase data' }).click();
    await expect(page.getByTestId('toast')).toContainText('Personal Data Erased');
    await expect(page.getByTestId('toast')).toContainText('0 bookings anonymised');
  });
});

test.describe('admin session expiry', () => {
  test('a session that ends while the dashboard is open asks for a sign-in over it', async ({ page, context }) => {
    await page.goto('/admin');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await expect(page.getByTestId('project-row').first()).toBeVisible();
    // The server forgets nothing here: the browser loses its cookie, as after an expiry. The next
    // admin call (the Contacts tab's, unless a call already under way gets there first) finds none.
    await context.clearCookies();
    await page.getByRole('tab', { name: 'Contacts' }).click({ timeout: 5_000 }).catch(() => undefined);
    // Asked over the dashboard, in place: what was on screen stays behind the dialog.
    const expired = page.getByRole('dialog', { name: 'Session expired' });
    await expect(expired.getByLabel('Password')).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeAttached();
  });
});
