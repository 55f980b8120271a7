import { expect, test, type Page } from '@playwright/test';

// Static pages paint from the critical CSS written into them at build time
// (src/server/critical-css.ts) and add the site's stylesheet once loaded (src/client/frame.ts).
// What matters to a visitor: the first screen looks the same without the stylesheet as with it,
// and the stylesheet does arrive, with or without script.

const STATIC_PAGES = ['/', '/pricing', '/how-it-works', '/about'];
const SITE_STYLESHEET = /\/_astro\/[^/]+\.css$/;

async function firstScreen(page: Page, path: string): Promise<Buffer> {
  await page.goto(path);
  await page.evaluate(() => document.fonts.ready);
  return page.screenshot();
}

const siteSheets = (page: Page) =>
  page.evaluate(() => [...document.styleSheets].map((sheet) => sheet.href ?? '').filter((href) => href.includes('/_astro/')));

for (const path of STATIC_PAGES) {
  test(`${path} paints its first screen without waiting for the stylesheet, and looks the same with it`, async ({ page }) => {
    const html = await (await page.request.get(path)).text();
    // Nothing render-blocking: the only stylesheet links are the deferred template and <noscript>.
    expect(html.replace(/<template data-deferred-stylesheet>.*?<\/template>|<noscript>.*?<\/noscript>/g, '')).not.toContain('rel="stylesheet"');

    const complete = await firstScreen(page, path);
    await expect.poll(() => siteSheets(page)).toHaveLength(1);

    // The same page with the site's stylesheet never arriving.
    let refused = 0;
    await page.route(SITE_STYLESHEET, (route) => {
      refused += 1;
      return route.abort();
    });
    const critical = await firstScreen(page, path);
    await expect.poll(() => refused).toBe(1);
    expect(critical.equals(complete), 'the first screen differs without the site stylesheet').toBe(true);
  });
}

test('without script, the stylesheet still applies through <noscript> @mobile', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto('/pricing');
  const sheets = await page.locator('link[rel="stylesheet"]').evaluateAll((links) => links.map((link) => (link as HTMLLinkElement).sheet !== null));
  expect(sheets).toEqual([true]);
  await context.close();
});
