import { expect, test, type Page } from '@playwright/test';
import { PENDING_BOOKING, storePendingBooking } from '../fixtures/pending-booking.ts';
import { ADMIN_PASSWORD, TRANSPARENT_PNG } from '../fixtures/e2e-server.ts';

// Each page's Content Security Policy (src/server/csp.ts) lets it do everything it does, and no
// more: the pages load, hydrate and draw their maps with no violation reported, and the header
// names Stripe only on /checkout. Viewport does not matter here, so the checks run once.

declare global {
  interface Window {
    cspViolations: string[];
  }
}

/** Collects every violation the page reports, and console messages about the policy. */
async function watchViolations(page: Page): Promise<string[]> {
  const found: string[] = [];
  page.on('console', (message) => {
    if (/Content[ -]Security[ -]Policy/i.test(message.text())) found.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.cspViolations.push(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return found;
}

async function violations(page: Page, logged: string[]): Promise<string[]> {
  return [...logged, ...(await page.evaluate(() => window.cspViolations))];
}

/** Answers tile requests; the count shows the policy let the map ask for them. */
async function serveTiles(page: Page): Promise<() => number> {
  let served = 0;
  await page.route(/^https:\/\/[a-z]\.tile\.openstreetmap\.org\//, (route) => {
    served += 1;
    return route.fulfill({ status: 200, contentType: 'image/png', body: TRANSPARENT_PNG });
  });
  return () => served;
}

const hydrated = (page: Page) => expect(page.locator('astro-island[ssr]')).toHaveCount(0);

test.describe('Content Security Policy', () => {
  test('the home page loads with no violation and no Stripe in its policy @desktop', async ({ page }) => {
    const logged = await watchViolations(page);
    const response = await page.goto('/');
    const policy = response!.headers()['content-security-policy'] ?? '';
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('stripe.com');
    expect(response!.headers()['permissions-policy']).toContain('payment=()');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await violations(page, logged)).toEqual([]);
  });

  test('/checkout allows Stripe and hydrates with no violation @desktop', async ({ page }) => {
    const logged = await watchViolations(page);
    await storePendingBooking(page, PENDING_BOOKING);
    const response = await page.goto('/checkout');
    const policy = response!.headers()['content-security-policy'] ?? '';
    expect(policy).toContain('https://api.stripe.com');
    expect(policy).toContain('frame-src https://js.stripe.com');
    expect(response!.headers()['permissions-policy']).toContain('payment=(self "https://js.stripe.com")');
    const meta = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
    expect(meta).toMatch(/script-src 'self' https:\/\/js\.stripe\.com/);
    await hydrated(page);
    await expect(page.getByTestId('checkout-total')).toHaveText('£799');
    expect(await violations(page, logged)).toEqual([]);
  });

  test('/booking draws its map tiles and hydrates with no violation @desktop', async ({ page }) => {
    const logged = await watchViolations(page);
    const tilesServed = await serveTiles(page);
    const response = await page.goto('/booking');
    expect(response!.headers()['content-security-policy']).not.toContain('stripe.com');
    const meta = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
    expect(meta).not.toContain('stripe.com');
    await hydrated(page);
    // Leaflet (and with it the tiles and its stylesheet) loads when the map nears the screen.
    await page.getByTestId('booking-map').scrollIntoViewIfNeeded();
    await expect(page.locator('.leaflet-tile-loaded').first()).toBeAttached();
    expect(tilesServed()).toBeGreaterThan(0);
    // The form's checks (zod) load on first focus and run on submit: under this policy too.
    await page.getByLabel('First name').focus();
    await page.getByRole('button', { name: 'Proceed to Payment' }).click();
    await expect(page.getByRole('heading', { name: 'There is a problem' })).toBeVisible();
    expect(await violations(page, logged)).toEqual([]);
  });

  test('/admin signs in and draws a route map with no violation @desktop', async ({ page }) => {
    test.setTimeout(60_000);
    const logged = await watchViolations(page);
    const tilesServed = await serveTiles(page);
    const response = await page.goto('/admin');
    expect(response!.headers()['content-security-policy']).not.toContain('stripe.com');
    await page.getByLabel('Password').fill(ADMIN_PASSWORD);
    await page.getByRole('button', { name: 'Unlock Dashboard' }).click();
    await page.getByRole('tab', { name: 'Locations' }).click();
    await page.getByRole('tab', { name: 'Route Groups' }).click();
    const routes = page.getByRole('list', { name: 'Route groups' });
    await expect(routes.locator('.leaflet-tile-loaded').first()).toBeAttached();
    expect(tilesServed()).toBeGreaterThan(0);
    expect(await violations(page, logged)).toEqual([]);
  });
});
