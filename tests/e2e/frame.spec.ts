import { expect, test } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

test.describe('home page and site frame', () => {
  test('serves the hero in the HTML and loads no framework JavaScript', async ({ page, request }) => {
    const html = await (await request.get('/')).text();
    expect(html).toContain('Clean Art That Gets Noticed');

    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: 'Clean Art That Gets Noticed' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Get Your Patches' })).toHaveAttribute('href', '/booking');
    await expect(page.getByRole('link', { name: 'See Prices' })).toHaveAttribute('href', '/pricing');
    await expect(page.locator('astro-island')).toHaveCount(0);
    const bytes = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .filter((entry) => entry.name.endsWith('.js'))
        .reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).decodedBodySize, 0),
    );
    expect(scripts.some((url) => /react|client\.|hydrat/i.test(url))).toBe(false);
    expect(bytes).toBeLessThan(6_000);
  });

  test('sends a page view on load', async ({ page }) => {
    const beacon = page.waitForResponse((response) => response.url().endsWith('/api/analytics/pageview'));
    await page.goto('/');
    expect((await beacon).status()).toBe(204);
  });

  test('has a skip link that moves focus to the main content', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await page.keyboard.press('Enter');
    await expect(page.locator('main#main')).toBeFocused();
  });

  test('marks the current page in the navigation @desktop', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(nav.getByRole('link', { name: 'Pricing' })).not.toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('link', { name: 'Book Special' }).first()).toHaveAttribute('href', '/booking');
  });

  test('opens the drawer by keyboard, keeps focus inside, closes on Escape and on a link @mobile', async ({ page }) => {
    await page.goto('/');
    const opener = page.getByRole('button', { name: 'Open menu' });
    await opener.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menu' });
    await expect(drawer).toBeVisible();
    await expect(opener).toHaveAttribute('aria-expanded', 'true');
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('dialog')?.id ?? 'outside')).toBe('nav-drawer');
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(opener).toBeFocused();

    await opener.click();
    await drawer.getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('dialog', { name: 'Menu' })).toBeHidden();
  });

  test('turns the header translucent after 100 px of scrolling', async ({ page }) => {
    await page.goto('/');
    const header = page.locator('header.site-header');
    const background = () => header.evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background()).toBe('rgb(246, 245, 241)');
    // scrollTo, not the mouse wheel: a wheel scroll animates on, so it may end past 100 px.
    await page.evaluate(() => window.scrollTo(0, 60));
    await expect(page.locator('html')).not.toHaveAttribute('data-scrolled');
    await page.evaluate(() => window.scrollTo(0, 400));
    await expect(page.locator('html')).toHaveAttribute('data-scrolled', '');
    await expect.poll(background).toMatch(/rgba\(246, 245, 241, 0\.8\d*\)/);
  });

  test('opens /admin with Ctrl+Shift+A', async ({ page }) => {
    await page.goto('/');
    await page.keyboard.press('Control+Shift+A');
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('opens /admin with three quick clicks on the footer logo, not with two', async ({ page }) => {
    await page.goto('/');
    const logo = page.locator('[data-admin-trigger]');
    // location.assign() fires the Navigation API's navigate event at once, inside the click, so
    // counting those events shows a navigation that two clicks started before it could commit.
    await page.evaluate(() => {
      const scope = window as unknown as { navigation: EventTarget; navigationsStarted: number };
      scope.navigationsStarted = 0;
      scope.navigation.addEventListener('navigate', () => (scope.navigationsStarted += 1));
    });
    // Each burst is one input sequence, so a busy machine cannot stretch the gap between clicks
    // past the one second the footer allows (three separate click() calls could).
    await logo.click({ clickCount: 2 });
    expect(await page.evaluate(() => (window as unknown as { navigationsStarted: number }).navigationsStarted)).toBe(0);
    await page.reload();
    await logo.click({ clickCount: 3 });
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('shows the offline banner when the connection drops', async ({ page, context }) => {
    await page.goto('/');
    const banner = page.getByRole('status').filter({ hasText: "You're offline" });
    await expect(banner).toBeHidden();
    await context.setOffline(true);
    await expect(page.getByText("You're offline. Some features may be unavailable")).toBeVisible();
    await context.setOffline(false);
    await expect(page.getByText("You're offline. Some features may be unavailable")).toBeHidden();
  });

  test('says so on a 2g connection, and stops saying so when it improves', async ({ page }) => {
    // Chromium's own Network Information object cannot be throttled to 2g from a test, so the
    // page gets a stand-in that behaves like it: an EventTarget whose effectiveType changes.
    await page.addInitScript(() => {
      const connection = Object.assign(new EventTarget(), { effectiveType: '2g' });
      Object.defineProperty(Navigator.prototype, 'connection', { configurable: true, get: () => connection });
      (window as unknown as { __connection: typeof connection }).__connection = connection;
    });
    await page.goto('/pricing');
    await expect(page.getByRole('status').filter({ hasText: 'Slow connection detected' })).toBeVisible();
    await page.evaluate(() => {
      const connection = (window as unknown as { __connection: EventTarget & { effectiveType: string } }).__connection;
      connection.effectiveType = '4g';
      connection.dispatchEvent(new Event('change'));
    });
    await expect(page.getByText('Slow connection detected')).toBeHidden();
  });

  test('answers unknown pages with the 404 page and status 404', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
    await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  });

  test('has no serious accessibility findings on the home page', { tag: '@layout' }, async ({ page }) => {
    await page.goto('/');
    const results = await new AxeBuilder({ page }).analyze();
    const serious = results.violations.filter((violation) => ['serious', 'critical'].includes(violation.impact ?? ''));
    expect(serious.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(', ')}`)).toEqual([]);
  });
});
