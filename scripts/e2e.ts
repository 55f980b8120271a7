/**
 * `npm run test:e2e`: runs Playwright against `npm start` on a free port with a fresh,
 * seeded data directory, so runs never collide with a developer's server or data.
 *
 * CI builds the site once, in Netlify's stage, while this suite's earlier steps run: with
 * CI_SITE_BUILT set to a file path, this waits until that file exists before serving, so that
 * `npm start` finds dist/ fresh and does not build it again (nor alongside Netlify's build).
 * The file holds "ok" or "failed"; after a failed build `npm start` builds as usual.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.ts';
import os from 'node:os';
import path from 'node:path';

const builtMarker = process.env.CI_SITE_BUILT;
if (builtMarker) {
  const waitFrom = Date.now();
  if (!existsSync(builtMarker)) console.log('Waiting for the site build of Netlify\'s stage…');
  while (!existsSync(builtMarker)) {
    if (Date.now() - waitFrom > 600_000) {
      console.error(`No site build after 600 s (${builtMarker}): building here instead.`);
      break;
    }
    await sleep(500);
  }
  if (existsSync(builtMarker)) {
    const outcome = readFileSync(builtMarker, 'utf8').trim();
    console.log(`Site build of Netlify's stage: ${outcome} (waited ${Math.round((Date.now() - waitFrom) / 1000)} s)`);
    // A build that did not finish may have left a fresh dist/index.html: `npm start` rebuilds without it.
    if (outcome !== 'ok') rmSync('dist/index.html', { force: true });
  } else {
    rmSync('dist/index.html', { force: true });
  }
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cp-e2e-'));
const env = { ...process.env, E2E_PORT: String(await freePort()), E2E_DATA_DIR: dataDir, DATA_DIR: dataDir };
const tsx = path.resolve('node_modules/tsx/dist/cli.mjs');

const seed = spawnSync(process.execPath, [tsx, 'db/seed.ts'], { stdio: 'inherit', env });
if (seed.status !== 0) process.exit(seed.status ?? 1);

const playwright = path.resolve('node_modules/@playwright/test/cli.js');
const result = spawnSync(process.execPath, [playwright, 'test', ...process.argv.slice(2)], { stdio: 'inherit', env });
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
