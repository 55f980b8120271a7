/**
 * The bench's server: the same site as scripts/serve.ts (src/server/serve-site.ts), but serving
 * the build folder given as the first argument, so a build another person starts in `dist/`
 * meanwhile cannot change the pages under measurement. PORT and DATA_DIR come from the settings as usual.
 *
 *   tsx bench/serve-dist.ts /tmp/some-build
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { getEnv } from '../src/server/env.ts';
import { onStopSignal, serveSite } from '../src/server/serve-site.ts';

const distDir = process.argv[2];
if (!distDir || !existsSync(path.join(distDir, 'index.html'))) {
  console.error('Usage: tsx bench/serve-dist.ts <built site folder holding index.html>');
  process.exit(2);
}

const site = await serveSite(getEnv(), distDir);
onStopSignal(() => site.close());
