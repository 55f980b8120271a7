import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { embeddedDataDir, openDatabase } from './client.ts';

const root = await mkdtemp(path.join(os.tmpdir(), 'clean-patch-fresh-'));
afterAll(() => rm(root, { recursive: true, force: true }));

// A fresh clone has no .data/: start, db:migrate, db:seed, db:export and db:import all open the
// database through openDatabase, so whichever runs first makes the directory.
it('opens the embedded database under a data directory that does not exist yet', async () => {
  const dataDir = embeddedDataDir({ DATA_DIR: path.join(root, 'clone', '.data') })!;
  expect(dataDir).toBe(path.join(root, 'clone', '.data', 'pglite'));
  expect(existsSync(path.dirname(dataDir))).toBe(false);
  const handle = await openDatabase({ dataDir });
  await handle.close();
  expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
  expect(embeddedDataDir({ DATABASE_URL: 'postgres://postgres@127.0.0.1/x', DATA_DIR: '.data' })).toBeUndefined();
}, 60_000);
