import { defineConfig, devices } from '@playwright/test';
import { testSettings } from './src/server/env.ts';
import { CHROMIUM_ARGS, findChromium } from './tests/setup/chromium.ts';
import { ADMIN_PASSWORD } from './tests/fixtures/e2e-server.ts';

// scripts/e2e.ts picks a free port and a fresh data directory, then runs Playwright.
const settings = testSettings();
const port = settings.e2ePort ?? 8877;
const baseURL = `http://localhost:${port}`;
const launchOptions = { executablePath: findChromium(), args: CHROMIUM_ARGS };

const mobile = { ...devices['Pixel 7'], viewport: { width: 375, height: 740 }, launchOptions };
const desktop = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions };
const ADDS_DATA = /(customer-after-sale|crew-day|staff-accounts|schedule|documents|first-hour)\.spec\.ts$/;
const AT_DESKTOP = /@desktop|@layout/;
// .ci/run sets CI_TIMINGS_DIR: the results are then also written as JSON there, which
// scripts/ci-timings.ts summarises (the slowest files) at the end of CI.
const timingsDir = process.env.CI_TIMINGS_DIR;

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  forbidOnly: settings.isCi,
  // One retry in CI only, as Playwright's own template does: CI shares a 2-core machine with
  // the build and the server, and a retried test is still reported as "flaky" in the output,
  // so a flake is seen and fixed rather than failing a whole submission. Locally: none.
  retries: settings.isCi ? 1 : 0,
  workers: 2,
  reporter: timingsDir ? [['list'], ['json', { outputFile: `${timingsDir}/playwright-${Date.now()}-${process.pid}.json` }]] : [['list']],
  timeout: 30_000,
  expect: { timeout: 7_000 },
  use: { baseURL, trace: 'retain-on-failure', launchOptions },
  // Every test runs at 375 px (phones are most visitors) unless tagged @desktop. At 1280 px run
  // only the tests about what differs with the width: tagged @layout (both widths: a layout, the
  // navigation, the fold, a whole page's axe scan) or @desktop (that width only). A test about
  // behaviour (a form, a flow, a rule) runs once. docs/ARCHITECTURE.md ("CI") lists which and why.
  projects: [
    { name: 'mobile', testIgnore: ADDS_DATA, grepInvert: /@desktop/, use: mobile },
    { name: 'desktop', testIgnore: ADDS_DATA, grep: AT_DESKTOP, grepInvert: /@mobile/, use: desktop },
    // Specs that add rows other specs count (a published review, an enquiry) run after them.
    { name: 'mobile-after', testMatch: ADDS_DATA, dependencies: ['mobile', 'desktop'], grepInvert: /@desktop/, use: mobile },
    { name: 'desktop-after', testMatch: ADDS_DATA, dependencies: ['mobile', 'desktop'], grep: AT_DESKTOP, grepInvert: /@mobile/, use: desktop },
  ],
  webServer: {
    command: 'npm start',
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 180_000,
    env: {
      PORT: String(port),
      DATA_DIR: settings.e2eDataDir ?? '.data/e2e',
      SITE_URL: baseURL,
      ADMIN_PASSWORD,
      // Never ask an outside geocoder: lookups answer 503 and the form uses its fallback text.
      // A test that needs a found address answers /api/geocode/* itself (page.route).
      GEOCODER_URL: 'off',
      // Setup bookings made through the API carry their own X-Forwarded-For (tests/fixtures/bookings.ts),
      // so they do not spend the hourly booking limit that the browser's own bookings share.
      TRUST_PROXY: 'true',
      // Every spec shares this server, so it sees more bookings, uploads and lookups in ten minutes
      // than the shop in its busiest hour: the site-wide ceilings are raised here and tested by
      // tests/api/site-ceilings.test.ts at their real values.
      SITE_MAX_BOOKINGS_PER_HOUR: '2000',
      SITE_MAX_ENQUIRIES_PER_HOUR: '2000',
      SITE_MAX_UPLOADS_PER_HOUR: '2000',
      SITE_MAX_TRACKING_LOOKUPS_PER_HOUR: '2000',
      // The browser's own bookings all come from this machine's one address, in every spec: the
      // 2 unpaid bookings a client may hold are tested by tests/api/abuse-limits.test.ts.
      UNPAID_HOLDS_PER_CLIENT: '1000',
    },
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
