import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { entryScripts, pageHtml, pageScripts, totalGzipBytes } from '../setup/page-scripts.ts';

// Budgets in bytes and counts, never times (docs/PERFORMANCE.md "Keeping it"). They read the
// build that the test server was started from (`npm start` builds dist/ when it is stale),
// so they run once, in the desktop project, and open no page.

/** Pages that must carry no framework script: only the frame's plain script. */
const STATIC_PAGES = ['/', '/pricing', '/how-it-works', '/about', '/terms', '/privacy', '/404'];
/** Every page a visitor can reach without signing in. */
const PUBLIC_PAGES = [...STATIC_PAGES, '/gallery', '/contact', '/booking', '/checkout', '/track-project', '/payment-success', '/review'];
/** The frame script and its analytics helper are about 1.3 KB compressed; room for small growth. */
const STATIC_PAGE_SCRIPT_BUDGET = 4 * 1024;
/**
 * /booking before anything is scrolled: React and the form. Its checks (zod) load on the first
 * focus, the map (Leaflet) and the upload client when their section needs them.
 */
const BOOKING_SCRIPT_BUDGET = 120 * 1024;
/**
 * Each script is one more request on a cold load. Modules the islands share become chunks of their
 * own, some under 1 KB (early input, working hours, storage keys): 21 today, no room for a 22nd.
 */
const BOOKING_SCRIPT_COUNT_BUDGET = 21;

const distDir = path.resolve('dist');
const read = (url: string) => readFileSync(path.join(distDir, url), 'utf8');

test.describe('script budgets of the build @desktop', () => {
  test('static pages carry the frame script only: no island, no framework', () => {
    const frameworkRenderer = /\brenderer-url="([^"]+)"/.exec(pageHtml(distDir, '/booking'))?.[1];
    expect(frameworkRenderer, 'the booking page names its framework renderer').toBeTruthy();
    for (const route of STATIC_PAGES) {
      const html = pageHtml(distDir, route);
      const scripts = pageScripts(distDir, route);
      expect(html, route).not.toContain('<astro-island');
      expect(scripts.map((script) => script.url), route).not.toContain(frameworkRenderer);
      expect(totalGzipBytes(scripts), route).toBeLessThanOrEqual(STATIC_PAGE_SCRIPT_BUDGET);
    }
  });

  test(`/booking loads at most ${BOOKING_SCRIPT_BUDGET / 1024} KB of script (gzip) up front, without the map`, () => {
    const scripts = pageScripts(distDir, '/booking');
    expect(totalGzipBytes(scripts)).toBeLessThanOrEqual(BOOKING_SCRIPT_BUDGET);
    expect(scripts.length).toBeLessThanOrEqual(BOOKING_SCRIPT_COUNT_BUDGET);
    // Leaflet is the form's largest dependency: it must stay behind the map's import().
    expect(scripts.filter((script) => read(script.url).includes('leaflet-container')).map((script) => script.url)).toEqual([]);
    // zod is next: it waits for the form's first focus.
    expect(scripts.filter((script) => read(script.url).includes('$ZodObject')).map((script) => script.url)).toEqual([]);
    const everything = pageScripts(distDir, '/booking', { everything: true });
    expect(everything.some((script) => read(script.url).includes('leaflet-container')), 'the map is still reachable').toBe(true);
    expect(everything.some((script) => read(script.url).includes('$ZodObject')), 'the checks are still reachable').toBe(true);
  });

  test('no public page can load admin code', () => {
    const adminEntries = entryScripts(pageHtml(distDir, '/admin'));
    const adminApp = adminEntries.find((url) => /AdminApp/.test(url));
    expect(adminApp, 'the admin page names its island').toBeTruthy();
    for (const route of PUBLIC_PAGES) {
      const reachable = pageScripts(distDir, route, { everything: true });
      expect(reachable.map((script) => script.url), route).not.toContain(adminApp);
      // Admin code is what talks to the admin API.
      expect(reachable.filter((script) => read(script.url).includes('/api/admin')).map((script) => script.url), route).toEqual([]);
    }
  });
});
