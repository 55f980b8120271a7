import { readFileSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { bookingAtStep, openProject, trackByForm } from '../fixtures/staff-setup.ts';

// Every image a page shows must load: a photo uploaded from the dashboard (with the thumbnail the
// browser made for it) is walked through the dashboard's Projects tab, the customer's tracking
// page and the public project page, and any image request that does not answer 200 fails.

const PNG = readFileSync(new URL('../fixtures/logo.png', import.meta.url));

/** Fails the test on any image request that answers other than 200, whichever page made it. */
function watchImages(page: Page): string[] {
  const failures: string[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'image' && response.status() !== 200) {
      failures.push(`${response.status()} ${new URL(response.url()).pathname}`);
    }
  });
  page.on('requestfailed', (request) => {
    if (request.resourceType() === 'image') failures.push(`failed ${new URL(request.url()).pathname}`);
  });
  return failures;
}

async function expectLoaded(image: Locator) {
  await image.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await expect.poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth > 0)).toBe(true);
}

test('@desktop a dashboard photo and its thumbnail load on the dashboard, tracking and project pages', async ({ page, baseURL }) => {
  test.slow(); // three pages and a dashboard on a busy machine
  const failures = watchImages(page);
  const email = 'ines@harbourlinen.co.uk';
  const { id, origin } = await bookingAtStep(page, baseURL!, { firstName: 'Ines', lastName: 'Harbour', email, preferredDate: '2027-11-03' }, 4);
  const upload = await page.request.post(`/api/bookings/${id}/photos`, {
    headers: origin,
    multipart: {
      photo: { name: 'harbour.png', mimeType: 'image/png', buffer: PNG },
      // A thumbnail the browser sends is ignored: the server makes its own, as a JPEG.
      thumbnail: { name: 'harbour-thumb.png', mimeType: 'image/png', buffer: PNG },
      photoType: 'after',
      step: '4',
      description: 'Harbour Linen, finished',
    },
  });
  expect(upload.status()).toBe(201);
  expect(((await upload.json()) as { thumbnailFileName: string }).thumbnailFileName).toMatch(/-thumb\.jpg$/);
  // Completed, so the public project page shows it.
  expect((await page.request.patch(`/api/admin/bookings/${id}/progress`, { headers: origin, data: { currentStep: 5 } })).status()).toBe(200);

  // The dashboard's Projects tab shows the thumbnail.
  await page.goto('/admin');
  const card = await openProject(page, id, 'Ines Harbour');
  const thumbnail = card.getByRole('img', { name: 'Harbour Linen, finished' });
  await expect(thumbnail).toHaveAttribute('src', /-thumb\.jpg$/);
  await expectLoaded(thumbnail);

  // The customer's tracking page shows the photo.
  await trackByForm(page, email, id);
  await expectLoaded(page.getByRole('region', { name: 'Project photos' }).locator('img').first());

  // The public project page shows it too.
  await page.goto(`/gallery/${id}`);
  await expectLoaded(page.locator('main img').first());

  expect(failures).toEqual([]);
});
