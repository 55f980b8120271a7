/**
 * Full-page screenshots at 375 px and 1280 px (shared/design.md "Look at it").
 * Usage: npm start (in another terminal), then
 *   npx tsx scripts/screenshots.ts [baseUrl] [path ...]
 * Writes docs/screenshots/<name>-<width>.png.
 */
import { mkdirSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/setup/chromium.ts';

const [baseUrl = 'http://localhost:8888', ...paths] = process.argv.slice(2);
const targets = paths.length ? paths : ['/'];
mkdirSync('docs/screenshots', { recursive: true });
const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
for (const width of [375, 1280]) {
  const page = await browser.newPage({ viewport: { width, height: width === 375 ? 800 : 900 } });
  // Outside hosts are unreachable here; answer them empty so pages settle.
  await page.route(/^https?:\/\/(?!localhost|127\.0\.0\.1)/, (route) => route.fulfill({ status: 204, body: '' }));
  for (const target of targets) {
    await page.goto(new URL(target, baseUrl).href, { waitUntil: 'networkidle' });
    const name = target === '/' ? 'home' : target.replace(/^\//, '').replace(/[^\w-]+/g, '-');
    await page.screenshot({ path: `docs/screenshots/${name}-${width}.png`, fullPage: true });
    // Phones: also the first two screens, readable at a glance.
    if (width === 375) await page.screenshot({ path: `docs/screenshots/${name}-${width}-top.png`, clip: { x: 0, y: 0, width, height: 1600 } });
    console.log(`docs/screenshots/${name}-${width}.png`);
  }
  await page.close();
}
await browser.close();
