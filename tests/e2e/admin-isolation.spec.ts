import { expect, test, type Page } from '@playwright/test';

/** Every public page (src/pages less /admin and the machine-read files). */
const PUBLIC_PAGES = [
  '/',
  '/about',
  '/how-it-works',
  '/pricing',
  '/gallery',
  '/booking',
  '/checkout',
  '/contact',
  '/payment-success',
  '/privacy',
  '/terms',
  '/no-such-page',
];

async function scriptsOf(page: Page, path: string): Promise<string[]> {
  const scripts: string[] = [];
  const listener = (response: { url(): string; request(): { resourceType(): string } }) => {
    if (response.request().resourceType() === 'script') scripts.push(new URL(response.url()).pathname);
  };
  page.on('response', listener);
  await page.goto(path, { waitUntil: 'networkidle' });
  page.off('response', listener);
  return scripts;
}

test('public pages request none of the admin island chunks, and static ones no framework script', async ({ page }) => {
  // The admin page's own chunks: those only /admin loads (shared ones, such as React, are not admin code).
  const adminScripts = await scriptsOf(page, '/admin');
  await expect(page.getByLabel('Password')).toBeVisible();
  const publicScripts = new Map<string, string[]>();
  for (const path of PUBLIC_PAGES) publicScripts.set(path, await scriptsOf(page, path));
  const usedByPublic = new Set([...publicScripts.values()].flat());
  const adminOnly = adminScripts.filter((url) => !usedByPublic.has(url));
  // Not vacuous: the admin island is its own chunk.
  expect(adminOnly.some((url) => /AdminApp/.test(url))).toBe(true);

  for (const [path, scripts] of publicScripts) {
    expect(scripts.filter((url) => /admin/i.test(url)), path).toEqual([]);
  }

  // Pages with no island ship no framework JavaScript at all.
  for (const path of ['/', '/about', '/how-it-works', '/pricing', '/privacy', '/terms']) {
    await page.goto(path);
    if ((await page.locator('astro-island').count()) > 0) continue;
    const scripts = publicScripts.get(path)!;
    expect(scripts.some((url) => /react|client\.|hydrat|jsx-runtime/i.test(url)), path).toBe(false);
  }
});
