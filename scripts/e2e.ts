/**
 * `npm run test:e2e`: runs Playwright against `npm start` on a free port with a fresh,
 * seeded data directory, so runs never collide with a developer's server or data.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { freePort } from './free-port.ts';
import os from 'node:os';
import path from 'node:path';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cp-e2e-'));
const env = { ...process.env, E2E_PORT: String(await freePort()), E2E_DATA_DIR: dataDir, DATA_DIR: dataDir };
const tsx = path.resolve('node_modules/tsx/dist/cli.mjs');

const seed = spawnSync(process.execPath, [tsx, 'db/seed.ts'], { stdio: 'inherit', env });
if (seed.status !== 0) process.exit(seed.status ?? 1);

const playwright = path.resolve('node_modules/@playwright/test/cli.js');
const result = spawnSync(process.execPath, [playwright, 'test', ...process.argv.slice(2)], { stdio: 'inherit', env });
rmSync(dataDir, { recursive: true, force: true });
process.exit(result.status ?? 1);
