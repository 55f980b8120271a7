/**
 * Renders the Open Graph / Twitter card image, public/og-image.png (1200x630), from the SVG
 * below with Chromium, so social previews match the site's look (shared/design.md).
 * Usage: npx tsx scripts/render-og-image.ts   (commit the PNG it writes)
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../tests/setup/chromium.ts';
import { BUSINESS } from '../src/content/business.ts';

const WIDTH = 1200;
const HEIGHT = 630;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'public', 'og-image.png');

// The site's own font, inlined so the render needs no network and no installed fonts.
const require = createRequire(import.meta.url);
const fontFile = require.resolve('@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
const fontDataUrl = `data:font/woff2;base64,${readFileSync(fontFile).toString('base64')}`;

const INK = '#121614';
const PAPER = '#f6f5f1';
const ACCENT = '#34c796';
const ACCENT_DARK = '#0a6c4f';

const svg = `
<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <defs>
    <filter id="grime" x="0" y="0" width="100%" height="100%">
      <feTurbulence type="fractalNoise" baseFrequency="0.009 0.014" numOctaves="4" seed="11" result="big" />
      <feTurbulence type="fractalNoise" baseFrequency="0.9" numOctaves="2" seed="3" result="fine" />
      <feBlend in="big" in2="fine" mode="multiply" />
      <feColorMatrix values="0 0 0 0 0.14  0 0 0 0 0.14  0 0 0 0 0.12  0 0 0 -2.6 2.0" />
    </filter>
    <mask id="stencil">
      <rect x="640" width="560" height="${HEIGHT}" fill="white" />
      <g fill="black">
        <path d="M900 110c46 60 76 102 76 141a76 76 0 0 1-152 0c0-39 30-81 76-141z" />
        <text x="900" y="452" text-anchor="middle" font-family="Inter" font-weight="900" font-size="54" letter-spacing="5">YOUR BRAND</text>
        <rect x="760" y="482" width="280" height="12" rx="6" />
      </g>
      <path d="M860 266a38 38 0 0 0 36 38" stroke="white" stroke-width="13" fill="none" stroke-linecap="round" />
    </mask>
    <clipPath id="panel"><rect x="640" y="40" width="520" height="550" rx="36" /></clipPath>
  </defs>

  <rect width="${WIDTH}" height="${HEIGHT}" fill="${PAPER}" />

  <g clip-path="url(#panel)">
    <rect x="640" width="560" height="${HEIGHT}" fill="#dcd9cf" />
    <g mask="url(#stencil)">
      <rect x="640" width="560" height="${HEIGHT}" fill="#8b877c" />
      <rect x="640" width="560" height="${HEIGHT}" filter="url(#grime)" />
    </g>
    <path d="M640 210H1200M640 380H1200M810 0V${HEIGHT}M1030 0V${HEIGHT}" stroke="#3f3e3a" stroke-width="3" opacity="0.5" />
  </g>

  <g transform="translate(80 84)">
    <rect width="56" height="56" rx="14" fill="${INK}" />
    <path d="M28 9.6c7 9.1 11.9 15.8 11.9 22a11.9 11.9 0 0 1-23.8 0c0-6.2 4.9-12.9 11.9-22z" fill="${ACCENT}" />
    <path d="M22 32.6a6.3 6.3 0 0 0 6 6.3" stroke="${INK}" stroke-width="3.1" fill="none" stroke-linecap="round" />
    <text x="76" y="38" font-family="Inter" font-weight="650" font-size="30" fill="${INK}">${BUSINESS.name}</text>
  </g>

  <text font-family="Inter" font-weight="700" font-size="66" letter-spacing="-2" fill="${INK}">
    <tspan x="76" y="272">Clean Art That</tspan>
    <tspan x="76" y="350">Gets Noticed</tspan>
  </text>
  <text font-family="Inter" font-weight="450" font-size="27" fill="#3b3a36">
    <tspan x="80" y="418">Eco-friendly reverse graffiti advertising</tspan>
    <tspan x="80" y="454">across ${BUSINESS.serviceArea}.</tspan>
  </text>

  <g font-family="Inter" font-weight="600" font-size="21" fill="${ACCENT_DARK}">
    <circle cx="86" cy="532" r="6" fill="${ACCENT}" />
    <text x="102" y="539">Water-only</text>
    <circle cx="242" cy="532" r="6" fill="${ACCENT}" />
    <text x="258" y="539">Fully insured</text>
    <circle cx="418" cy="532" r="6" fill="${ACCENT}" />
    <text x="434" y="539">Photo proof</text>
  </g>
</svg>`;

const html = `<!doctype html>
<html><head><style>
  @font-face { font-family: 'Inter'; src: url(${fontDataUrl}) format('woff2'); font-weight: 100 900; }
  html, body { margin: 0; padding: 0; }
</style></head><body>${svg}</body></html>`;

const browser = await chromium.launch({ executablePath: findChromium(), args: CHROMIUM_ARGS });
try {
  const page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, deviceScaleFactor: 1 });
  await page.setContent(html);
  // Wait for the inlined font, or the text would be drawn in a fallback face.
  await page.evaluate(async () => {
    await Promise.all(['450', '600', '650', '700', '900'].map((weight) => document.fonts.load(`${weight} 32px Inter`)));
    await document.fonts.ready;
  });
  const png = await page.locator('svg').first().screenshot({ type: 'png' });
  writeFileSync(output, png);
  console.log(`Wrote ${path.relative(root, output)} (${WIDTH}x${HEIGHT}, ${png.length} bytes)`);
} finally {
  await browser.close();
}
