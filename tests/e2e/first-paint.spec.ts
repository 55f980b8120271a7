import { expect, test, type Page } from '@playwright/test';

// Static pages paint from the critical CSS written into them at build time
// (src/server/critical-css.ts) and add the site's stylesheet once loaded (src/client/frame.ts).
// What matters to a visitor: the first screen looks the same without the stylesheet as with it,
// and the stylesheet does arrive, with or without script.

const STATIC_PAGES = ['/', '/pricing', '/how-it-works', '/about', '/terms', '/privacy', '/a-page-that-does-not-exist'];
const SITE_STYLESHEET = /\/_astro\/[^/]+\.css$/;

/** The first screen once fonts are in and two frames have been painted since `ready` held. */
async function screen(page: Page, ready: () => Promise<void>): Promise<Buffer> {
  await ready();
  await page.evaluate(async () => {
    await document.fonts.ready;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
  return page.screenshot();
}

/** Whether the site's stylesheet, added after load, has been applied. */
const siteSheetApplied = (page: Page) =>
  page.evaluate(() =>
    [...document.styleSheets].some((sheet) => {
      if (!(sheet.href ?? '').includes('/_astro/')) return false;
      try {
        return sheet.cssRules.length > 0;
      } catch {
        return false; // a sheet that failed to load has no readable rules
      }
    }),
  );

for (const path of STATIC_PAGES) {
  test(`${path} paints its first screen without waiting for the stylesheet, and looks the same with it`, { tag: '@layout' }, async ({ page }) => {
    const html = await (await page.request.get(path)).text();
    // Nothing render-blocking: the only stylesheet links are the deferred template and <noscript>.
    expect(html).toContain('<template data-deferred-stylesheet>');
    expect(html.replace(/<template data-deferred-stylesheet>.*?<\/template>|<noscript>.*?<\/noscript>/g, '')).not.toContain('rel="stylesheet"');

    // With the site's stylesheet applied, as every visitor ends up.
    await page.goto(path);
    const complete = await screen(page, () => expect.poll(() => siteSheetApplied(page)).toBe(true));

    // The same page with the site's stylesheet never arriving: the inline rules alone.
    let refused = 0;
    await page.route(SITE_STYLESHEET, (route) => {
      refused += 1;
      return route.abort();
    });
    await page.goto(path);
    const critical = await screen(page, () => expect.poll(() => refused).toBe(1));
    expect(await siteSheetApplied(page)).toBe(false);
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
