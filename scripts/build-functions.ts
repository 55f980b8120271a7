/**
 * `npm run build:functions` (the last step of `npm run deploy:build`): each Netlify function in
 * netlify/functions bundled by esbuild into one ESM file in dist-functions/, the folder netlify.toml
 * gives Netlify for every deploy (`[functions] directory`; `astro dev` and `netlify serve`'s default
 * dev context keep the sources, `[context.dev.functions]`).
 *
 * Why: Netlify builds these v2 functions (a default export taking a Request) with its file tracer
 * whatever `node_bundler` says: zip-it-and-ship-it bundles the entry's own modules and leaves every
 * package as the files it imports. Node 22 then resolves each of drizzle-orm's 109 files against
 * its 179 KB package.json, and the API's cold import took about 1 s of CPU. Bundled here, the
 * app's code and its pure-JS packages (Hono, drizzle-orm, zod, the PostgreSQL drivers, Netlify
 * Blobs) are one file; the tracer then ships that file plus only the packages below.
 *
 * Left as packages, loaded on first use (`await import(...)` in the code that needs them) and
 * shipped as files by the tracer: native (sharp, the PDF preview's canvas), heavy and rare
 * (Stripe, pdf.js, the WebAuthn library, altcha-lib). scripts/function-sizes.ts checks by path that
 * the PDF libraries stay in proof-preview, which only works while they stay packages.
 *
 * Bundled CommonJS (node-postgres) calls require() for Node's own modules: zip-it-and-ship-it's
 * second pass over this file adds the `require` shim every ESM function gets, so the output here
 * is only run through Netlify's build (CI's Netlify stage opens node-postgres on every smoke run).
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BuildOptions } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FUNCTIONS_SOURCE_DIR = path.join(root, 'netlify', 'functions');
export const FUNCTIONS_BUILD_DIR = path.join(root, 'dist-functions');

/**
 * Packages every function leaves as files: native, or heavy and loaded on first use only. PGlite
 * is reached by no function (platform/netlify.ts opens a PostgreSQL server only); listed so that a
 * stray import would ship it as files, which the size check refuses, instead of inlining it.
 * pdfkit (invoices and campaign reports, services/documents/pdf.ts) is loaded by the first
 * document, and its font engine and line breaker read data files beside their code.
 */
export const FUNCTION_EXTERNALS = ['sharp', 'stripe', '@simplewebauthn/server', 'altcha-lib', 'pdfjs-dist', '@napi-rs/canvas', '@electric-sql/pglite', 'pdfkit'];

/** One function's entry as one ESM file for Node 22, the externals left as imports. */
export function functionBuildOptions(entry: string): BuildOptions & { metafile: true } {
  return {
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: FUNCTION_EXTERNALS,
    // Less to parse at every cold start; names kept for readable stack traces in the logs.
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
  };
}

async function main() {
  const { build } = await import('esbuild');
  rmSync(FUNCTIONS_BUILD_DIR, { recursive: true, force: true });
  const entries = readdirSync(FUNCTIONS_SOURCE_DIR).filter((file) => /\.m?ts$/.test(file));
  for (const file of entries) {
    const outfile = path.join(FUNCTIONS_BUILD_DIR, file.replace(/\.m?ts$/, '.mjs'));
    const result = await build({ ...functionBuildOptions(path.join(FUNCTIONS_SOURCE_DIR, file)), outfile });
    const bytes = Object.values(result.metafile.outputs)[0]!.bytes;
    console.log(`${path.relative(root, outfile)}: ${(bytes / 1e6).toFixed(2)} MB`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
