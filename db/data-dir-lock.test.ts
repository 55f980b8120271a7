import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from './client.ts';
import { DatabaseInUseError, lockPathFor } from './data-dir-lock.ts';

const root = await mkdtemp(path.join(os.tmpdir(), 'clean-patch-lock-'));
// One database made once (PostgreSQL's initdb is the slow part); each test opens it again.
const dataRoot = path.join(root, '.data');
const dataDir = path.join(dataRoot, 'pglite');
beforeAll(async () => {
  const handle = await openDatabase({ dataDir });
  await handle.close();
}, 60_000);
afterAll(() => rm(root, { recursive: true, force: true }));

/** The exit status and output of `npm run db:seed` on DATA_DIR, run as a person would. */
function runSeed(dataDir: string): Promise<{ status: number | null; output: string }> {
  const tsx = path.resolve('node_modules/tsx/dist/cli.mjs');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsx, 'db/seed.ts'], { env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('one process at a time on an embedded database folder', () => {
  it('refuses a second opening while the first is open, and allows it once closed', async () => {
    const first = await openDatabase({ dataDir });
    try {
      const second = openDatabase({ dataDir });
      await expect(second).rejects.toBeInstanceOf(DatabaseInUseError);
      await expect(second).rejects.toThrow(`in use by another process (pid ${process.pid}`);
    } finally {
      await first.close();
    }
    expect(existsSync(lockPathFor(dataDir))).toBe(false);
    const again = await openDatabase({ dataDir });
    await again.close();
  }, 60_000);

  it('takes over a lock left by a process that has died', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(lockPathFor(dataDir), gone.stdout);
    const handle = await openDatabase({ dataDir });
    await handle.close();
    expect(existsSync(lockPathFor(dataDir))).toBe(false);
  }, 60_000);

  it('npm run db:seed while the server has the folder open says so, stops, and changes nothing', async () => {
    const server = await openDatabase({ dataDir });
    try {
      const seed = await runSeed(dataRoot);
      expect(seed.status).not.toBe(0);
      expect(seed.output).toContain(`is in use by another process (pid ${process.pid}`);
      expect(seed.output).toContain('stop that process');
      expect(seed.output).not.toContain('Demo data added');
    } finally {
      await server.close();
    }
  }, 90_000);
});
