/**
 * `npm run bench:lighthouse`: Lighthouse (mobile: its default form factor, screen and simulated
 * throttling) on every public page, with the machine's Chromium. Builds the site into a temporary
 * folder and serves it itself on a free port with a fresh, seeded data directory (as the browser
 * tests do), prints a table and writes bench/results/lighthouse-<date>.json.
 *
 *   npm run bench:lighthouse                         all pages, one run each
 *   npm run bench:lighthouse -- /pricing /gallery    only these pages (by label: '/admin (signed in)')
 *   npm run bench:lighthouse -- --runs=3             median of 3 runs per page (each figure its own median)
 *   npm run bench:lighthouse -- --url=https://x.y    an already running site instead of a local one
 *   npm run bench:lighthouse -- --dist=/tmp/build    serve this build instead of building (e.g. one
 *                                                    made with other settings, to compare)
 *
 * A page that answers 404 is reported as missing, and a page Lighthouse cannot audit as an error;
 * neither stops the others.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { auditOnce, figuresFrom, medianFigures, type PageFigures } from './lighthouse-audit.ts';
import { root, startLocalSite, type LocalSite } from './local-site.ts';
import { labelOf, seededLink, signedInAdmin, type PageTarget } from './lib/page-targets.ts';

export type { PageFigures } from './lighthouse-audit.ts';
export { figuresFrom } from './lighthouse-audit.ts';

const resultsDir = path.join(root, 'bench', 'results');

/**
 * Every public route of public-site.md §2 that can be loaded without state, the pages a link or
 * an e-mail opens (checkout and tracking, which show their empty state), and the admin's sign-in
 * gate as a signed-out visitor sees it; then the screens that need state (bench/lib/page-targets.ts):
 * the dashboard signed in and a project's tracking page opened from its link.
 */
export const PAGES: PageTarget[] = [
  '/',
  '/pricing',
  '/how-it-works',
  '/gallery',
  '/contact',
  '/about',
  '/terms',
  '/privacy',
  '/booking',
  '/checkout',
  '/track-project',
  '/admin',
].map((path): PageTarget => ({ path }));
PAGES.push(
  { label: '/admin (signed in)', path: '/admin', prepare: signedInAdmin },
  { label: '/track-project (a result)', path: '/track-project', prepare: seededLink(/\/track-project\?t=/) },
  { label: '/crew (a link)', path: '/crew', prepare: seededLink(/\/crew\?t=/) },
);
/** The pages that must reach 100 in every category (they load no framework JavaScript). */
export const STATIC_PAGES = new Set(['/', '/pricing', '/how-it-works', '/about', '/terms', '/privacy']);

// ------------------------------------------------------------------ arguments

interface Options {
  pages: PageTarget[];
  runs: number;
  url?: string;
  dist?: string;
}

function parseArguments(argv: string[]): Options {
  const named = argv.filter((argument) => argument.startsWith('/'));
  const pages = named.map((name) => PAGES.find((target) => labelOf(target) === name) ?? { path: name });
  const runs = Number(argv.find((argument) => argument.startsWith('--runs='))?.slice('--runs='.length) ?? 1);
  const url = argv.find((argument) => argument.startsWith('--url='))?.slice('--url='.length);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('--runs must be a whole number of at least 1');
  const dist = argv.find((argument) => argument.startsWith('--dist='))?.slice('--dist='.length);
  // Pages that need state are prepared on the bench's own server; a deployed site is measured without them.
  const everything = url ? PAGES.filter((target) => !target.prepare) : PAGES;
  return { pages: pages.length > 0 ? pages : everything, runs, url: url?.replace(/\/$/, ''), dist: dist && path.resolve(dist) };
}

// ------------------------------------------------------------------ one page

type AuditedPage = PageFigures & { chromium?: string; lighthouse?: string };

async function auditPage(site: LocalSite, target: PageTarget, runs: number): Promise<AuditedPage> {
  const pagePath = labelOf(target);
  let prepared;
  try {
    prepared = (await target.prepare?.(site)) ?? {};
  } catch (error) {
    return { path: pagePath, status: 'error', error: `Could not prepare the page: ${(error as Error).message}` };
  }
  const url = `${site.baseUrl}${prepared.path ?? target.path}`;
  let httpStatus: number;
  try {
    httpStatus = (await fetch(url, { redirect: 'follow', headers: prepared.headers })).status;
  } catch (error) {
    return { path: pagePath, status: 'error', error: `Could not fetch ${url}: ${(error as Error).message}` };
  }
  if (httpStatus === 404) return { path: pagePath, status: 'missing', httpStatus };

  const runsFigures: PageFigures[] = [];
  let chromium = '';
  let lighthouseVersion = '';
  for (let run = 0; run < runs; run += 1) {
    try {
      const { lhr, chromium: version } = await auditOnce(url, prepared.headers);
      runsFigures.push(figuresFrom(pagePath, httpStatus, lhr));
      chromium = version;
      lighthouseVersion = lhr.lighthouseVersion;
    } catch (error) {
      return { path: pagePath, status: 'error', httpStatus, error: (error as Error).message };
    }
  }
  return { ...medianFigures(runsFigures), chromium, lighthouse: lighthouseVersion };
}

// ------------------------------------------------------------------ output

export function formatTable(pages: PageFigures[]): string {
  const header = ['Page', 'Perf', 'A11y', 'BP', 'SEO', 'LCP', 'TBT', 'CLS', 'JS bytes', 'Total bytes'];
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
      page.totalBytes === undefined ? '-' : formatBytes(page.totalBytes),
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
  const site: LocalSite = options.url ? { baseUrl: options.url, stop: async () => {} } : await startLocalSite(options.dist);
  const stopOnSignal = () => void site.stop().finally(() => process.exit(130));
  process.once('SIGINT', stopOnSignal);
  process.once('SIGTERM', stopOnSignal);

  const started = new Date();
  const pages: AuditedPage[] = [];
  try {
    for (const target of options.pages) {
      process.stdout.write(`Lighthouse ${labelOf(target)} … `);
      const figures = await auditPage(site, target, options.runs);
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
