/** The API function bundled the way Netlify's esbuild bundler does, for the cold-start bench and the bundle budget. */
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
