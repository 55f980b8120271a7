import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test as base, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { stopProcessGroup, waitUntilAnswering } from '../../bench/lib/child-server.ts';
import { freePort } from '../../scripts/free-port.ts';
import { londonDate } from '../../src/domain/schedule.ts';
import { ADMIN_PASSWORD } from '../fixtures/e2e-server.ts';

/**
 * These tests tap and photograph the seeded crew day, which crew-day.spec.ts works through on the
 * shared server: they get a server of their own (the same build, freshly seeded), so neither spec
 * sees the other's taps whatever order they run in.
 */
const test = base.extend<object, { crewServer: string }>({
  crewServer: [
    async ({}, use) => {
      const port = await freePort();
      const url = `http://localhost:${port}`;
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cp-e2e-crew-'));
      const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, SITE_URL: url, ADMIN_PASSWORD, GEOCODER_URL: 'off', TRUST_PROXY: 'true' };
      const seeded = spawnSync(process.execPath, [path.resolve('node_modules/tsx/dist/cli.mjs'), 'db/seed.ts'], { env, stdio: 'ignore' });
      if (seeded.status !== 0) throw new Error('could not seed the crew spec\'s database');
      const server = spawn(process.execPath, ['scripts/start.mjs'], { cwd: path.resolve('.'), detached: true, stdio: 'ignore', env });
      try {
        await waitUntilAnswering(`${url}/api/health`, server);
        await use(url);
      } finally {
        await stopProcessGroup(server);
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 180_000 },
  ],
  baseURL: async ({ crewServer }, use) => use(crewServer),
});

// The crew's page on a real day with no signal (the phone closes the tab, the link is reopened at
// a site with no signal, staff send a new link, a phone is lost). Each test has a worker of its
// own, added by staff: the seeded stops are given to nobody, so every active worker sees them,
// and revoking or resending this worker's link leaves the seeded worker's alone. The tests use
// stops 2 and 3 only.

const PHOTO = path.resolve('tests/fixtures/logo.png');
const SHOTS = process.env.CREW_SHOTS_DIR;
const CUSTOMER_EMAILS: Record<string, string> = {
  Jamal: 'jamal@ancoatsbakehouse.example',
  Ellie: 'ellie@deansgateclimbing.example',
  Noah: 'noah@quaysnightmarket.example',
};

test.describe.configure({ mode: 'serial' });

async function shot(page: Page, name: string) {
  const file = SHOTS ? path.join(SHOTS, `${name}.png`) : test.info().outputPath(`${name}.png`);
  if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: file, fullPage: true });
}

interface Office {
  request: APIRequestContext;
  context: BrowserContext;
  workerId: number;
  /** Staff's Resend link for today; answers the link from the e-mail it wrote. */
  resend(): Promise<string>;
  revoke(): Promise<void>;
  storedPhotos(token: string, bookingId: number): Promise<{ photoType: string; takenAt: string }[]>;
}

/** Staff, in a context of their own: adds a worker and sends them today's link. */
async function office(browser: Browser, baseURL: string, name: string): Promise<Office> {
  const origin = { Origin: baseURL };
  const context = await browser.newContext({ extraHTTPHeaders: { 'X-Forwarded-For': `198.51.100.${Math.floor(Math.random() * 200) + 20}` } });
  const request = context.request;
  expect((await request.post('/api/admin/login', { headers: origin, data: { password: ADMIN_PASSWORD } })).status()).toBe(204);
  const email = `${name.toLowerCase()}.${Date.now()}@crew.cleanpatch.example`;
  const added = await request.post('/api/admin/workers', { headers: origin, data: { email, name } });
  expect(added.status()).toBe(201);
  const { id: workerId } = (await added.json()) as { id: number };
  const today = londonDate(new Date());
  const latestLink = async () => {
    const list = (await (await request.get(`/api/admin/messages?to=${encodeURIComponent(email)}&kind=worker-routes`)).json()) as { id: number }[];
    const message = (await (await request.get(`/api/admin/messages/${list[0]!.id}`)).json()) as { text: string };
    return new URL(/https?:\/\/\S+\/crew\?t=[\w-]+/.exec(message.text)![0]);
  };
  return {
    request,
    context,
    workerId,
    async resend() {
      const sent = await request.post(`/api/admin/crew/workers/${workerId}/resend`, { headers: origin, data: { date: today } });
      expect(sent.status()).toBe(200);
      const link = await latestLink();
      return `${link.pathname}${link.search}`;
    },
    async revoke() {
      const revoked = await request.post(`/api/admin/crew/workers/${workerId}/revoke`, { headers: origin, data: { date: today } });
      expect(revoked.status()).toBe(200);
    },
    async storedPhotos(token, bookingId) {
      const day = (await (await request.get('/api/crew/day', { headers: { Authorization: `Bearer ${token}` } })).json()) as {
        stops: { bookingId: number; photos: { photoType: string; takenAt: string }[] }[];
      };
      return day.stops.find((stop) => stop.bookingId === bookingId)!.photos;
    },
  };
}

const tokenOf = (link: string) => new URL(link, 'http://x').searchParams.get('t')!;

/** Opens the link and waits until the service worker controls the page and kept what it loaded. */
async function openOnline(page: Page, link: string) {
  await page.goto(link);
  await expect(page.getByTestId('crew-stop').first()).toBeVisible();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  // Everything this visit loaded is in the worker's cache before the signal goes (the page
  // names late scripts to the worker once it has settled).
  await page.waitForLoadState('load');
  await expect
    .poll(
      () =>
        page.evaluate(async () => {
          const names = performance
            .getEntriesByType('resource')
            .map((entry) => new URL(entry.name))
            .filter((url) => url.origin === location.origin && url.pathname.startsWith('/_astro/'));
          const cache = await caches.open('crew-v1-shell');
          const cached = await Promise.all(names.map((url) => cache.match(url.pathname, { ignoreVary: true })));
          return names.filter((_, index) => !cached[index]).map((url) => url.pathname);
        }),
      { timeout: 15_000 },
    )
    .toEqual([]);
}

const stopBooking = (page: Page, order: number) =>
  page.evaluate((index) => (JSON.parse(localStorage.getItem('crewDay')!) as { day: { stops: { bookingId: number }[] } }).day.stops[index]!.bookingId, order - 1);

const stopCard = (page: Page, order: number) => page.getByTestId('crew-stop').nth(order - 1);

test('reopened with no signal, the day and its queue show; what was done offline goes once when the signal returns @mobile', async ({
  browser,
  baseURL,
  context,
}) => {
  test.setTimeout(120_000);
  const staff = await office(browser, baseURL!, 'Robin');
  const link = await staff.resend();
  await context.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  let page = await context.newPage();
  await openOnline(page, link);
  const day = (await (await staff.request.get('/api/crew/day', { headers: { Authorization: `Bearer ${tokenOf(link)}` } })).json()) as {
    stops: { bookingId: number; order: number; customerFirstName: string }[];
  };
  const [second, third] = [day.stops[1]!, day.stops[2]!];

  // No signal, and the phone closed the tab: the link from the e-mail opens the day all the same.
  await context.setOffline(true);
  await page.close();
  page = await context.newPage();
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Robin’s stops' })).toBeVisible();
  await expect(page.getByTestId('crew-stop')).toHaveCount(day.stops.length);
  await expect(page.getByTestId('crew-last-updated')).toHaveText(/^Offline · Last updated \d{2}:\d{2}$/);
  await shot(page, 'crew-reopened-offline-375');

  // An after photo at stop 2 and On my way to stop 3, with no signal: the labels say they wait.
  await stopCard(page, 2).getByTestId('photo-after').setInputFiles(PHOTO);
  await expect(stopCard(page, 2).getByText('1 photo waiting')).toBeVisible();
  await stopCard(page, 3).getByRole('button', { name: 'On my way' }).click();
  await expect(stopCard(page, 3).getByText('Will tell the customer when you have signal')).toBeVisible();
  await expect(stopCard(page, 3).getByRole('button', { name: /On my way|Customer told/ })).toHaveCount(0);
  await expect(stopCard(page, 3).getByTestId('crew-status')).toHaveText('On the way · waiting to send');
  await expect(page.getByTestId('crew-waiting')).toContainText('1 photo and 1 update waiting to send');
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await shot(page, 'crew-queued-offline-375');

  // Closed again before the signal returns: the queue is still on the phone.
  await page.close();
  page = await context.newPage();
  await page.goto('/crew');
  await expect(page.getByTestId('crew-waiting')).toContainText('1 photo and 1 update waiting to send');

  await context.setOffline(false);
  await expect(page.getByTestId('crew-waiting')).toHaveCount(0);
  await expect(stopCard(page, 3).getByTestId('crew-status')).toHaveText(/^On the way · \d{2}:\d{2}/);
  await expect(stopCard(page, 3).getByTestId('on-my-way-note')).toHaveText(/^Customer told · \d{2}:\d{2}$/);
  await expect(stopCard(page, 2).locator('label', { hasText: 'After' })).toContainText('✓ 1 sent');
  await expect(page.getByTestId('crew-last-updated')).toHaveCount(0);

  // Sent once: one after photo on stop 2 from this phone.
  expect((await staff.storedPhotos(tokenOf(link), second.bookingId)).filter((photo) => photo.photoType === 'after')).toHaveLength(1);

  // The customer of stop 3 sees the crew on the way.
  const customer = await browser.newContext({ baseURL, viewport: { width: 375, height: 740 }, extraHTTPHeaders: { 'X-Forwarded-For': '198.51.100.9' } });
  const tracking = await customer.newPage();
  await tracking.goto('/track-project');
  await expect(tracking.locator('astro-island[ssr]')).toHaveCount(0);
  await tracking.getByLabel('Email').fill(CUSTOMER_EMAILS[third.customerFirstName]!);
  await tracking.getByLabel('Booking ID').fill(String(third.bookingId));
  await tracking.getByRole('button', { name: 'Track Project' }).click();
  await expect(tracking.getByTestId('crew-status')).toContainText('Your crew is on the way');
  await customer.close();
  await staff.context.close();
});

test('a photo taken offline survives a new link from staff and goes once with its time; a revoked link keeps it @mobile', async ({
  browser,
  baseURL,
  context,
  page,
}) => {
  test.setTimeout(120_000);
  const staff = await office(browser, baseURL!, 'Kit');
  const first = await staff.resend();
  await context.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  await openOnline(page, first);
  const bookingId = await stopBooking(page, 2);

  await context.setOffline(true);
  await stopCard(page, 2).getByTestId('photo-during').setInputFiles(PHOTO);
  await expect(stopCard(page, 2).getByText('1 photo waiting')).toBeVisible();
  const takenAt = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open('clean-patch-crew');
        open.onsuccess = () => {
          const all = open.result.transaction('queue').objectStore('queue').getAll();
          all.onsuccess = () => resolve((all.result as { takenAt: string }[])[0]!.takenAt);
        };
      }),
  );

  // Staff send a new link (the old one ends); the crew opens it, and the photo goes with it.
  const second = await staff.resend();
  await context.setOffline(false);
  await page.goto(second);
  await expect(page.getByTestId('crew-stop').first()).toBeVisible();
  await expect(page.getByTestId('crew-waiting')).toHaveCount(0);
  await expect(stopCard(page, 2).locator('label', { hasText: 'During' })).toContainText('✓ 1 sent');
  const stored = (await staff.storedPhotos(tokenOf(second), bookingId)).filter((photo) => photo.photoType === 'during');
  expect(stored).toHaveLength(1);
  expect(new Date(stored[0]!.takenAt).toISOString()).toBe(takenAt);

  // A lost phone: staff revoke the link. What waits stays on the phone, with what to do.
  await context.setOffline(true);
  await stopCard(page, 3).getByTestId('photo-before').setInputFiles(PHOTO);
  await expect(stopCard(page, 3).getByText('1 photo waiting')).toBeVisible();
  await staff.revoke();
  await context.setOffline(false);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'This link has ended' })).toBeVisible();
  await expect(page.getByTestId('crew-waiting')).toContainText('1 photo waiting to upload');
  await expect(page.getByTestId('crew-waiting')).toContainText('Ask the office for a new link');
  await expect(page.getByTestId('crew-queued-item')).toContainText(/^Stop 3: Before photo, taken \d{2}:\d{2}/);
  await expect(page.getByTestId('crew-stop')).toHaveCount(0);
  // The ended link took the day's copy (customers' names and addresses) off the phone.
  expect(await page.evaluate(() => localStorage.getItem('crewDay'))).toBeNull();
  const scan = await new AxeBuilder({ page }).analyze();
  expect(scan.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  await shot(page, 'crew-revoked-link-375');

  // A new link: the kept photo goes, once.
  const third = await staff.resend();
  await page.goto(third);
  await expect(page.getByTestId('crew-stop').first()).toBeVisible();
  await expect(page.getByTestId('crew-waiting')).toHaveCount(0);
  expect((await staff.storedPhotos(tokenOf(third), await stopBooking(page, 3))).filter((photo) => photo.photoType === 'before')).toHaveLength(1);
  await staff.context.close();
});

test('with the page closed, Background Sync sends the queue from the service worker @mobile', async ({ browser, baseURL, context, page }) => {
  const staff = await office(browser, baseURL!, 'Sol');
  await context.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  const link = await staff.resend();
  await openOnline(page, link);
  const bookingId = await stopBooking(page, 2);
  await context.setOffline(true);
  await stopCard(page, 2).getByTestId('photo-before').setInputFiles(PHOTO);
  await expect(stopCard(page, 2).getByText('1 photo waiting')).toBeVisible();

  // The crew page is closed; the signal returns and the browser wakes the worker for its sync.
  const other = await context.newPage();
  await page.close();
  await context.setOffline(false);
  await other.goto('/pricing');
  const session = await context.newCDPSession(other);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  session.on('ServiceWorker.workerRegistrationUpdated', (event: { registrations: typeof registrations }) => registrations.push(...event.registrations));
  await session.send('ServiceWorker.enable');
  await expect.poll(() => registrations.find((registration) => registration.scopeURL.endsWith('/crew') && !registration.isDeleted)).toBeTruthy();
  const crew = registrations.find((registration) => registration.scopeURL.endsWith('/crew'))!;
  await session.send('ServiceWorker.dispatchSyncEvent', { origin: new URL(baseURL!).origin, registrationId: crew.registrationId, tag: 'crew-queue', lastChance: false });

  await expect.poll(async () => (await staff.storedPhotos(tokenOf(link), bookingId)).filter((photo) => photo.photoType === 'before').length).toBe(1);
  // Removed from the phone once the server had it.
  const reopened = await context.newPage();
  await reopened.goto('/crew');
  await expect(stopCard(reopened, 2).locator('label', { hasText: 'Before' })).toContainText('✓ 1 sent');
  await expect(reopened.getByTestId('crew-waiting')).toHaveCount(0);
  await staff.context.close();
});

test("a day kept for one link never shows under another link, even with no signal @mobile", async ({ browser, baseURL, context, page }) => {
  const jo = await office(browser, baseURL!, 'Jo');
  const max = await office(browser, baseURL!, 'Max');
  await context.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  await openOnline(page, await jo.resend());
  const maxLink = await max.resend();
  await context.setOffline(true);
  await page.goto(maxLink);
  await expect(page.getByRole('heading', { name: 'No signal' })).toBeVisible();
  await expect(page.getByTestId('crew-stop')).toHaveCount(0);
  await expect(page.getByText('Jo’s stops')).toHaveCount(0);
  await context.setOffline(false);
  await jo.context.close();
  await max.context.close();
});

test('a phone that says it is online while no data flows sends what waits by itself, once data flows @mobile', async ({ browser, baseURL, context, page }) => {
  test.setTimeout(90_000);
  const staff = await office(browser, baseURL!, 'Wes');
  await context.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  await openOnline(page, await staff.resend());
  // Weak 4G or a captive Wi-Fi: navigator.onLine stays true and no `online` event ever comes,
  // but every request fails. Stop 1 is this spec's only tap there.
  const failing = (route: import('@playwright/test').Route) => route.abort('failed');
  // The context's route: the service worker's own sends (Background Sync) fail as well.
  await context.route('**/api/crew/**', failing);
  const card = stopCard(page, 1);
  await card.getByRole('button', { name: 'On my way' }).click();
  await expect(card.getByTestId('on-my-way-note')).toHaveText('Will tell the customer when you have signal');
  await page.screenshot({ path: test.info().outputPath('crew-card-waiting-375.png') });
  expect(await page.evaluate(() => navigator.onLine)).toBe(true);
  // Data flows again: no event, no tap, and the page's own retry sends it.
  await context.unroute('**/api/crew/**', failing);
  await expect(card.getByTestId('on-my-way-note')).toHaveText(/^Customer told · \d{2}:\d{2}$/, { timeout: 30_000 });
  await expect(page.getByTestId('crew-waiting')).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('crew-card-told-375.png') });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: test.info().outputPath('crew-card-told-1280.png') });
  await staff.context.close();
});

test('once the day is over, an open page forgets its stops and link within a minute @mobile', async ({ browser, baseURL, context, page }) => {
  const staff = await office(browser, baseURL!, 'Ola');
  await context.route(/tile\.openstreetmap/, (route) => route.fulfill({ status: 204 }));
  await page.clock.install({ time: new Date() });
  await page.goto(await staff.resend());
  await expect(page.getByTestId('crew-stop').first()).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('crewDay'))).not.toBeNull();
  // Noon the next day, London: the link's end. The page is still on screen.
  await page.clock.fastForward('37:00:00');
  await expect(page.getByText('This crew day is over, so its stops are no longer kept on this phone.')).toBeVisible();
  await expect(page.getByTestId('crew-stop')).toHaveCount(0);
  expect(await page.evaluate(() => [localStorage.getItem('crewDay'), localStorage.getItem('crewLink')])).toEqual([null, null]);
  await staff.context.close();
});

test('only /crew has a service worker: the public pages register none and are not controlled @mobile', async ({ page }) => {
  await page.goto('/crew?t=NotARealCrewLinkToken-000000000');
  await expect(page.getByRole('heading', { name: 'This link does not work' })).toBeVisible();
  await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistration('/crew'))?.active != null);
  for (const address of ['/', '/booking', '/track-project', '/pricing']) {
    await page.goto(address);
    await page.waitForLoadState('load');
    const worker = await page.evaluate(async () => ({
      controlled: navigator.serviceWorker.controller !== null,
      registration: (await navigator.serviceWorker.getRegistration(location.href))?.scope ?? null,
      scopes: (await navigator.serviceWorker.getRegistrations()).map((registration) => new URL(registration.scope).pathname),
    }));
    expect(worker, address).toEqual({ controlled: false, registration: null, scopes: ['/crew'] });
    // No page but /crew may be installed: the forms' proof-of-work worker (worker-src 'self' on
    // /booking and /track-project) is a dedicated worker, never a service worker, and no manifest.
    expect((await page.request.get(address)).headers()['content-security-policy'], address).toContain("manifest-src 'none'");
  }
});

test('/crew is installable: the browser finds its manifest, icons and service worker acceptable @mobile', async ({ page, browser, baseURL }) => {
  // Lighthouse no longer audits installability; Chromium's own check is the one "Add to home screen" uses.
  const staff = await office(browser, baseURL!, 'Ash');
  await openOnline(page, await staff.resend());
  const session = await page.context().newCDPSession(page);
  const { installabilityErrors } = (await session.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
  // A test browser's context is incognito, where nothing installs; that is the only objection.
  expect(installabilityErrors.filter((error) => error.errorId !== 'in-incognito')).toEqual([]);
  const manifest = (await (await page.request.get('/crew.webmanifest')).json()) as { scope: string; start_url: string; icons: { sizes: string }[] };
  expect(manifest).toMatchObject({ scope: '/crew', start_url: '/crew' });
  expect(manifest.icons.map((icon) => icon.sizes)).toContain('512x512');
  await staff.context.close();
});
