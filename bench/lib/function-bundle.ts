/** The API function bundled the way Netlify's esbuild bundler does, for the cold-start bench and the bundle budget. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { root } from './child-server.ts';

/** netlify.toml's [functions] external_node_modules: left as imports, shipped as files. */
export function netlifyExternals(): string[] {
  const toml = readFileSync(path.join(root, 'netlify.toml'), 'utf8');
  const list = /external_node_modules\s*=\s*\[([^\]]*)\]/.exec(toml)?.[1] ?? '';
  return [...list.matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
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
