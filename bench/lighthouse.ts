/**
 * `npm run bench:lighthouse`: Lighthouse (mobile: its default form factor, screen and simulated
 * throttling) on every public page, with the machine's Chromium. Builds the site into a temporary
 * folder and serves it itself on a free port with a fresh, seeded data directory (as the browser
 * tests do), prints a table and writes bench/results/lighthouse-<date>.json.
 *
 *   npm run bench:lighthouse                         all pages, one run each
 *   npm run bench:lighthouse -- /pricing /gallery    only these pages
 *   npm run bench:lighthouse -- --runs=3             median of 3 runs per page (by performance)
 *   npm run bench:lighthouse -- --url=https://x.y    an already running site instead of a local one
 *   npm run bench:lighthouse -- --dist=/tmp/build    serve this build instead of building (e.g. one
 *                                                    made with other settings, to compare)
 *
 * A page that answers 404 is reported as missing, and a page Lighthouse cannot audit as an error;
 * neither stops the others.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from '../scripts/free-port.ts';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { CHROMIUM_ARGS, findChromium } from '../tests/setup/chromium.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, 'bench', 'results');

/** Every public route of public-site.md §2 that can be loaded without state. */
export const PAGES = ['/', '/pricing', '/how-it-works', '/gallery', '/contact', '/about', '/terms', '/privacy', '/booking'];
/** The pages that must reach 100 in every category (issue 3: they load no framework JavaScript). */
export const STATIC_PAGES = new Set(['/', '/pricing', '/how-it-works', '/about', '/terms', '/privacy']);

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

export interface PageFigures {
  path: string;
  status: 'ok' | 'missing' | 'error';
  httpStatus?: number;
  error?: string;
  scores?: Record<Category, number | null>;
  /** Largest Contentful Paint and Total Blocking Time in ms (simulated mobile), CLS unitless. */
  lcpMs?: number;
  tbtMs?: number;
  cls?: number;
  /** Bytes of JavaScript transferred (compressed, as the local server and Netlify serve it). */
  scriptBytes?: number;
  scriptRequests?: number;
  totalBytes?: number;
  /** Audits that lost points, so a score below 100 says why. */
  failing?: { category: Category; id: string; title: string; score: number | null; displayValue?: string }[];
  /** Where the time goes, for the pages that fall short: a few of Lighthouse's insights. */
  diagnostics?: {
    lcpElement?: string;
    lcpPhasesMs?: Record<string, number>;
    renderBlocking?: { url: string; wastedMs: number }[];
    longTasks?: { url: string; durationMs: number }[];
    domElements?: number;
  };
  /** Lighthouse's own CPU benchmark of this machine; simulated throttling scales by it. */
  benchmarkIndex?: number;
  runs?: number;
}

// ------------------------------------------------------------------ arguments

interface Options {
  pages: string[];
  runs: number;
  url?: string;
  dist?: string;
}

function parseArguments(argv: string[]): Options {
  const pages = argv.filter((argument) => argument.startsWith('/'));
  const runs = Number(argv.find((argument) => argument.startsWith('--runs='))?.slice('--runs='.length) ?? 1);
  const url = argv.find((argument) => argument.startsWith('--url='))?.slice('--url='.length);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
  const dist = argv.find((argument) => argument.startsWith('--dist='))?.slice('--dist='.length);
  return { pages: pages.length > 0 ? pages : PAGES, runs, url: url?.replace(/\/$/, ''), dist: dist && path.resolve(dist) };
}

// ------------------------------------------------------------------ the local server

interface LocalSite {
  baseUrl: string;
  stop(): Promise<void>;
}

/**
 * A build of its own (a fresh `astro build` into a temporary folder, about 10 s) served by
 * bench/serve-dist.ts on a free port, with a throwaway embedded database holding the demo data.
 * Its own build means a rebuild of `dist/` by someone else mid-run cannot skew the figures.
 */
async function startLocalSite(prebuilt?: string): Promise<LocalSite> {
  const port = await freePort();
  const workDir = mkdtempSync(path.join(os.tmpdir(), 'cp-bench-'));
  const distDir = prebuilt ?? path.join(workDir, 'dist');
  const dataDir = path.join(workDir, 'data');
  // Always the embedded database: the bench must never write demo rows into a real one.
  const { DATABASE_URL: _url, NETLIFY_DATABASE_URL: _netlifyUrl, ...inherited } = process.env;
  const env = { ...inherited, PORT: String(port), DATA_DIR: dataDir };
  const tsx = path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
  const astro = path.join(root, 'node_modules', 'astro', 'bin', 'astro.mjs');
  const cleanUp = () => rmSync(workDir, { recursive: true, force: true });

  if (prebuilt) {
    if (!existsSync(path.join(prebuilt, 'index.html'))) throw new Error(`${prebuilt} holds no built site (index.html)`);
  } else {
    console.log('Building the site into a temporary folder…');
    const build = spawnSync(process.execPath, [astro, 'build', '--outDir', distDir], {
      cwd: root,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (build.status !== 0) {
      cleanUp();
      throw new Error('The site did not build; see the errors above');
    }
  }

  // The gallery's reviews carousel should measure with reviews in it, as on a live site.
  const seed = spawnSync(process.execPath, [tsx, 'db/seed.ts'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
  if (seed.status !== 0) {
    cleanUp();
    throw new Error('Seeding the bench database failed');
  }

  const server = spawn(process.execPath, [tsx, 'bench/serve-dist.ts', distDir], {
    cwd: root,
    env,
    detached: true, // its own process group, stopped as one
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const baseUrl = `http://localhost:${port}`;
  try {
    await waitForHealth(baseUrl, server);
  } catch (error) {
    await stopProcessGroup(server);
    cleanUp();
    throw error;
  }
  return {
    baseUrl,
    async stop() {
      await stopProcessGroup(server);
      cleanUp();
    },
  };
}

async function waitForHealth(baseUrl: string, server: ChildProcess): Promise<void> {
  const exited = new Promise<never>((_, reject) =>
    server.once('exit', (code) => reject(new Error(`The local server stopped (exit ${code}) before it answered`))),
  );
  const deadline = Date.now() + 60_000;
  const poll = (async () => {
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${baseUrl}/api/health`)).ok) return;
      } catch {
        /* not listening yet */
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    throw new Error(`The local server did not answer ${baseUrl}/api/health within a minute`);
  })();
  await Promise.race([poll, exited]);
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 5_000);
  await exited;
  clearTimeout(timer);
}

// ------------------------------------------------------------------ Chromium

interface Browser {
  port: number;
  version: string;
  close(): Promise<void>;
}

/** A fresh headless Chromium with its DevTools port, one per audit so runs share no cache or state. */
async function launchChromium(): Promise<Browser> {
  const profile = mkdtempSync(path.join(os.tmpdir(), 'cp-bench-chromium-'));
  const child = spawn(
    findChromium(),
    ['--headless=new', ...CHROMIUM_ARGS, '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'],
    // Its own process group: closing it must also end the renderer and helper processes.
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`Chromium did not start:\n${output}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before opening its DevTools port:\n${output}`));
    });
  });
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as { Browser: string };
  return {
    port,
    version: version.Browser,
    async close() {
      await stopProcessGroup(child);
      // Helper processes may still be flushing the profile for a moment.
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    },
  };
}

// ------------------------------------------------------------------ one page

type AuditedPage = PageFigures & { chromium?: string; lighthouse?: string };

async function auditPage(baseUrl: string, pagePath: string, runs: number): Promise<AuditedPage> {
  const url = `${baseUrl}${pagePath}`;
  let httpStatus: number;
  try {
    httpStatus = (await fetch(url, { redirect: 'follow' })).status;
  } catch (error) {
    return { path: pagePath, status: 'error', error: `Could not fetch ${url}: ${(error as Error).message}` };
  }
  if (httpStatus === 404) return { path: pagePath, status: 'missing', httpStatus };

  const results: { lhr: Result; chromium: string }[] = [];
  for (let run = 0; run < runs; run += 1) {
    const browser = await launchChromium();
    try {
      const flags: Flags = {
        port: browser.port,
        hostname: '127.0.0.1',
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      };
      // No config: Lighthouse's default, i.e. a mid-range phone on a slow 4G link (simulated).
      const result = await lighthouse(url, flags);
      if (!result) throw new Error('Lighthouse returned no result');
      if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
      results.push({ lhr: result.lhr, chromium: browser.version });
    } catch (error) {
      return { path: pagePath, status: 'error', httpStatus, error: (error as Error).message };
    } finally {
      await browser.close();
    }
  }
  // Lighthouse's own advice for noisy performance figures: report the median run.
  results.sort((a, b) => (a.lhr.categories.performance?.score ?? 0) - (b.lhr.categories.performance?.score ?? 0));
  const median = results[Math.floor(results.length / 2)]!;
  return { ...figuresFrom(pagePath, httpStatus, median.lhr), runs, chromium: median.chromium, lighthouse: median.lhr.lighthouseVersion };
}

export function figuresFrom(pagePath: string, httpStatus: number, lhr: Result): PageFigures {
  const audit = (id: string) => lhr.audits[id];
  const score = (category: Category) => {
    const value = lhr.categories[category]?.score;
    return typeof value === 'number' ? Math.round(value * 100) : null;
  };
  const summary = (audit('resource-summary')?.details as { items?: { resourceType: string; transferSize: number; requestCount: number }[] })
    ?.items;
  const script = summary?.find((item) => item.resourceType === 'script');
  const total = summary?.find((item) => item.resourceType === 'total');

  const failing: NonNullable<PageFigures['failing']> = [];
  for (const category of CATEGORIES) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const result = lhr.audits[ref.id];
      if (!result || ref.weight === 0) continue;
      if (result.scoreDisplayMode !== 'binary' && result.scoreDisplayMode !== 'numeric' && result.scoreDisplayMode !== 'metricSavings') continue;
      if (result.score === null || result.score >= 1) continue;
      failing.push({ category, id: ref.id, title: result.title, score: result.score, displayValue: result.displayValue });
    }
  }

  return {
    path: pagePath,
    status: 'ok',
    httpStatus,
    scores: Object.fromEntries(CATEGORIES.map((category) => [category, score(category)])) as Record<Category, number | null>,
    lcpMs: audit('largest-contentful-paint')?.numericValue,
    tbtMs: audit('total-blocking-time')?.numericValue,
    cls: audit('cumulative-layout-shift')?.numericValue,
    scriptBytes: script?.transferSize ?? 0,
    scriptRequests: script?.requestCount ?? 0,
    totalBytes: total?.transferSize,
    failing,
    diagnostics: diagnosticsFrom(lhr),
    benchmarkIndex: lhr.environment.benchmarkIndex,
  };
}

type Table = { type?: string; items?: Record<string, unknown>[] };

function diagnosticsFrom(lhr: Result): NonNullable<PageFigures['diagnostics']> {
  const details = (id: string) => lhr.audits[id]?.details as Table | undefined;
  const path = (url: unknown) => {
    try {
      return new URL(String(url)).pathname;
    } catch {
      return String(url);
    }
  };
  const lcpParts = details('lcp-breakdown-insight')?.items ?? [];
  const lcpTable = lcpParts.find((item) => item.type === 'table') as Table | undefined;
  const lcpNode = lcpParts.find((item) => item.type === 'node') as { nodeLabel?: string; selector?: string } | undefined;
  const domTotal = details('dom-size-insight')?.items?.find((item) => item.statistic === 'Total elements')?.value as
    | { value?: number }
    | undefined;
  return {
    lcpElement: lcpNode ? `${lcpNode.selector ?? ''} "${lcpNode.nodeLabel ?? ''}"`.trim() : undefined,
    lcpPhasesMs: lcpTable?.items
      ? Object.fromEntries(lcpTable.items.map((item) => [String(item.subpart), Math.round(Number(item.duration))]))
      : undefined,
    renderBlocking: details('render-blocking-insight')?.items?.map((item) => ({
      url: path(item.url),
      wastedMs: Math.round(Number(item.wastedMs ?? 0)),
    })),
    longTasks: details('long-tasks')
      ?.items?.slice(0, 5)
      .map((item) => ({ url: item.url === 'Unattributable' ? 'Unattributable' : path(item.url), durationMs: Math.round(Number(item.duration)) })),
    domElements: domTotal?.value,
  };
}

// ------------------------------------------------------------------ output

export function formatTable(pages: PageFigures[]): string {
  const header = ['Page', 'Perf', 'A11y', 'BP', 'SEO', 'LCP', 'TBT', 'CLS', 'JS bytes'];
  const rows = pages.map((page) => {
    if (page.status !== 'ok') return [page.path, page.status === 'missing' ? 'missing (404)' : `error: ${page.error ?? ''}`.slice(0, 60)];
    const scores = page.scores!;
    return [
      page.path,
      String(scores.performance ?? '-'),
      String(scores.accessibility ?? '-'),
      String(scores['best-practices'] ?? '-'),
      String(scores.seo ?? '-'),
      page.lcpMs === undefined ? '-' : `${(page.lcpMs / 1000).toFixed(2)} s`,
      page.tbtMs === undefined ? '-' : `${Math.round(page.tbtMs)} ms`,
      page.cls === undefined ? '-' : page.cls.toFixed(3),
      formatBytes(page.scriptBytes ?? 0),
    ];
  });
  const widths = header.map((title, column) => Math.max(title.length, ...rows.filter((row) => row.length > 2).map((row) => row[column]?.length ?? 0)));
  const line = (cells: string[]) =>
    cells.length === 2 && cells !== header
      ? `${cells[0]!.padEnd(widths[0]!)}  ${cells[1]}`
      : cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join('  ');
  return [line(header), widths.map((width) => '-'.repeat(width)).join('  '), ...rows.map(line)].join('\n');
}

function formatBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function formatFailing(pages: PageFigures[]): string {
  const lines: string[] = [];
  for (const page of pages) {
    if (!page.failing?.length) continue;
    lines.push(`${page.path}${STATIC_PAGES.has(page.path) ? ' (goal 100/100/100/100)' : ''}`);
    for (const item of page.failing) {
      const value = item.displayValue ? ` (${item.displayValue})` : '';
      lines.push(`  ${item.category}: ${item.title}${value} [${item.id}, score ${item.score}]`);
    }
    const diagnostics = page.diagnostics;
    if (diagnostics && (page.scores?.performance ?? 100) < 100) {
      if (diagnostics.renderBlocking?.length) {
        lines.push(`  render-blocking: ${diagnostics.renderBlocking.map((item) => `${item.url} (${item.wastedMs} ms)`).join(', ')}`);
      }
      if (diagnostics.longTasks?.length) {
        lines.push(`  long tasks: ${diagnostics.longTasks.map((item) => `${item.url} ${item.durationMs} ms`).join(', ')}`);
      }
      if (diagnostics.lcpElement) lines.push(`  LCP element: ${diagnostics.lcpElement}`);
    }
  }
  return lines.join('\n');
}

function timestamp(date: Date): string {
  return date.toISOString().slice(0, 19).replace(/:/g, '-') + 'Z';
}

// ------------------------------------------------------------------ main

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const site = options.url ? { baseUrl: options.url, stop: async () => {} } : await startLocalSite(options.dist);
  const stopOnSignal = () => void site.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  const started = new Date();
  const pages: AuditedPage[] = [];
  try {
    for (const pagePath of options.pages) {
      process.stdout.write(`Lighthouse ${pagePath} … `);
      const figures = await auditPage(site.baseUrl, pagePath, options.runs);
      console.log(figures.status === 'ok' ? `${figures.scores!.performance}` : figures.status);
      pages.push(figures);
    }
  } finally {
    await site.stop();
  }

  console.log(`\n${formatTable(pages)}\n`);
  const failing = formatFailing(pages);
  if (failing) console.log(`Where points were lost:\n${failing}\n`);

  mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `lighthouse-${timestamp(started)}.json`);
  const chromium = pages.find((page) => page.chromium)?.chromium;
  const lighthouseVersion = pages.find((page) => page.lighthouse)?.lighthouse;
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        date: started.toISOString(),
        baseUrl: site.baseUrl,
        build: options.url ? 'already running site' : (options.dist ?? 'fresh build of the working tree'),
        lighthouse: lighthouseVersion,
        chromium,
        settings: 'Lighthouse default (mobile form factor, simulated slow 4G and 4x CPU throttling)',
        runsPerPage: options.runs,
        pages: pages.map(({ chromium: _chromium, lighthouse: _lighthouse, ...figures }) => figures),
      },
      null,
      2,
    )}\n`,
  );
  console.log(`Written ${path.relative(root, file)}`);
  if (pages.some((page) => page.status === 'error')) process.exitCode = 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
