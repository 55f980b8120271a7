import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { EMAIL_KINDS } from '../../src/domain/email-kinds.ts';
import { londonDate } from '../../src/domain/schedule.ts';
import { bookingPayload, setupBookingHeaders } from '../fixtures/bookings.ts';
import { bookingAtStep, openProject, signInAsStaff } from '../fixtures/staff-setup.ts';

// What staff read on a phone: a crew photo's proof (time, place, worker) on the project card and
// the crew board, the Messages tab with its recipient search and the warning before resending a
// dead link, and the Projects list in installation-day order with compact rows.

const PHOTO = readFileSync(path.resolve('tests/fixtures/logo.png'));
async function shot(page: Page, name: string) {
  await page.screenshot({ path: test.info().outputPath(`${name}-${page.viewportSize()!.width}.png`), fullPage: true });
}

/** The dashboard for a page already signed in through the API (the page shares the cookie). */
async function openDashboard(page: Page, tab?: string) {
  await page.goto('/admin');
  await expect(page.getByRole('tab', { name: 'Projects' })).toHaveAttribute('aria-selected', 'true', { timeout: 30_000 });
  if (tab) await page.getByRole('tab', { name: tab }).click();
}

/** One part of the page, at full resolution, for a closer look than the whole page gives. */
async function shotOf(locator: Locator, name: string, page: Page) {
  await locator.screenshot({ path: test.info().outputPath(`${name}-${page.viewportSize()!.width}.png`) });
}

async function expectNoSeriousAxeViolations(page: Page) {
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
}

/**
 * A booking in Bristol (its own route, away from the seeded Manchester stops) scheduled for today
 * and given to a worker of its own, who gets a link to the day. Returns the crew token.
 */
async function scheduledStopWithWorker(page: Page, baseURL: string, tag: string) {
  const today = londonDate(new Date());
  const { id, origin } = await bookingAtStep(
    page,
    baseURL,
    {
      firstName: 'Wren',
      lastName: `Proof${tag}`,
      email: `wren.${tag}@harbourprints.co.uk`,
      locationAddress: 'Harbourside, Bristol BS1 5DB',
      locationCoordinates: [{ address: 'Harbourside, Bristol BS1 5DB', lat: 51.4508, lng: -2.5985 }],
    },
    2,
  );
  const scheduled = await page.request.patch(`/api/admin/bookings/${id}/progress`, {
    headers: origin,
    data: { currentStep: 3, installationDate: `${today}T10:00:00.000Z` },
  });
  expect(scheduled.status()).toBe(200);
  const workerEmail = `mo.${tag}@crew.co.uk`;
  const added = await page.request.post('/api/admin/workers', { headers: origin, data: { email: workerEmail, name: `Mo ${tag}` } });
  expect(added.status()).toBe(201);
  const worker = (await added.json()) as { id: number };
  const assigned = await page.request.put('/api/admin/crew/assignments', { headers: origin, data: { date: today, bookingIds: [id], workerId: worker.id } });
  expect(assigned.status()).toBe(204);
  expect((await page.request.post(`/api/admin/crew/workers/${worker.id}/resend`, { headers: origin, data: { date: today } })).status()).toBe(200);
  const [mail] = (await (await page.request.get(`/api/admin/messages?to=${encodeURIComponent(workerEmail)}&kind=worker-routes`)).json()) as { id: number }[];
  const message = (await (await page.request.get(`/api/admin/messages/${mail!.id}`)).json()) as { text: string };
  const token = /\/crew\?t=([\w-]+)/.exec(message.text)![1]!;
  return { id, origin, today, worker, workerEmail, messageId: mail!.id, token, name: `Wren Proof${tag}` };
}

test("a crew photo shows its time, place and worker on the project card and the crew board @mobile", async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  await page.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  const stop = await scheduledStopWithWorker(page, baseURL!, 'card');
  const takenAt = new Date(Date.now() - 10 * 60_000).toISOString();
  const uploaded = await page.request.post(`/api/crew/stops/${stop.id}/photos`, {
    headers: { Authorization: `Bearer ${stop.token}`, Origin: baseURL! },
    multipart: {
      photo: { name: 'IMG_0042.png', mimeType: 'image/png', buffer: PHOTO },
      photoType: 'after',
      takenAt,
      lat: '51.45081',
      lng: '-2.59852',
      accuracy: '12',
    },
  });
  expect(uploaded.status()).toBe(201);

  await openDashboard(page);
  const card = await openProject(page, stop.id, stop.name);
  const proof = card.getByTestId('photo-proof');
  await expect(proof).toHaveCount(1);
  await expect(proof).toContainText('By');
  await expect(proof).toContainText('Mo card');
  // Taken ten minutes before it arrived: both times show.
  await expect(proof).toContainText('received');
  const map = proof.getByRole('link', { name: /Map \(±12 m\)/ });
  await expect(map).toHaveAttribute('href', /openstreetmap\.org\/\?mlat=51\.45081&mlon=-2\.59852/);
  await proof.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth)).toBe(true);
  await shot(page, 'project-card-proof');
  await shotOf(card.getByRole('list', { name: `Photos of booking #${stop.id}` }), 'project-card-photos', page);

  await page.getByRole('tab', { name: 'Workers' }).click();
  const row = page.getByTestId('crew-board-stop').filter({ hasText: `#${stop.id}` });
  await expect(row.getByTestId('photo-proof')).toContainText('Mo card');
  await expect(row.getByRole('link', { name: /Map \(±12 m\)/ })).toBeVisible();
  await row.scrollIntoViewIfNeeded();
  await shot(page, 'crew-board-proof');
  await shotOf(page.getByTestId('crew-route').filter({ has: row }), 'crew-board-route', page);

  // A booking scheduled later on the same street joins Mo's route: it waits for staff, and the
  // board says so, with one tap to give it to Mo.
  const joined = await page.request.post('/api/bookings', {
    headers: setupBookingHeaders(baseURL!),
    data: bookingPayload({
      firstName: 'Ira',
      lastName: 'Joiner',
      email: 'ira.joiner@harbourprints.co.uk',
      locationAddress: 'Harbourside, Bristol BS1 5DB',
      locationCoordinates: [{ address: 'Harbourside, Bristol BS1 5DB', lat: 51.4511, lng: -2.5981 }],
    }),
  });
  expect(joined.status()).toBe(201);
  const joinedId = ((await joined.json()) as { id: number }).id;
  for (const step of [1, 2]) expect((await page.request.patch(`/api/admin/bookings/${joinedId}/progress`, { headers: stop.origin, data: { currentStep: step } })).status()).toBe(200);
  const scheduled = await page.request.patch(`/api/admin/bookings/${joinedId}/progress`, {
    headers: stop.origin,
    data: { currentStep: 3, installationDate: `${stop.today}T11:00:00.000Z` },
  });
  expect(scheduled.status()).toBe(200);
  await page.getByTestId('crew-day-panel').getByRole('button', { name: 'Refresh' }).click();
  const route = page.getByTestId('crew-route').filter({ has: row });
  await expect(route.getByTestId('route-waiting')).toContainText('1 new stop waits for you to assign it');
  await expect(route.getByTestId('crew-board-stop').filter({ hasText: `#${joinedId}` })).toContainText('Waiting to be assigned');
  await shotOf(route, 'crew-board-waiting', page);
  await route.getByRole('button', { name: 'Give it to Mo card' }).click();
  await expect(page.getByTestId('toast')).toContainText('Route Assigned');
  await expect(route.getByTestId('route-waiting')).toHaveCount(0);
  await expect(route.getByTestId('crew-board-stop').filter({ hasText: `#${joinedId}` })).not.toContainText('Waiting to be assigned');

  // The Locations tab shows today's crew routes with the same numbers and the same crew control.
  const boardRoute = (await page.getByTestId('crew-route').filter({ has: row }).getByRole('heading', { level: 4 }).textContent())!;
  const routeNumber = /Route (\d+)/.exec(boardRoute)![1]!;
  await page.getByRole('tab', { name: 'Locations' }).click();
  await page.getByRole('tab', { name: 'Route Groups' }).click();
  await page.getByRole('button', { name: 'Today' }).click();
  const groups = page.getByRole('list', { name: 'Route groups' });
  const sameRoute = groups.getByRole('listitem').filter({ has: page.getByRole('heading', { name: new RegExp(`^Route ${routeNumber}:`) }) });
  await expect(sameRoute).toContainText(stop.name);
  await expect(sameRoute.getByLabel(`Crew for route ${routeNumber}`)).toBeVisible();
  await sameRoute.scrollIntoViewIfNeeded();
  await shot(page, 'locations-day');
});

test('the Messages tab finds a message by part of a name and warns before resending a dead crew link @mobile', async ({ page, baseURL }) => {
  test.setTimeout(150_000);
  const stop = await scheduledStopWithWorker(page, baseURL!, 'msg');
  // A newer link replaces the one in the message staff look at.
  expect((await page.request.post(`/api/admin/crew/workers/${stop.worker.id}/revoke`, { headers: stop.origin, data: { date: stop.today } })).status()).toBe(200);

  await openDashboard(page, 'Messages');
  const panel = page.getByRole('tabpanel', { name: 'Messages' });
  // One tap from the top of the dashboard, and the list starts near the top on a phone.
  const heading = panel.getByRole('heading', { name: 'Messages, newest first' });
  await expect(heading).toBeVisible();
  expect((await heading.boundingBox())!.y).toBeLessThan(900);
  await expect(panel.getByLabel('Kind').locator('option')).toHaveCount(EMAIL_KINDS.length + 1);

  await panel.getByLabel('Recipient').fill('mo msg');
  await panel.getByRole('button', { name: 'Show messages' }).click();
  const cards = panel.getByTestId('message-card');
  await expect(cards).toHaveCount(1);
  await expect(cards.first()).toContainText(stop.workerEmail);
  await panel.getByLabel('Recipient').fill('msg@harbourprints');
  await panel.getByRole('button', { name: 'Show messages' }).click();
  await expect(cards.first()).toContainText('wren.msg@harbourprints.co.uk');
  await expect(cards.filter({ hasText: stop.workerEmail })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  await shot(page, 'messages-tab');

  await panel.getByLabel('Recipient').fill(stop.workerEmail);
  await panel.getByRole('button', { name: 'Show messages' }).click();
  await expect(cards).toHaveCount(1);
  await cards.first().getByRole('button').click();
  const dialog = page.getByRole('dialog');
  const warning = dialog.getByTestId('dead-link-warning');
  await expect(warning).toContainText('The crew link in this message was revoked');
  await expect(dialog.getByRole('button', { name: 'Resend', exact: true })).toHaveCount(0);
  await warning.scrollIntoViewIfNeeded();
  await shot(page, 'message-dead-link');
  await shotOf(warning, 'message-dead-link-warning', page);
  await warning.getByRole('button', { name: 'Resend with a fresh link' }).click();
  await expect(page.getByTestId('toast')).toContainText('with a fresh link');

  // The fresh link opens the worker's day.
  const all = (await (await page.request.get(`/api/admin/messages?to=${encodeURIComponent(stop.workerEmail)}`)).json()) as { id: number; resendOf?: number }[];
  const copy = all.find((message) => message.resendOf === stop.messageId)!;
  const text = ((await (await page.request.get(`/api/admin/messages/${copy.id}`)).json()) as { text: string }).text;
  const fresh = /\/crew\?t=([\w-]+)/.exec(text)![1]!;
  expect(fresh).not.toBe(stop.token);
  expect((await page.request.get('/api/crew/day', { headers: { Authorization: `Bearer ${fresh}` } })).status()).toBe(200);
});

test("Resend link asks first, naming that it ends the link the worker is using; Cancel keeps that link @mobile", async ({ page, baseURL, browser }) => {
  test.setTimeout(150_000);
  await page.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  const stop = await scheduledStopWithWorker(page, baseURL!, 'resend');
  const dayWith = (token: string) => page.request.get('/api/crew/day', { headers: { Authorization: `Bearer ${token}` } });
  /** The crew's page for a link, as the worker's phone opens it (a browser of its own). */
  const openOnPhone = async (token: string) => {
    const phone = await browser.newContext({ ...test.info().project.use, baseURL });
    await phone.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
    const crew = await phone.newPage();
    await crew.goto(`/crew?t=${token}`);
    return { crew, close: () => phone.close() };
  };
  const linksSent = async () =>
    ((await (await page.request.get(`/api/admin/messages?to=${encodeURIComponent(stop.workerEmail)}&kind=worker-routes`)).json()) as { id: number }[]).length;
  expect(await linksSent()).toBe(1);

  await openDashboard(page, 'Workers');
  const row = page.getByTestId('crew-link-row').filter({ hasText: 'Mo resend' });
  await expect(row).toContainText(/Link works until/);
  const resend = row.getByRole('button', { name: 'Resend link to Mo resend' });

  // The question names what the tap ends; Cancel sends nothing and the worker's link goes on working.
  const questions: string[] = [];
  page.once('dialog', (dialog) => {
    questions.push(dialog.message());
    void dialog.dismiss();
  });
  await resend.click();
  await expect.poll(() => questions.length).toBe(1);
  expect(questions[0]).toContain('The link Mo resend is using now stops working at once');
  expect(questions[0]).toContain(stop.workerEmail);
  await expect(resend).toBeEnabled();
  await expect(page.getByTestId('toast')).toHaveCount(0);
  expect(await linksSent()).toBe(1);
  expect((await dayWith(stop.token)).status()).toBe(200);
  const kept = await openOnPhone(stop.token);
  await expect(kept.crew.getByTestId('crew-stop').first()).toBeVisible();
  await kept.close();
  await expectNoSeriousAxeViolations(page);
  await row.scrollIntoViewIfNeeded();
  await shot(page, 'crew-link-row');

  // Confirmed: a new link goes to the worker and the old one no longer opens the day.
  page.once('dialog', (dialog) => {
    questions.push(dialog.message());
    void dialog.accept();
  });
  await resend.click();
  await expect(page.getByTestId('toast')).toContainText('Link Sent');
  await expect(page.getByTestId('toast')).toContainText(`${stop.workerEmail} has a new link; the old one no longer works.`);
  expect(questions).toHaveLength(2);
  await expect.poll(linksSent).toBe(2);
  const [latest] = (await (await page.request.get(`/api/admin/messages?to=${encodeURIComponent(stop.workerEmail)}&kind=worker-routes`)).json()) as { id: number }[];
  const text = ((await (await page.request.get(`/api/admin/messages/${latest!.id}`)).json()) as { text: string }).text;
  const fresh = /\/crew\?t=([\w-]+)/.exec(text)![1]!;
  expect(fresh).not.toBe(stop.token);
  expect((await dayWith(stop.token)).status()).toBe(410);
  const ended = await openOnPhone(stop.token);
  await expect(ended.crew.getByRole('heading', { name: 'This link has ended' })).toBeVisible();
  await ended.close();
  const renewed = await openOnPhone(fresh);
  await expect(renewed.crew.getByTestId('crew-stop').first()).toBeVisible();
  await renewed.close();
  await expect(row).toContainText(/Link works until/);
  await expectNoSeriousAxeViolations(page);
});

test('the Projects list opens on installation days with compact rows, and finds a full postcode', { tag: '@layout' }, async ({ page }) => {
  test.setTimeout(150_000);
  await signInAsStaff(page);
  const panel = page.getByRole('tabpanel', { name: 'Projects' });
  await expect(panel.getByRole('status').filter({ hasText: 'by installation day, today first' })).toBeVisible();
  await expect(panel.getByLabel('Order')).toHaveValue('day');
  const rows = panel.getByTestId('project-row');
  await expect(rows.first()).toBeVisible();
  // The seeded crew day is today: the first rows are today's.
  await expect(rows.first()).toContainText('Today');
  if (page.viewportSize()!.width < 640) {
    // The tab's own content starts near the top: the stat cards fold into one line.
    expect((await panel.getByRole('heading', { name: 'Projects' }).boundingBox())!.y).toBeLessThan(600);
    for (const row of (await rows.all()).slice(0, 8)) expect((await row.boundingBox())!.height).toBeLessThanOrEqual(100);
  }
  await shot(page, 'projects-tab');

  await panel.getByLabel('Search projects').fill('m46aj');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Jamal Reid');
  await panel.getByLabel('Search projects').fill('M4 6AJ');
  await expect(rows.first()).toContainText('Jamal Reid');
  await panel.getByLabel('Search projects').fill('');
  // On a phone the step, day and order fold under one button, so the list starts near the top.
  if (page.viewportSize()!.width < 640) await panel.getByRole('button', { name: /^Filters/ }).click();
  await panel.getByLabel('Order').selectOption('newest');
  await expect(panel.getByRole('status').filter({ hasText: 'newest booking first' })).toBeVisible();
});
