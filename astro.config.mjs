// @ts-check
import { defineConfig } from 'astro/config';
import react from '@astrojs/react';
import tailwindcss from '@tailwindcss/vite';
import netlify from '@netlify/vite-plugin';
import { getEnv } from './src/server/env.ts';

const env = getEnv();

// Every page is pre-rendered; React only hydrates the islands that need it.
export default defineConfig({
  site: env.SITE_URL,
  output: 'static',
  trailingSlash: 'ignore',
  build: { format: 'directory', inlineStylesheets: 'auto' },
  integrations: [react()],
  // Astro hashes the scripts and styles it emits into a per-page CSP <meta>; the other
  // directives come as a header from netlify.toml and the local server (src/server/site-config.ts).
  security: {
    csp: {
      scriptDirective: { resources: ["'self'", 'https://js.stripe.com', 'https://*.js.stripe.com'] },
      styleDirective: { resources: ["'self'"] },
    },
  },
  vite: {
    // `astro dev` serves netlify/functions (the API) at their paths, offline.
    plugins: [tailwindcss(), netlify({ edgeFunctions: { enabled: false } })],
    build: { assetsInlineLimit: 0 },
  },
});
