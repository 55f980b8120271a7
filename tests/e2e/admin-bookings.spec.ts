import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

async function openTab(page: Page, name: 'Bookings' | 'Contacts') {
  await signInAsStaff(page, name);
}

async function expectNoSeriousAxeViolations(page: Page) {
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

/** Each project uses its own dates, so the two projects never touch the same day. */
function dateFor(projectName: string, day: number): string {
  const month = projectName === 'mobile' ? '10' : '11';
  return `2027-${month}-${String(day).padStart(2, '0')}`;
}

test.describe('admin Bookings tab: changes to the seeded bookings', () => {
  // These change the shared seeded rows: one project runs them, one after another.
  test.describe.configure({ mode: 'serial' });

  test('archives a seeded booking after confirmation and restores it @desktop', async ({ page }) => {
    await openTab(page, 'Bookings');
    const hannah = page.getByTestId('booking-row').filter({ hasText: 'Hannah Whitworth' });
    await expect(hannah).toContainText('hannah@kelhambooks.example');
    await expect(hannah).toContainText('0114 496 0937');
    // Cancel keeps it; the dialog asks the spec's question.
    const archiveButton = hannah.getByRole('button', { name: /Archive booking/ });
    await archiveButton.click();
    const dialog = page.getByRole('dialog', { name: 'Archive project?' });
    await expect(dialog).toContainText('Are you sure you want to archive this project? It will be moved to the archived projects section.');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(archiveButton).toBeFocused();

    await archiveButton.click();
    await dialog.getByRole('button', { name: 'Archive' }).click();
    await expect(page.getByTestId('toast')).toContainText('Project Archived');
    await expect(hannah).toHaveCount(0);
    // Its row is gone, so focus lands on the search box rather than nowhere.
    await expect(page.getByLabel('Search bookings')).toBeFocused();

    await page.getByRole('button', { name: 'Archived Projects' }).click();
    const archived = page.getByTestId('booking-row').filter({ hasText: 'Hannah Whitworth' });
    await archived.getByRole('button', { name: /Restore booking/ }).click();
    await expect(page.getByTestId('toast')).toContainText('Project Restored');
    await expect(archived).toHaveCount(0);
    await page.getByRole('button', { name: 'Active Projects' }).click();
    await expect(page.getByTestId('booking-row').filter({ hasText: 'Hannah Whitworth' })).toBeVisible();
  });

  test('changes a status from the dropdown and searches on the server @desktop', async ({ page }) => {
    await openTab(page, 'Bookings');
    await page.getByLabel('Search bookings').fill('kelham');
    await expect(page.getByTestId('booking-row')).toHaveCount(1);
    await page.getByLabel(/Status of booking #\d+ \(Hannah Whitworth\)/).selectOption('confirmed');
    await expect(page.getByTestId('toast')).toContainText('Status Updated');
    await page.reload();
    await page.getByRole('tab', { name: 'Bookings' }).click();
    await page.getByLabel('Search bookings').fill('kelham');
    await expect(page.getByLabel(/Status of booking #\d+ \(Hannah Whitworth\)/)).toHaveValue('confirmed');
    await page.getByLabel(/Status of booking #\d+ \(Hannah Whitworth\)/).selectOption('pending');
    await expect(page.getByTestId('toast')).toContainText('Status Updated');
  });

  test('a block says how many bookings already on the date stay booked @desktop', async ({ page }) => {
    // Priya's seeded booking is in the past; Gareth's (9 July 2027) is the seeded future one.
    await openTab(page, 'Bookings');
    await page.getByLabel('Date to block').fill('2027-07-09');
    await page.getByRole('button', { name: 'Block date' }).click();
    await expect(page.getByTestId('block-notice')).toContainText('1 booking already on this date stays booked.');
    await expect(page.getByTestId('blocked-dates')).toContainText('Gareth Lowe');
    await expect(page.getByTestId('booking-row').filter({ hasText: 'Gareth Lowe' })).toBeVisible();
    await page.getByRole('button', { name: 'Unblock 9 Jul 2027' }).click();
    await expect(page.getByTestId('toast')).toContainText('Date Unblocked');
  });

  test('the bulk archive of tests takes the seeded test booking out of the active list @desktop', async ({ page }) => {
    await openTab(page, 'Bookings');
    await expect(page.getByTestId('booking-row').filter({ hasText: 'Test Booking' })).toContainText('TEST');
    // The button for it lives on the Projects tab; the call is the same.
    const result = await page.evaluate(async () => {
      const response = await fetch('/api/admin/bookings/archive-tests', { method: 'POST', credentials: 'include' });
      return { status: response.status, body: await response.json() };
    });
    // Other specs may have made test bookings of their own on this shared server: at least the seeded one.
    expect(result.status).toBe(200);
    expect(result.body.archived).toBeGreaterThanOrEqual(1);
    await page.reload();
    await page.getByRole('tab', { name: 'Bookings' }).click();
    await expect(page.getByTestId('booking-row').first()).toBeVisible();
    await expect(page.getByTestId('booking-row').filter({ hasText: 'Test Booking' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Archived Projects' }).click();
    const testRow = page.getByTestId('booking-row').filter({ hasText: 'Test Booking' });
    await expect(testRow).toBeVisible();
    // Put it back for the other tests.
    await testRow.getByRole('button', { name: /Restore booking/ }).click();
    await expect(page.getByTestId('toast')).toContainText('Project Restored');
  });
});

test.describe('admin Bookings tab', () => {
  test('blocks a date, which the booking form then refuses, and unblocks it', async ({ page }, testInfo) => {
    // Two pages and a block and unblock: longer than one step on a shared machine.
    test.setTimeout(60_000);
    const date = dateFor(testInfo.project.name, 12);
    await openTab(page, 'Bookings');
    await expect(page.getByRole('heading', { name: 'Availability' })).toBeVisible();
    await page.getByLabel('Date to block').fill(date);
    await page.getByLabel('Reason (optional)').fill('Team training day');
    await page.getByRole('button', { name: 'Block date' }).click();
    await expect(page.getByTestId('toast')).toContainText('Date Blocked');
    const longDate = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(date));
    await expect(page.getByTestId('blocked-dates')).toContainText(longDate);
    await expect(page.getByTestId('blocked-dates')).toContainText('Team training day');
    await expectNoSeriousAxeViolations(page);

    // The public form learns it from /api/bookings/unavailable-dates and refuses the date.
    await page.goto('/booking');
    await expect(page.locator('astro-island[ssr]')).toHaveCount(0);
    const dateField = page.getByLabel('Preferred date');
    await dateField.fill(date);
    await expect(dateField).toHaveValue('');

    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeVisible();
    await page.getByRole('tab', { name: 'Bookings' }).click();
    await page.getByRole('button', { name: `Unblock ${longDate}` }).click();
    await expect(page.getByTestId('toast')).toContainText('Date Unblocked');
    await expect(page.getByRole('button', { name: `Unblock ${longDate}` })).toHaveCount(0);
  });

  test('the bookings table has no serious accessibility problems and becomes cards on a phone', { tag: '@layout' }, async ({ page }) => {
    await openTab(page, 'Bookings');
    await expect(page.getByTestId('booking-row').first()).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    // Neither the page nor the table scrolls sideways: on a phone each booking is a card with its
    // status and actions on screen; from 1024 px it is the eight-column table.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    const region = page.getByRole('region', { name: 'Active projects' });
    expect(await region.evaluate((element) => element.scrollWidth <= element.clientWidth)).toBe(true);
    const firstRow = page.getByTestId('booking-row').first();
    const archive = firstRow.getByRole('button', { name: /^Archive booking/ });
    const status = firstRow.getByLabel(/^Status of booking/);
    const right = async (locator: typeof archive) => {
      const box = (await locator.boundingBox())!;
      return box.x + box.width;
    };
    expect(await right(archive)).toBeLessThanOrEqual(page.viewportSize()!.width);
    expect(await right(status)).toBeLessThanOrEqual(page.viewportSize()!.width);
  });
});

test.describe('admin Contacts tab', () => {
  test('lists the seeded enquiries newest first with mail and phone links', async ({ page }) => {
    await openTab(page, 'Contacts');
    const items = page.getByTestId('contact-item');
    await expect(items.filter({ hasText: 'Megan Clarke' })).toBeVisible();
    const megan = items.filter({ hasText: 'Megan Clarke' });
    await expect(megan).toContainText('Bulk/Enterprise');
    await expect(megan.getByRole('link', { name: 'megan@lanternevents.example' })).toHaveAttribute('href', 'mailto:megan@lanternevents.example');
    await expect(megan.getByRole('link', { name: '0161 496 0555' })).toHaveAttribute('href', 'tel:01614960555');
    const oliver = items.filter({ hasText: 'Oliver Grant' });
    await expect(oliver).toContainText('July Special Booking');
    await expect(oliver.getByRole('link', { name: /^tel:|^0/ })).toHaveCount(0);
    await expect(items.filter({ hasText: 'Chloe Ng' })).toContainText('Partnership');
    await expectNoSeriousAxeViolations(page);
  });
});
