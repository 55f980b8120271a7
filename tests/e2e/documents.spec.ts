import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { isA4, readPdf } from '../fixtures/pdf-reader.ts';
import { setupBookingHeaders } from '../fixtures/bookings.ts';
import { ADMIN_PASSWORD, TRANSPARENT_PNG } from '../fixtures/e2e-server.ts';
import { signInAsStaff } from '../fixtures/staff-setup.ts';

// What a business customer keeps, on a phone (api.md "Documents for business customers"): the
// seeded completed booking #1 (paid, so it has its invoice) tracked by e-mail and booking ID.

const PRIYA = { email: 'priya@northernroast.example', id: 1 };

async function expectNoSeriousAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
  expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`)).toEqual([]);
}

async function trackPriya(page: Page, baseURL: string) {
  // A client address of this test's own: tracking is rate limited per client.
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': setupBookingHeaders(baseURL)['X-Forwarded-For']! });
  await page.goto('/track-project');
  await page.getByLabel('Email').fill(PRIYA.email);
  await page.getByLabel('Booking ID').fill(String(PRIYA.id));
  await page.getByRole('button', { name: 'Track Project' }).click();
  await expect(page.getByRole('heading', { name: `Booking #${PRIYA.id}` })).toBeFocused();
}

async function downloadedPdf(page: Page, link: ReturnType<Page['getByRole']>) {
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  const bytes = new Uint8Array(await readFile((await download.path())!));
  return { name: download.suggestedFilename(), pdf: await readPdf(bytes) };
}

test.describe('@mobile invoices, the campaign report and Book again on the tracking page', () => {
  // Two PDFs made and read, and a booking made, on a machine shared with the build: generous.
  test.describe.configure({ timeout: 120_000 });
  test('downloads the invoice and the report, and saves billing details', async ({ page, baseURL }) => {
    await trackPriya(page, baseURL!);
    const documents = page.getByTestId('documents');
    await documents.scrollIntoViewIfNeeded();
    await expect(documents.getByText('Invoice CP-000001', { exact: true })).toBeVisible();

    const invoice = await downloadedPdf(page, documents.getByRole('link', { name: 'Download invoice CP-000001 PDF' }));
    expect(invoice.name).toMatch(/^(invoice|receipt)-CP-000001\.pdf$/);
    expect(invoice.pdf.text).toContain('CP-000001');
    expect(invoice.pdf.text).toContain('Northern Roast Coffee');
    expect(invoice.pdf.fontsEmbedded).toBe(true);

    const report = await downloadedPdf(page, documents.getByRole('link', { name: 'Download campaign report (PDF)' }));
    expect(report.name).toBe('campaign-report-booking-1.pdf');
    expect(report.pdf.pages.every(isA4)).toBe(true);
    expect(report.pdf.text).toContain('Market Street, Manchester M1 1PT');
    expect(report.pdf.pages.reduce((sum, page) => sum + page.images, 0)).toBeGreaterThan(0);

    const form = page.getByRole('form', { name: 'Billing details' });
    await form.getByLabel('Your VAT number').fill('not a vat number');
    await form.getByRole('button', { name: 'Save billing details' }).click();
    await expect(form.getByLabel('Your VAT number')).toHaveAccessibleDescription(/Enter a VAT number such as GB123456789/);
    await form.getByLabel('Billing address').fill('Northern Roast Coffee, 1 Market Street, Manchester M1 1PT');
    await form.getByLabel('Purchase order (PO) reference').fill('PO-2041');
    await form.getByLabel('Your VAT number').fill('gb 123 4567 89');
    await form.getByRole('button', { name: 'Save billing details' }).click();
    await expect(form.getByRole('status')).toHaveText('Saved. Your next invoices will carry these details.');
    await expect(form.getByLabel('Your VAT number')).toHaveValue('GB123456789');
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: test.info().outputPath('tracking-documents-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await documents.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('tracking-documents-1280.png'), fullPage: true });
  });

  test('Book again opens the booking form filled in; with a new date it books', async ({ page, baseURL }) => {
    await page.route(/^https:\/\/[a-z]\.tile\.openstreetmap\.org\//, (route) => route.fulfill({ status: 200, contentType: 'image/png', body: TRANSPARENT_PNG }));
    await trackPriya(page, baseURL!);
    await page.getByRole('link', { name: 'Book again' }).click();
    await expect(page).toHaveURL(/\/booking\?rebook=1$/);
    await expect(page.getByTestId('rebook-note')).toContainText('Your details, brand files and locations from booking #1 are filled in');
    await expect(page.getByLabel('First name')).toHaveValue('Priya');
    await expect(page.getByLabel('Last name')).toHaveValue('Shah');
    await expect(page.getByLabel('Business name')).toHaveValue('Northern Roast Coffee');
    await expect(page.getByLabel('Email')).toHaveValue(PRIYA.email);
    await expect(page.getByLabel('Preferred date')).toHaveValue('');
    // The brand files come attached as they are: named, from booking #1, removable, nothing uploading.
    const logo = page.getByTestId('upload-item').filter({ hasText: 'northern-roast-logo.png' });
    await expect(logo).toContainText('From booking #1');
    await expect(logo.getByRole('button', { name: 'Remove northern-roast-logo.png' })).toBeVisible();
    await expect(page.getByRole('progressbar')).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
    await logo.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath('booking-rebook-files-375.png') });
    await page.screenshot({ path: test.info().outputPath('booking-rebook-375.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: test.info().outputPath('booking-rebook-1280.png') });
    await page.setViewportSize({ width: 375, height: 740 });

    await page.getByLabel('Preferred date').fill('2027-10-06');
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/bookings') && response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    const response = await answered;
    expect(response.status()).toBe(201);
    const payload = response.request().postDataJSON();
    expect(payload).toMatchObject({ firstName: 'Priya', businessName: 'Northern Roast Coffee', quantity: 10, workType: 'day', preferredDate: '2027-10-06' });
    expect(payload.locationCoordinates.map((location: { address: string }) => location.address)).toEqual([
      'Market Street, Manchester M1 1PT',
      'Oldham Street, Manchester M4 1LE',
    ]);
    // The same stored file, named by reference: nothing was uploaded again.
    expect(payload.uploadedFiles).toEqual([expect.objectContaining({ originalName: 'northern-roast-logo.png', mimeType: 'image/png' })]);
    // The price is the server's, from the quantity and work type: 10 day patches, £599.
    const booked = await response.json();
    expect(booked.totalPrice).toBe(599);
    await expect(page.getByRole('heading', { name: 'Booking Confirmed!' })).toBeVisible();

    // Staff see the file under the new booking too: the one stored file, for both bookings.
    const origin = { Origin: baseURL! };
    expect((await page.request.post('/api/admin/login', { headers: origin, data: { password: ADMIN_PASSWORD } })).status()).toBe(204);
    const listed = await page.request.get(`/api/bookings?q=${encodeURIComponent(PRIYA.email)}`, { headers: origin });
    const rows = (await listed.json()) as { id: number; uploadedFiles: { fileName: string; originalName: string }[] }[];
    const filesOf = (id: number) => rows.find((row) => row.id === id)?.uploadedFiles;
    expect(filesOf(booked.id)).toEqual([expect.objectContaining({ originalName: 'northern-roast-logo.png', fileName: payload.uploadedFiles[0].filename })]);
    expect(filesOf(PRIYA.id)).toEqual(filesOf(booked.id));
  });

  test('staff download the invoices CSV from Quick Actions', async ({ page }) => {
    await signInAsStaff(page);
    await page.getByRole('button', { name: 'Quick Actions' }).click();
    const link = page.getByRole('link', { name: 'Download invoices (CSV)' });
    await expect(link).toHaveAttribute('href', '/api/admin/invoices.csv');
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const csv = await readFile((await download.path())!, 'utf8');
    expect(csv).toContain('Invoice number,Invoice date,Customer');
    expect(csv).toContain('CP-000001,2026-07-14,Northern Roast Coffee');
    await page.screenshot({ path: test.info().outputPath('admin-quick-actions-375.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: test.info().outputPath('admin-quick-actions-1280.png') });
  });
});
