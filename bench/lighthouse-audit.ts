/**
 * One Lighthouse audit (mobile: its default form factor, screen and simulated throttling) in a
 * fresh headless Chromium, and the figures the benches keep from it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse, { type Flags, type Result } from 'lighthouse';
import { CHROMIUM_ARGS, findChromium } from '../tests/setup/chromium.ts';
import { stopProcessGroup } from './local-site.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];

export interface PageFigures {
  path: string;
  status: 'ok' | 'missing' | 'error';
  httpStatus?: number;
  error?: string;
  scores?: Record<Category, number | null>;
  /** First and Largest Contentful Paint and Total Blocking Time in ms (simulated mobile), CLS unitless. */
  fcpMs?: number;
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

// ------------------------------------------------------------------ Chromium and Lighthouse

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

/** One audit of `url` in its own fresh Chromium, so runs share no cache or state. */
export async function auditOnce(url: string, extraHeaders?: Record<string, string>): Promise<{ lhr: Result; chromium: string }> {
  const browser = await launchChromium();
  try {
    const flags: Flags = {
      port: browser.port,
      hostname: '127.0.0.1',
      output: 'json',
      logLevel: 'error',
      onlyCategories: [...CATEGORIES],
      // A signed-in page's cookie: sent with every request of the page, as a browser would.
      ...(extraHeaders ? { extraHeaders } : {}),
    };
    // No config: Lighthouse's default, i.e. a mid-range phone on a slow 4G link (simulated).
    const result = await lighthouse(url, flags);
    if (!result) throw new Error('Lighthouse returned no result');
    if (result.lhr.runtimeError) throw new Error(`${result.lhr.runtimeError.code}: ${result.lhr.runtimeError.message}`);
    return { lhr: result.lhr, chromium: browser.version };
  } finally {
    await browser.close();
  }
}

/** The middle value (the lower middle of an even count); undefined when there is none. */
export function median(values: readonly (number | undefined | null)[]): number | undefined {
  const known = values.filter((value): value is number => typeof value === 'number').sort((a, b) => a - b);
  return known.length ? known[Math.floor((known.length - 1) / 2)] : undefined;
}

/**
 * Several runs of one page as one row: every score and metric is the median of its own values
 * across the runs (Lighthouse's advice for noisy figures); the lost points and diagnostics are
 * those of the run whose performance score is the median.
 */
export function medianFigures(runs: readonly PageFigures[]): PageFigures {
  const byPerformance = [...runs].sort((a, b) => (a.scores?.performance ?? 0) - (b.scores?.performance ?? 0));
  const middle = byPerformance[Math.floor((byPerformance.length - 1) / 2)]!;
  const of = <K extends keyof PageFigures>(key: K) => median(runs.map((run) => run[key] as number | undefined));
  return {
    ...middle,
    scores: Object.fromEntries(
      CATEGORIES.map((category) => [category, median(runs.map((run) => run.scores?.[category])) ?? null]),
    ) as Record<Category, number | null>,
    fcpMs: of('fcpMs'),
    lcpMs: of('lcpMs'),
    tbtMs: of('tbtMs'),
    cls: of('cls'),
    scriptBytes: of('scriptBytes'),
    scriptRequests: of('scriptRequests'),
    totalBytes: of('totalBytes'),
    benchmarkIndex: of('benchmarkIndex'),
    runs: runs.length,
  };
}

// ------------------------------------------------------------------ figures

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
    fcpMs: audit('first-contentful-paint')?.numericValue,
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

