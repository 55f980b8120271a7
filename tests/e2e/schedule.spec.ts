import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { bookingAtStep } from '../fixtures/staff-setup.ts';

// The Schedule tab (a month grid at 1280 px, an agenda at 375 px), a rain day from preview to
// confirm, and the customer's choice of another day with the link from the weather e-mail. The
// specs add bookings others would count, so they run in the -after projects (playwright.config.ts);
// each width uses dates of its own.

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const monthHeading = (date: string) => `${MONTHS[Number(date.slice(5, 7)) - 1]} ${date.slice(0, 4)}`;

async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
}

async function expectAxeClean(page: Page) {
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([]);
}

/** Opens /admin (already signed in through the API) on the Schedule tab at the month of `date`. */
async function openSchedule(page: Page, date: string) {
  await page.goto('/admin');
  await page.getByRole('tab', { name: 'Schedule' }).click();
  const heading = page.locator('#schedule-month');
  await expect(heading).toBeVisible();
  const wanted = monthHeading(date);
  for (let step = 0; step < 24 && (await heading.textContent()) !== wanted; step++) {
    const before = await heading.textContent();
    await page.getByRole('button', { name: 'Next month' }).click();
    await expect(heading).not.toHaveText(before!);
  }
  await expect(heading).toHaveText(wanted);
  await expect(page.getByText('Loading the schedule...')).toHaveCount(0);
}

const isWide = () => test.info().project.name.startsWith('desktop');

// Two axe scans and a dozen calls each: more than the default 30 s on a loaded 2-core machine.
test.describe.configure({ timeout: 90_000 });

test('the Schedule shows a month of days against capacity, and a day opens with its bookings @layout', async ({ page, baseURL }) => {
  const date = isWide() ? '2028-07-12' : '2028-07-19';
  const name = isWide() ? 'Wide' : 'Narrow';
  const { id } = await bookingAtStep(page, baseURL!, { preferredDate: date, firstName: 'Tess', lastName: `Sched${name}`, businessName: `Schedule ${name} Ltd` }, 1);
  await openSchedule(page, date);

  // A grid at 1280 px, an agenda at 375 px.
  await expect(page.getByTestId(isWide() ? 'schedule-grid' : 'schedule-agenda')).toBeVisible();
  await expect(page.getByTestId(isWide() ? 'schedule-agenda' : 'schedule-grid')).toBeHidden();
  const day = page.getByTestId(isWide() ? 'schedule-grid' : 'schedule-agenda').getByRole('button', { name: new RegExp(`^${Number(date.slice(8))} ${monthHeading(date)}`) });
  await expect(day).toContainText('10 of 40 patches');
  await expect(day).toContainText('0 paid, 10 unpaid');
  await day.click();
  const panel = page.getByRole('region', { name: new RegExp(`^${Number(date.slice(8))} ${monthHeading(date)}`) });
  await expect(panel.getByRole('heading', { level: 3 })).toBeFocused();
  const booking = panel.getByRole('listitem').filter({ hasText: `#${id} Schedule ${name} Ltd` });
  await expect(booking).toContainText('Unpaid (holds no room)');
  await expect(booking).toContainText('Step 1 · Design Consultation');
  await expect(panel.getByLabel('Patches')).toHaveValue('40');
  await expectAxeClean(page);
  await shot(page, `schedule-${isWide() ? 1280 : 375}`);

  // Move the booking by keyboard to the next day: the customer is told, the day follows.
  const next = `${date.slice(0, 8)}${String(Number(date.slice(8)) + 1).padStart(2, '0')}`;
  await panel.getByLabel(`Move #${id} to`).fill(next);
  await panel.getByLabel(`Move #${id} to`).press('Enter');
  await expect(page.getByText(`Booking #${id} moved to`)).toBeVisible();
  const nextDay = page.getByTestId(isWide() ? 'schedule-grid' : 'schedule-agenda').getByRole('button', { name: new RegExp(`^${Number(next.slice(8))} ${monthHeading(date)}`) });
  await expect(nextDay).toContainText('10 of 40 patches');
});

test('a rain day from preview to confirm, then the customer chooses another day @layout', async ({ page, baseURL }) => {
  const date = isWide() ? '2028-07-04' : '2028-07-25';
  const tag = isWide() ? 'Wide' : 'Narrow';
  const email = `rain.${tag.toLowerCase()}@northernroasters.co.uk`;
  const { id, origin } = await bookingAtStep(page, baseURL!, { preferredDate: date, firstName: 'Rhea', lastName: `Rain${tag}`, businessName: `Rain ${tag} Ltd`, email }, 1);
  await openSchedule(page, date);

  const rain = page.getByRole('region', { name: 'Rain day' });
  await rain.getByLabel('Rained-off day').fill(date);
  await expect(rain.getByRole('group', { name: /Regions it rains in/ })).toBeVisible();
  await rain.getByRole('button', { name: 'Preview moves' }).click();
  await expect(rain.getByRole('heading', { name: 'Proposed moves' })).toBeVisible();
  const proposed = rain.getByLabel(`New day for #${id}`);
  const nextDay = `${date.slice(0, 8)}${String(Number(date.slice(8)) + 1).padStart(2, '0')}`;
  await expect(proposed).toHaveValue(nextDay);
  await expectAxeClean(page);
  await shot(page, `rain-day-preview-${isWide() ? 1280 : 375}`);
  // Staff know better: a day later than proposed.
  const chosen = `${date.slice(0, 8)}${String(Number(date.slice(8)) + 2).padStart(2, '0')}`;
  await proposed.fill(chosen);
  await rain.getByRole('button', { name: /^Confirm rain day: move \d+ booking/ }).click();
  await expect(rain.getByRole('heading', { name: 'Moved' })).toBeVisible();
  await expect(page.getByText(/booking\(s\) moved from/)).toBeVisible();

  // The customer's e-mail carries the link to choose another day.
  const messages = (await (await page.request.get(`/api/admin/bookings/${id}/messages`, { headers: origin })).json()) as { id: number; kind: string }[];
  const weather = messages.find((message) => message.kind === 'installation-weather-moved')!;
  const message = (await (await page.request.get(`/api/admin/messages/${weather.id}`, { headers: origin })).json()) as { text: string };
  expect(message.text).toContain('rescheduled free of charge');
  const link = /\/reschedule#[\w-]{32}/.exec(message.text)![0];

  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Choose another day' })).toBeVisible();
  const days = page.getByRole('list', { name: 'Days with room' });
  await expect(days.getByRole('button').first()).toBeVisible();
  await expect(page.getByText(`booking #${id}: now on`)).toBeVisible();
  await expectAxeClean(page);
  await shot(page, `reschedule-${isWide() ? 1280 : 375}`);
  const first = days.getByRole('button').first();
  const label = (await first.textContent())!.replace('Move to ', '');
  await first.click();
  await expect(page.getByRole('heading', { name: `Your new day: ${label}` })).toBeVisible();
  // The link works once.
  await page.reload();
  await expect(page.getByRole('alert')).toHaveText('This link has already been used or has ended. Please call us to change the day.');
});
