/**
 * End of `.ci/run`: how long each stage took and the 20 slowest test files.
 *
 *   npx tsx scripts/ci-timings.ts DIR
 *
 * DIR is the run's CI_TIMINGS_DIR: `stages.tsv` (one line per stage: name, seconds, exit status,
 * written by .ci/run), `vitest-<npm script>-<pid>.json` (vitest's json reporter, vitest.config.ts)
 * and `playwright-*.json` (Playwright's json reporter, playwright.config.ts). A file's time is the
 * sum of its tests' times (Playwright: every attempt, in every project), so files run side by side
 * add up to more than the wall clock. Reads whatever is there: a stage that failed early leaves
 * fewer files, and the summary still prints.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import path from 'node:path';

interface VitestReport {
  startTime?: number;
  testResults?: { name: string; startTime?: number; endTime?: number; assertionResults?: unknown[] }[];
}
interface PlaywrightSuite {
  file?: string;
  specs?: { file?: string; tests?: { projectName?: string; results?: { duration?: number }[] }[] }[];
  suites?: PlaywrightSuite[];
}

const dir = process.argv[2] ?? process.env.CI_TIMINGS_DIR;
if (!dir || !existsSync(dir)) {
  console.log('No timings folder: nothing to summarise.');
  process.exit(0);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const root = process.cwd();
const relative = (file: string) => (path.isAbsolute(file) ? path.relative(root, file) : file);

// Stages, in the order they started.
const stagesFile = path.join(dir, 'stages.tsv');
if (existsSync(stagesFile)) {
  const rows = readFileSync(stagesFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [name = '', secs = '', status = ''] = line.split('\t');
      return { name, secs, status };
    });
  const width = Math.max(...rows.map(({ name }) => name.length), 5);
  console.log('\nStage times (wall clock; stages marked ‖ ran side by side):');
  for (const { name, secs, status } of rows) {
    const mark = status === '0' ? '' : `  FAILED (exit ${status})`;
    console.log(`  ${name.padEnd(width)}  ${String(secs).padStart(5)} s${mark}`);
  }
}

interface FileTime {
  runner: string;
  file: string;
  ms: number;
  tests: number;
  parts: Map<string, number>;
}
const files = new Map<string, FileTime>();
const add = (runner: string, part: string, file: string, ms: number, tests: number) => {
  const key = `${runner}\u0000${file}`;
  const entry = files.get(key) ?? { runner, file, ms: 0, tests: 0, parts: new Map<string, number>() };
  entry.ms += ms;
  entry.tests += tests;
  entry.parts.set(part, (entry.parts.get(part) ?? 0) + ms);
  files.set(key, entry);
};

const runs: { startTime: number; line: string }[] = [];
for (const name of readdirSync(dir).sort()) {
  const file = path.join(dir, name);
  let report: unknown;
  try {
    report = JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    continue;
  }
  const vitest = /^vitest-(.+)-\d+\.json$/.exec(name);
  if (vitest) {
    const script = vitest[1] ?? 'vitest';
    let count = 0;
    const { startTime = 0, testResults = [] } = report as VitestReport;
    let endTime = startTime;
    for (const result of testResults) {
      const tests = result.assertionResults?.length ?? 0;
      count += tests;
      endTime = Math.max(endTime, result.endTime ?? 0);
      add('vitest', script, relative(result.name), (result.endTime ?? 0) - (result.startTime ?? 0), tests);
    }
    runs.push({ startTime, line: `vitest (npm run ${script}): ${count} tests in ${testResults.length} files, ${seconds(endTime - startTime)}` });
  } else if (name.startsWith('playwright-')) {
    const perProject = new Map<string, number>();
    const walk = (suite: PlaywrightSuite) => {
      for (const spec of suite.specs ?? []) {
        for (const test of spec.tests ?? []) {
          const project = test.projectName ?? '';
          perProject.set(project, (perProject.get(project) ?? 0) + 1);
          const ms = (test.results ?? []).reduce((sum, result) => sum + (result.duration ?? 0), 0);
          add('playwright', project, `tests/e2e/${spec.file ?? suite.file ?? '?'}`, ms, 1);
        }
      }
      for (const child of suite.suites ?? []) walk(child);
    };
    for (const suite of (report as { suites?: PlaywrightSuite[] }).suites ?? []) walk(suite);
    const count = [...perProject.values()].reduce((a, b) => a + b, 0);
    const stats = (report as { stats?: { startTime?: string; duration?: number } }).stats ?? {};
    const projects = [...perProject].map(([project, n]) => `${project} ${n}`).join(', ');
    runs.push({
      startTime: stats.startTime ? Date.parse(stats.startTime) : 0,
      line: `playwright (npm run test:e2e): ${count} tests (${projects}), ${seconds(stats.duration ?? 0)}`,
    });
  }
}

// .ci/run notes when `npm test` started: until its unit run starts, it checks types.
const testStartFile = path.join(dir, 'npm-test.start');
const unitRun = runs.find(({ line }) => line.startsWith('vitest (npm run test:unit)'));
if (existsSync(testStartFile) && unitRun) {
  const laneStart = Number(readFileSync(testStartFile, 'utf8').trim());
  runs.push({ startTime: laneStart, line: `types (npm run check, before the unit run): ${seconds(unitRun.startTime - laneStart)}` });
}
if (runs.length > 0) {
  console.log('\nTest runs, in the order they started (tests, wall clock):');
  for (const { line } of runs.sort((a, b) => a.startTime - b.startTime)) console.log(`  ${line}`);
}
const slowest = [...files.values()].sort((a, b) => b.ms - a.ms).slice(0, 20);
if (slowest.length > 0) {
  console.log('\nThe 20 slowest test files (sum of their tests\u2019 times):');
  const width = Math.max(...slowest.map((entry) => entry.file.length));
  for (const entry of slowest) {
    const parts = [...entry.parts].map(([part, ms]) => `${part} ${seconds(ms)}`).join(', ');
    console.log(`  ${seconds(entry.ms).padStart(9)}  ${entry.runner.padEnd(10)} ${entry.file.padEnd(width)}  ${String(entry.tests).padStart(3)} tests  (${parts})`);
  }
}
