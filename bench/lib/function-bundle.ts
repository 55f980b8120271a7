/**
 * The API function's code bundled into one file by esbuild, for the bundle budget and
 * `bench:cold-start`: what the app's own code costs to parse. Netlify ships packages as files
 * instead (`bench:functions` measures the deployed zips).
 */
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { root } from './child-server.ts';

/**
 * Packages the API loads on first use only (`await import(...)` in the code that needs them), so
 * a cold start neither parses nor runs them: Stripe's library (the first payment call), sharp (the
 * first image upload), altcha-lib (the first proof of work) and @simplewebauthn/server (the first
 * passkey call). Netlify ships every package as files (netlify.toml), so this list is the bundle
 * budget's view only: what an import of the function must parse.
 */
export function netlifyExternals(): string[] {
  return ['stripe', 'sharp', 'altcha-lib', '@simplewebauthn/server'];
}

/** One ESM file for Node 22, every package bundled except the externals, with a metafile. */
export function functionBuildOptions(): BuildOptions & { metafile: true } {
  return {
    entryPoints: [path.join(root, 'netlify/functions/api.mts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    external: netlifyExternals(),
    metafile: true,
    logLevel: 'error',
  };
}
