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
