/**
 * The build's own steps after Astro has written dist/ (astro.config.mjs adds both):
 * Netlify's `_headers` file and the static pages' inline critical CSS.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import type { Env } from './env.ts';
import { inlineCriticalCss } from './critical-css.ts';
import { netlifyHeadersFile } from './site-config.ts';

/**
 * Writes Netlify's dist/_headers (site-config.ts): each page's Content-Security-Policy and
 * Permissions-Policy, built from this build's settings, such as the map's tile host.
 */
export function netlifyHeaders(env: Env): AstroIntegration {
  return {
    name: 'netlify-headers',
    hooks: {
      'astro:build:done': async ({ dir, pages }) => {
        const paths = pages.map((page) => `/${page.pathname}`);
        await writeFile(new URL('_headers', dir), netlifyHeadersFile(paths, env));
      },
    },
  };
}

/**
 * Rewrites every built page whose first paint can come from inline rules (critical-css.ts says
 * which), reading each stylesheet once however many pages link it.
 */
export async function inlineCriticalCssInBuild(root: string): Promise<{ inlined: number; pages: number }> {
  const sheets = new Map<string, string>();
  const readStylesheet = (href: string) => {
    if (!sheets.has(href)) sheets.set(href, readFileSync(path.join(root, href), 'utf8'));
    return sheets.get(href)!;
  };
  const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.html'));
  let inlined = 0;
  for (const file of files) {
    const page = inlineCriticalCss(await readFile(path.join(root, file), 'utf8'), readStylesheet);
    if (page === null) continue;
    await writeFile(path.join(root, file), page);
    inlined += 1;
  }
  return { inlined, pages: files.length };
}

/** Static pages paint from their own critical CSS, inline, with the site's stylesheet after. */
export function criticalCss(): AstroIntegration {
  return {
    name: 'critical-css',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const { inlined, pages } = await inlineCriticalCssInBuild(fileURLToPath(dir));
        logger.info(`critical CSS inline in ${inlined} of ${pages} pages`);
      },
    },
  };
}
