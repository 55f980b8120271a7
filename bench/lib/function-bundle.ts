/**
 * The API function's code bundled into one file, for the bundle budget and `bench:cold-start`:
 * the same esbuild options `npm run build:functions` deploys with (scripts/build-functions.ts),
 * so the budget measures the file Netlify ships. `bench:functions` measures the deployed zips.
 */
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { FUNCTION_EXTERNALS, FUNCTIONS_SOURCE_DIR, functionBuildOptions as deployBuildOptions } from '../../scripts/build-functions.ts';

/**
 * Packages the functions leave as files, loaded on first use only (`await import(...)` in the code
 * that needs them), so a cold start neither parses nor runs them: Stripe's library (the first
 * payment call), sharp (the first image upload), altcha-lib (the first proof of work),
 * @simplewebauthn/server (the first passkey call), and the PDF preview's libraries.
 */
export function netlifyExternals(): string[] {
  return FUNCTION_EXTERNALS;
}

/** The API function as one ESM file for Node 22, as deployed, with a metafile. */
export function functionBuildOptions(): BuildOptions & { metafile: true } {
  return { ...deployBuildOptions(path.join(FUNCTIONS_SOURCE_DIR, 'api.mts')), logLevel: 'error' };
}
