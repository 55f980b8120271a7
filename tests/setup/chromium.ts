import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { testSettings } from '../../src/server/env.ts';

/** Chromium for the browser tests: CHROME_PATH, Debian's /usr/bin/chromium, or Playwright's own cache. */
export function findChromium(): string {
  const candidates = [testSettings().chromePath, '/usr/bin/chromium', '/usr/bin/chromium-browser', safePlaywrightPath()];
  const found = candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
  if (found) return found;
  throw new Error(
    [
      'No Chromium found for the browser tests. Install one of:',
      '  Debian/Ubuntu:  sudo apt-get install -y chromium',
      '  any system:     npx playwright install chromium',
      'or point CHROME_PATH at an existing Chrome/Chromium binary.',
    ].join('\n'),
  );
}

function safePlaywrightPath(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** Flags for a headless Chromium on a closed network, as root (toolchain notes). */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--no-first-run',
];
