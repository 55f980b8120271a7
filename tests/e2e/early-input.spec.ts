import { expect, test, type Page } from '@playwright/test';

// What a person types (or the browser autofills) before an island wakes up must survive it:
// the island's code is held back until the fields are filled, then released.

/** Holds the island's module until the returned function is called. */
async function holdIsland(page: Page, component: string): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route(new RegExp(`/_astro/${component}\\.[\\w-]+\\.js$`), async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const hydrated = (page: Page, label: string) =>
  expect(page.locator('astro-island', { has: page.getByLabel(label) })).not.toHaveAttribute('ssr');

test('/track-project keeps an e-mail and booking ID typed before the form woke up', async ({ page }) => {
  test.slow(); // the island is held back on purpose; a busy machine adds the rest
  const release = await holdIsland(page, 'TrackProject');
  await page.goto('/track-project', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('Email').fill('early@northernroast.co.uk');
  await page.getByLabel('Booking ID').fill('4');
  release();
  await hydrated(page, 'Email');
  await expect(page.getByRole('button', { name: 'Track Project' })).toBeEnabled();
  await page.getByLabel('Booking ID').press('2'); // a render after waking keeps the e-mail too
  await expect(page.getByLabel('Email')).toHaveValue('early@northernroast.co.uk');
  await expect(page.getByLabel('Booking ID')).toHaveValue('42');
});

test('/contact keeps what was typed before the form woke up', async ({ page }) => {
  test.slow();
  const release = await holdIsland(page, 'ContactForm');
  await page.goto('/contact', { waitUntil: 'domcontentloaded' });
  const form = page.getByRole('form', { name: 'Send us a message' });
  await form.getByLabel('First name').fill('Megan');
  await form.getByLabel('Email').fill('megan@quaysidegin.co.uk');
  await form.getByLabel('Inquiry type').selectOption({ index: 1 });
  await form.getByLabel('Message').fill('Ten patches by the quay, please.');
  release();
  await hydrated(page, 'First name');
  await form.getByLabel('Last name').fill('Lowe'); // a render after waking
  await expect(form.getByLabel('First name')).toHaveValue('Megan');
  await expect(form.getByLabel('Email')).toHaveValue('megan@quaysidegin.co.uk');
  await expect(form.getByLabel('Inquiry type')).not.toHaveValue('');
  await expect(form.getByLabel('Message')).toHaveValue('Ten patches by the quay, please.');
});

test('/booking keeps the fields typed and the choices made before the form woke up', async ({ page }) => {
  test.slow();
  await page.route(/^https:\/\/[a-z]\.tile\.openstreetmap\.org\//, (route) => route.fulfill({ status: 404 }));
  const release = await holdIsland(page, 'BookingForm');
  await page.goto('/booking', { waitUntil: 'domcontentloaded' });
  await page.getByLabel('First name').fill('Ada');
  await page.getByLabel('Email').fill('ada@analytical.example');
  await page.getByLabel('Preferred date').fill('2027-08-25');
  await page.getByRole('radio', { name: /Night work/ }).check();
  await page.getByRole('radio', { name: /10 patches/ }).check();
  release();
  await hydrated(page, 'First name');

  // The summary is the island's state: it shows what was chosen before it woke up.
  const summary = page.getByTestId('booking-summary');
  await expect(summary).toContainText('25 August 2027');
  await expect(summary).toContainText('Night (6pm - 6am)');
  await expect(summary).toContainText('10 patches');
  await expect(page.getByTestId('booking-total')).toHaveText('£799');
  await page.getByLabel('Last name').fill('Lovelace'); // a render after waking
  await expect(page.getByLabel('First name')).toHaveValue('Ada');
  await expect(page.getByLabel('Email')).toHaveValue('ada@analytical.example');
  await expect(page.getByLabel('Preferred date')).toHaveValue('2027-08-25');
  await expect(page.getByRole('radio', { name: /Night work/ })).toBeChecked();
  await expect(page.getByRole('radio', { name: /10 patches/ })).toBeChecked();

  // The submit's checks know them too: only what is still missing is marked.
  await page.getByRole('button', { name: 'Proceed to Payment' }).click();
  await expect(page.getByText('There is a problem')).toBeVisible();
  await expect(page.getByLabel('Phone number')).toHaveAttribute('aria-invalid', 'true');
  for (const label of ['First name', 'Email', 'Preferred date']) {
    await expect(page.getByLabel(label)).not.toHaveAttribute('aria-invalid', 'true');
  }
});

// The review form and the admin sign-in are drawn by their islands once a link or a session has
// been checked, so there is no field to type into before they wake up: nothing can be lost. If
// either ever renders its form on the server, it must adopt early input as the forms above do.
for (const [path, component, waiting] of [
  ['/review?t=not-a-real-token', 'ReviewForm', 'Checking your review link...'],
  ['/admin', 'AdminApp', 'Checking your session…'],
] as const) {
  test(`${path.split('?')[0]} has no field to type into before its island wakes up`, async ({ page }) => {
    const release = await holdIsland(page, component);
    await page.goto(path, { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('status').filter({ hasText: waiting })).toBeVisible();
    await expect(page.locator('main').locator('input, textarea, select')).toHaveCount(0);
    release();
  });
}
