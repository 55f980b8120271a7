/**
 * `npm run bench:memory`: resident memory of the whole `npm start` tree (npm, its shell, the
 * server) 20 s after it answers /api/health, on a new data folder (the first start creates the
 * database) and again on the same folder (a later start). Median of --runs (default 3) fresh
 * folders. Target: ≤ 250 MB, first start included. Writes bench/results/memory-<date>.json.
 *
 *   npm run bench:memory
 *   npm run bench:memory -- --runs=5 --wait=20
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../scripts/free-port.ts';
import { root } from './lib/child-server.ts';
import { startNpmStart } from './lib/npm-start.ts';
import { treeRssMB } from './lib/process-tree.ts';
import { option } from './lib/scratch-db.ts';
import { median, resultFileName, table } from './lib/stats.ts';

const args = process.argv.slice(2);
const runs = Number(option(args, 'runs', '3'));
const waitMs = Number(option(args, 'wait', '20')) * 1000;
const TARGET_MB = 250;

async function measure(dataDir: string) {
  const server = await startNpmStart({ PORT: await freePort(), DATA_DIR: dataDir, ADMIN_PASSWORD: 'bench-memory-password' });
  try {
    await new Promise((resolve) => setTimeout(resolve, waitMs));
    const tree = server.tree();
    return {
      totalMB: Math.round(treeRssMB(tree)),
      processes: tree.map((process) => ({ command: process.command.slice(0, 80), rssMB: Math.round((process.rssKiB * 1024) / 1e6) })),
      load: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' '),
    };
  } finally {
    await server.stop();
  }
}

const rows: (string | number)[][] = [['Run', 'Start', 'Tree MB', 'Server MB', 'npm MB', 'Load (1/5/15 min)']];
const results: { run: number; start: 'first' | 'later'; totalMB: number; processes: { command: string; rssMB: number }[]; load: string }[] = [];
for (let run = 1; run <= runs; run++) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  try {
    for (const start of ['first', 'later'] as const) {
      const result = await measure(dataDir);
      results.push({ run, start, ...result });
      const server = Math.max(...result.processes.map((process) => process.rssMB));
      const npm = result.processes.find((process) => /\bnpm\b/.test(process.command))?.rssMB ?? 0;
      rows.push([run, start, result.totalMB, server, npm, result.load]);
      console.log(`run ${run}, ${start} start: ${result.totalMB} MB (load ${result.load})`);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const firstMedian = median(results.filter((result) => result.start === 'first').map((result) => result.totalMB));
const laterMedian = median(results.filter((result) => result.start === 'later').map((result) => result.totalMB));
console.log(`\n${table(rows)}\n`);
console.log(`Median of the tree ${waitMs / 1000} s after start: first start ${firstMedian} MB, later start ${laterMedian} MB (target ≤ ${TARGET_MB} MB)`);
mkdirSync(path.join(root, 'bench', 'results'), { recursive: true });
const file = path.join(root, 'bench', 'results', resultFileName('memory'));
writeFileSync(file, JSON.stringify({ measuredAt: new Date().toISOString(), waitSeconds: waitMs / 1000, targetMB: TARGET_MB, firstMedian, laterMedian, results }, null, 2));
console.log(`Written to ${path.relative(root, file)}`);
process.exitCode = Math.max(firstMedian, laterMedian) <= TARGET_MB ? 0 : 1;
