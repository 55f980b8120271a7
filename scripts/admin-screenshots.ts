/**
 * Full-page screenshots of every dashboard tab, signed in, at 375 px and 1280 px.
 * Usage: start a seeded server with ADMIN_PASSWORD set, then
 *   ADMIN_PASSWORD=… npx tsx scripts/admin-screenshots.ts [baseUrl] [tab ...]
 * Writes docs/screenshots/admin-<tab>-<width>.png.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/setup/chromium.ts';
import { parseEnv } from '../src/server/env.ts';

const [baseUrl = 'http://localhost:8888', ...only] = process.argv.slice(2);
const password = parseEnv(process.env).ADMIN_PASSWORD;
if (!password) throw new Error('Set ADMIN_PASSWORD to the server’s admin password.');
const TABS = ['Projects', 'Bookings', 'Contacts', 'Locations', 'Workers', 'Reviews', 'Logs', 'Analytics', 'Team', 'My account'].filter(
  (tab) => only.length === 0 || only.includes(slug(tab)),
);

function slug(tab: string): string {
  return tab.toLowerCase().replace(/\s+/g, '-');
}

mkdirSync('docs/screenshots', { recursive: true });
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
for (const width of [375, 1280]) {
  const page = await browser.newPage({ viewport: { width, height: width === 375 ? 800 : 900 } });
  await page.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.fulfill({ status: 204, body: '' }));
  await page.goto(new URL('/admin', baseUrl).href);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Unlock Dashboard' }).click();
  await page.getByRole('tab', { name: 'Projects' }).waitFor();
  for (const tab of TABS) {
    await page.getByRole('tab', { name: tab }).click();
    await page.waitForLoadState('networkidle');
    await page.getByRole('tabpanel').getByText(/Loading/).first().waitFor({ state: 'hidden' }).catch(() => undefined);
    const path = `docs/screenshots/admin-${slug(tab)}-${width}.png`;
    await page.screenshot({ path, fullPage: true });
    console.log(path);
  }
  await page.close();
}
await browser.close();
