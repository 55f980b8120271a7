import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test, type Browser, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { setupBookingHeaders } from '../fixtures/bookings.ts';
import { bookingAtStep, openProject, trackByForm } from '../fixtures/staff-setup.ts';

// The stencil proof on a 375 px phone: a PDF proof shows its first page as a picture (rendered by
// the server at upload) with the full PDF one tap away, on the project card and the tracking
// page; the tracking page says at the top that a proof is ready and jumps to it; the proof opens
// full size and zooms (pinch, buttons, keys); Approve asks once, naming the £100 rule.

const PDF = fileURLToPath(new URL('../fixtures/stencil-proof.pdf', import.meta.url));
const LOGO = fileURLToPath(new URL('../fixtures/logo.png', import.meta.url));

async function phone(browser: Browser, baseURL: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true });
  return { context, page: await context.newPage() };
}

/** Staff send a proof file through the API, as the project card's form does. */
async function sendProof(staff: Page, id: number, origin: Record<string, string>, file: string, mimeType: string) {
  const response = await staff.request.post(`/api/admin/bookings/${id}/proofs`, {
    headers: origin,
    multipart: { file: { name: file.split('/').pop()!, mimeType, buffer: readFileSync(file) } },
  });
  expect(response.status()).toBe(201);
  return (await response.json()) as { id: number; version: number };
}

async function trackProof(page: Page, email: string, id: number) {
  await trackByForm(page, email, id);
  await expect(page.getByRole('heading', { name: `Booking #${id}` })).toBeVisible();
  return page.getByTestId('customer-proof');
}

/** A booking at step 2 with one proof sent, tracked by its customer on a phone of their own. */
async function customerWithProof(browser: Browser, baseURL: string, person: { firstName: string; lastName: string; email: string; businessName: string }, file: string, mimeType: string) {
  const staff = await phone(browser, baseURL);
  const { id, origin } = await bookingAtStep(staff.page, baseURL, { ...person, preferredDate: '2027-11-16' }, 2);
  await sendProof(staff.page, id, origin, file, mimeType);
  await staff.context.close();
  const { context, page } = await phone(browser, baseURL);
  // Its own client address: the tracking form's per-client limit is this test's alone.
  await page.setExtraHTTPHeaders({ 'X-Forwarded-For': setupBookingHeaders(baseURL)['X-Forwarded-For']! });
  return { id, context, page, proof: await trackProof(page, person.email, id) };
}

const naturalWidth = (image: ReturnType<Page['getByRole']>) => image.evaluate((element: HTMLImageElement) => element.naturalWidth);

test('@mobile a PDF proof shows its first page as a picture, with the full PDF one tap away, on the project card and the tracking page', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const email = 'noor@hartleyflorist.co.uk';
  const staff = await phone(browser, baseURL!);
  const { id } = await bookingAtStep(staff.page, baseURL!, { firstName: 'Noor', lastName: 'Hartley', email, businessName: 'Hartley Florist', preferredDate: '2027-11-09' }, 2);

  // Staff send the PDF from the project card; the card shows its first page beside the full PDF.
  await staff.page.goto('/admin');
  await expect(staff.page.getByRole('tab', { name: 'Projects' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  await openProject(staff.page, id, 'Noor Hartley');
  const panel = staff.page.getByTestId(`proof-panel-${id}`);
  await panel.getByLabel('New proof (PNG, JPG, SVG or PDF)').setInputFiles(PDF);
  await panel.getByRole('button', { name: 'Send proof to customer' }).click();
  await expect(panel.getByTestId('proof-state')).toHaveText(/^Version 1 awaiting sign-off/);
  const staffPicture = panel.getByRole('img', { name: 'Version 1 (first page of the PDF)' });
  await expect.poll(() => naturalWidth(staffPicture)).toBeGreaterThan(0);
  await expect(panel.getByRole('link', { name: 'Open the full PDF' })).toHaveAttribute('href', /^\/api\/proofs\/\d+\/file$/);

  // The customer sees the first page as a picture, not an empty frame, and the PDF's link beside it.
  const customer = await phone(browser, baseURL!);
  await customer.page.setExtraHTTPHeaders({ 'X-Forwarded-For': setupBookingHeaders(baseURL!)['X-Forwarded-For']! });
  const proof = await trackProof(customer.page, email, id);
  const picture = proof.getByRole('img', { name: 'Stencil proof, version 1 (first page of the PDF)' });
  await expect(picture).toHaveAttribute('src', /^\/api\/proofs\/\d+\/preview$/);
  await expect.poll(() => naturalWidth(picture)).toBe(1600);
  await expect(proof.locator('iframe')).toHaveCount(0);
  const fullPdf = proof.getByRole('link', { name: 'Open the full PDF' });
  await picture.scrollIntoViewIfNeeded();
  await expect(picture).toBeInViewport();
  await expect(fullPdf).toBeInViewport();
  const opened = await customer.page.request.get((await fullPdf.getAttribute('href'))!);
  expect(opened.status()).toBe(200);
  expect(opened.headers()['content-type']).toBe('application/pdf');

  // Full size on a tap, with the full PDF there too.
  await proof.getByRole('button', { name: /View full size/ }).click();
  const zoom = customer.page.getByRole('dialog', { name: 'Version 1, full size' });
  await expect(zoom.getByRole('img', { name: 'Stencil proof, version 1 (first page of the PDF)' })).toBeVisible();
  await expect(zoom.getByRole('link', { name: 'Open the full PDF' })).toBeVisible();
  await zoom.getByRole('button', { name: 'Close' }).click();
  await expect(zoom).toBeHidden();

  await staff.context.close();
  await customer.context.close();
});

test('@mobile the tracking page points to a waiting proof, opens it full size to zoom, and asks once before approving', async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const person = { firstName: 'Ivo', lastName: 'Petrov', email: 'ivo@petrovjoinery.co.uk', businessName: 'Petrov Joinery' };
  const { id, context, page, proof } = await customerWithProof(browser, baseURL!, person, PDF, 'application/pdf');

  // The pointer is on the first screen; its jump brings the proof into view with focus on it.
  const pointer = page.getByTestId('proof-pointer');
  await expect(pointer.getByRole('heading', { name: 'Your stencil proof is ready' })).toBeInViewport();
  await expect(pointer).toContainText('Version 1 is waiting for your approval.');
  await expect(proof).not.toBeInViewport();
  await pointer.getByRole('link', { name: 'See your proof' }).click();
  const heading = proof.getByRole('heading', { name: 'Your stencil proof' });
  await expect(heading).toBeFocused();
  await expect(heading).toBeInViewport();

  // Full size on a tap: a modal dialog with focus inside, fitted to the phone's width.
  const opener = proof.getByRole('button', { name: /View full size/ });
  await opener.click();
  const zoom = page.getByRole('dialog', { name: 'Version 1, full size' });
  await expect(zoom).toBeVisible();
  await expect(zoom.getByRole('button', { name: 'Close' })).toBeFocused();
  const image = zoom.getByRole('img');
  const box = zoom.getByTestId('proof-zoom-box');
  const imageWidth = async () => (await image.boundingBox())!.width;
  await expect.poll(imageWidth).toBeGreaterThan(300);
  expect(await imageWidth()).toBeLessThanOrEqual(375);
  await expect(zoom.getByTestId('proof-zoom-level')).toHaveText('100%');

  // Pinch: two fingers spread on the picture zoom it; the box scrolls to look around.
  const area = (await box.boundingBox())!;
  const cdp = await context.newCDPSession(page);
  await cdp.send('Input.synthesizePinchGesture', {
    x: Math.round(area.x + area.width / 2),
    y: Math.round(area.y + area.height / 2),
    scaleFactor: 2.5,
    gestureSourceType: 'touch',
  });
  await expect.poll(imageWidth).toBeGreaterThan(600);
  expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);

  // The buttons and the keyboard: 0 fits, + and − step, Tab stays inside, Escape closes.
  await page.keyboard.press('0');
  await expect(zoom.getByTestId('proof-zoom-level')).toHaveText('100%');
  await zoom.getByRole('button', { name: 'Zoom in' }).click();
  await expect(zoom.getByTestId('proof-zoom-level')).toHaveText('150%');
  await page.keyboard.press('+');
  await expect(zoom.getByTestId('proof-zoom-level')).toHaveText('225%');
  await page.keyboard.press('-');
  await expect(zoom.getByTestId('proof-zoom-level')).toHaveText('150%');
  await zoom.getByRole('button', { name: 'Close' }).focus();
  await page.keyboard.press('Tab');
  await expect(box).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(zoom.getByRole('link', { name: 'Open the full PDF' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(zoom.getByRole('button', { name: 'Zoom out' })).toBeFocused();
  const axeZoom = await new AxeBuilder({ page }).include('[aria-labelledby="proof-zoom-title"]').analyze();
  expect(axeZoom.violations.map((violation) => violation.id)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(zoom).toBeHidden();
  await expect(opener).toBeFocused();

  // Approve asks once, naming the £100 rule; Cancel changes nothing.
  await proof.getByRole('button', { name: 'Approve version 1' }).click();
  const confirm = page.getByRole('dialog', { name: 'Approve version 1?' });
  await expect(confirm).toContainText('We will make your stencil from this version. Please note: a stencil change after approval costs an extra £100.');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  const axeConfirm = await new AxeBuilder({ page }).include('[aria-labelledby="confirm-dialog-title"]').analyze();
  expect(axeConfirm.violations.map((violation) => violation.id)).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(confirm).toBeHidden();
  await expect(proof.getByRole('button', { name: 'Approve version 1' })).toBeFocused();
  const listed = await page.request.get(`/api/bookings/${id}/proofs`);
  expect(((await listed.json()) as { status: string }[])[0]!.status).toBe('awaiting');

  await proof.getByRole('button', { name: 'Approve version 1' }).click();
  await confirm.getByRole('button', { name: 'Yes, approve version 1' }).click();
  await expect(proof.getByTestId('change-after-approval')).toContainText('You approved version 1');
  await expect(page.getByTestId('proof-pointer')).toHaveCount(0);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((violation) => violation.id)).toEqual([]);
  await context.close();
});

test('@mobile an image proof opens full size on a tap too', async ({ browser, baseURL }) => {
  const person = { firstName: 'Amira', lastName: 'Khan', email: 'amira@northernroasters.co.uk', businessName: 'Northern Roasters' };
  const { context, page, proof } = await customerWithProof(browser, baseURL!, person, LOGO, 'image/png');
  await expect(proof.getByRole('link', { name: 'Open the full PDF' })).toHaveCount(0);
  await proof.getByRole('button', { name: /Stencil proof, version 1 View full size/ }).click();
  const zoom = page.getByRole('dialog', { name: 'Version 1, full size' });
  await expect.poll(() => naturalWidth(zoom.getByRole('img', { name: 'Stencil proof, version 1' }))).toBeGreaterThan(0);
  await page.keyboard.press('Escape');
  await expect(zoom).toBeHidden();
  await context.close();
});
