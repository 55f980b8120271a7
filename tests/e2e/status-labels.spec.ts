import { expect, test } from '@playwright/test';
import { bookingAtStep, trackByForm } from '../fixtures/staff-setup.ts';

// A project step's status is stored as a code ('installation_scheduled'); people read words.

test('@desktop a scheduled installation reads as words on the tracking page and in the Bookings dropdown', async ({ page, baseURL }) => {
  test.slow(); // setup through the API, then two pages
  const email = 'tomas@lanternbrewing.co.uk';
  const { id } = await bookingAtStep(page, baseURL!, { firstName: 'Tomas', lastName: 'Lantern', email, preferredDate: '2027-11-09' }, 3);

  await trackByForm(page, email, id);
  await expect(page.getByRole('heading', { name: `Booking #${id}` })).toBeVisible();
  const status = page.locator('dl div', { has: page.locator('dt', { hasText: /^Status$/ }) }).locator('dd');
  await expect(status).toHaveText('Installation scheduled');
  await expect(page.locator('main')).not.toContainText('installation_scheduled');

  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Bookings' }).click();
  const dropdown = page.getByLabel(`Status of booking #${id} (Tomas Lantern)`);
  await expect(dropdown.locator('option:checked')).toHaveText('Installation scheduled');
  await expect(dropdown.locator('option')).toHaveText(['Installation scheduled', 'Pending', 'Confirmed', 'Completed', 'Cancelled']);
  // The step's status shows, but staff pick only the four booking statuses.
  await expect(dropdown.locator('option[disabled]')).toHaveText(['Installation scheduled']);
});
