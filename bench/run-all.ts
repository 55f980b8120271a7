/**
 * `npm run bench`: every bench in turn — Lighthouse (median of 3), the home page against the
 * original single-page app (5 alternating rounds), API load, data at scale, cold start, `npm start`'s memory — each
 * writing its JSON under bench/results/. One failing (or missing a target) does not
 * stop the others; the exit code says whether all passed. Arguments after `--` are not passed on:
 * run a part alone (`npm run bench:api -- …`) to give it options.
 */
import { spawnSync } from 'node:child_process';
import { root } from './lib/child-server.ts';

const PARTS: { script: string; args: string[] }[] = [
  { script: 'bench:lighthouse', args: ['--runs=3'] },
  { script: 'bench:peer', args: [] },
  { script: 'bench:api', args: [] },
  { script: 'bench:scale', args: [] },
  { script: 'bench:cold-start', args: [] },
  { script: 'bench:memory', args: [] },
];

const outcomes: { script: string; status: number | null; seconds: number }[] = [];
for (const part of PARTS) {
  console.log(`\n════ npm run ${part.script} ${part.args.length ? `-- ${part.args.join(' ')}` : ''}\n`);
  const started = performance.now();
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['run', part.script, ...(part.args.length ? ['--', ...part.args] : [])], { cwd: root, stdio: 'inherit' });
  outcomes.push({ script: part.script, status: result.status, seconds: Math.round((performance.now() - started) / 1000) });
}

console.log('\n════ Summary');
for (const outcome of outcomes) console.log(`  ${outcome.status === 0 ? 'ok  ' : 'MISS'}  ${outcome.script} (${outcome.seconds} s)`);
process.exitCode = outcomes.every((outcome) => outcome.status === 0) ? 0 : 1;
