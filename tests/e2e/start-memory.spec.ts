import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startNpmStart } from '../../bench/lib/npm-start.ts';
import { treeRssMB } from '../../bench/lib/process-tree.ts';
import { freePort } from '../../scripts/free-port.ts';

// Resident memory, not time: a busy machine slows a start down but does not make it bigger.
// The build this suite's own server made is fresh, so this `npm start` builds nothing.
const START_TREE_BUDGET_MB = 250;

test.describe('npm start on a new data folder @desktop', () => {
  test(`the whole tree stays within ${START_TREE_BUDGET_MB} MB resident once it serves`, async () => {
    test.setTimeout(300_000);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'start-memory-'));
    const server = await startNpmStart({ PORT: await freePort(), DATA_DIR: dataDir, ADMIN_PASSWORD: 'start-memory-password' });
    try {
      expect(server.output(), 'this start created the database').toContain('Created the local database.');
      // A page, the database through the API and the admin's sign-in check, as a first visit does.
      for (const url of ['/', '/api/reviews/public', '/api/admin/session']) await fetch(server.baseUrl + url).then((response) => response.text());
      const tree = server.tree();
      expect(tree.some((process) => /\bnpm\b/.test(process.command)), 'npm itself is counted').toBe(true);
      expect(tree.filter((process) => /\btsx\b|esbuild/.test(process.command)), 'no compiler serves').toEqual([]);
      expect(Math.round(treeRssMB(tree)), tree.map((process) => `${Math.round(process.rssKiB / 1000)} MB ${process.command}`).join('\n')).toBeLessThanOrEqual(
        START_TREE_BUDGET_MB,
      );
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
