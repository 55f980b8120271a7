// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import netlify from '@netlify/vite-plugin';
import { getEnv } from './src/server/env.ts';
import { criticalCss, netlifyHeaders } from './src/server/build-integrations.ts';

const env = getEnv();

// Every page is pre-rendered; React only hydrates the islands that need it.
export default defineConfig({
  site: env.SITE_URL,
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'auto' },
  // After the build: Netlify's _headers and the static pages' inline critical CSS.
  integrations: [react(), netlifyHeaders(env), criticalCss()],
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
