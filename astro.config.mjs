// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import netlify from '@netlify/vite-plugin';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { getEnv } from './src/server/env.ts';
import { netlifyHeadersFile } from './src/server/site-config.ts';
import { inlineCriticalCss } from './src/server/critical-css.ts';

const env = getEnv();

// Every page is pre-rendered; React only hydrates the islands that need it.
export default defineConfig({
  site: env.SITE_URL,
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'auto' },
  integrations: [react(), netlifyHeaders(), criticalCss()],
  // Astro hashes the scripts and styles it emits into a per-page CSP <meta>; BaseLayout adds the
  // page's other directives and outside script hosts (only /checkout has one: Stripe) from
  // src/server/csp.ts, which also gives the header policy (the local server, dist/_headers).
  security: {
    csp: {
      scriptDirective: { resources: ["'self'"] },
      styleDirective: { resources: ["'self'"] },
    },
  },
  vite: {
    // `astro dev` serves netlify/functions (the API) at their paths, offline.
    plugins: [tailwindcss(), netlify({ edgeFunctions: { enabled: false } })],
    build: { assetsInlineLimit: (file) => (file.endsWith('.css') ? undefined : false) },
  },
});

/**
 * Writes Netlify's dist/_headers (src/server/site-config.ts): each page's Content-Security-Policy
 * and Permissions-Policy, built from this build's settings, such as the map's tile host.
 * @returns {import('astro').AstroIntegration}
 */
function netlifyHeaders() {
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
 * Static pages paint from their own critical CSS, inline, with the site's stylesheet loaded after
 * (src/server/critical-css.ts).
 * @returns {import('astro').AstroIntegration}
 */
function criticalCss() {
  return {
    name: 'critical-css',
    hooks: {
      'astro:build:done': async ({ dir, logger }) => {
        const root = fileURLToPath(dir);
        const sheets = new Map();
        const readStylesheet = (/** @type {string} */ href) => {
          if (!sheets.has(href)) sheets.set(href, readFileSync(path.join(root, href), 'utf8'));
          return sheets.get(href);
        };
        const files = (await readdir(root, { recursive: true })).filter((file) => file.endsWith('.html'));
        let inlined = 0;
        for (const file of files) {
          const html = await readFile(path.join(root, file), 'utf8');
          const page = inlineCriticalCss(html, readStylesheet);
          if (page === null) continue;
          await writeFile(path.join(root, file), page);
          inlined += 1;
        }
        logger.info(`critical CSS inline in ${inlined} of ${files.length} pages`);
      },
    },
  };
}
