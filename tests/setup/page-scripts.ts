/**
 * What a built page makes the browser download as script before anything is clicked or
 * scrolled: its module scripts, the islands' component and renderer modules, and everything
 * those import statically, read from `dist/` and sized as served (gzip). Modules reached only
 * through `import()` are left out: they load when the code asks for them.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildSync } from 'esbuild';

export interface PageScript {
  /** The path as the browser asks for it, e.g. /_astro/client.B_QkvyZE.js. */
  url: string;
  gzipBytes: number;
}

/** The built HTML of a route: /pricing → dist/pricing/index.html (or dist/pricing.html, as /404). */
export function pageHtml(distDir: string, route: string): string {
  const name = route.replace(/^\//, '');
  const folderPage = path.join(distDir, name, 'index.html');
  return readFileSync(existsSync(folderPage) ? folderPage : path.join(distDir, `${name}.html`), 'utf8');
}

/** The scripts the page's HTML names: module scripts and islands' component and renderer URLs. */
export function entryScripts(html: string): string[] {
  const urls = new Set<string>();
  for (const match of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) urls.add(match[1]!);
  for (const match of html.matchAll(/\b(?:component-url|renderer-url|before-hydration-url)="([^"]+)"/g)) {
    if (match[1]) urls.add(match[1]);
  }
  return [...urls].filter((url) => url.startsWith('/'));
}

/**
 * Every script the page loads up front (entries and their static imports), each once; with
 * `everything`, also what it may load later through `import()` (a map, a tab, an upload client).
 */
export function pageScripts(distDir: string, route: string, { everything = false } = {}): PageScript[] {
  const entries = entryScripts(pageHtml(distDir, route));
  if (entries.length === 0) return [];
  // esbuild reads the import graph (its metafile says which imports are static); nothing is written.
  const result = buildSync({
    absWorkingDir: distDir,
    entryPoints: entries.map((url) => path.join(distDir, url)),
    bundle: true,
    write: false,
    metafile: true,
    format: 'esm',
    splitting: true,
    outdir: path.join(distDir, '.page-scripts'),
    logLevel: 'silent',
  });
  const inputs = result.metafile.inputs;
  const seen = new Set<string>();
  const visit = (input: string) => {
    if (seen.has(input)) return;
    seen.add(input);
    for (const imported of inputs[input]?.imports ?? []) {
      const follows = imported.kind === 'import-statement' || (everything && imported.kind === 'dynamic-import');
      if (follows && !imported.external) visit(imported.path);
    }
  };
  for (const url of entries) visit(path.relative(distDir, path.join(distDir, url)).split(path.sep).join('/'));
  return [...seen].map((input) => ({
    url: `/${input}`,
    gzipBytes: gzipSync(readFileSync(path.join(distDir, input)), { level: 9 }).byteLength,
  }));
}

/** The sum of the scripts' gzip sizes. */
export function totalGzipBytes(scripts: readonly PageScript[]): number {
  return scripts.reduce((sum, script) => sum + script.gzipBytes, 0);
}
