/**
 * The bench's server: scripts/serve.ts's runtime and static site, but serving the build folder
 * given as the first argument, so a build another person starts in `dist/` meanwhile cannot
 * change the pages under measurement. PORT and DATA_DIR come from the settings as usual.
 *
 *   tsx bench/serve-dist.ts /tmp/some-build
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serve } from '@hono/node-server';
import { getEnv } from '../src/server/env.ts';
import { createRuntime } from '../src/server/runtime.ts';
import { createStaticSite } from '../src/server/static-site.ts';

const distDir = process.argv[2];
if (!distDir || !existsSync(path.join(distDir, 'index.html'))) {
  console.error('Usage: tsx bench/serve-dist.ts <built site folder holding index.html>');
  process.exit(2);
}

const env = getEnv();
const runtime = await createRuntime(env);
const site = createStaticSite({
  distDir,
  api: (request, bindings) => runtime.app.fetch(request, bindings as never),
  policy: env,
});
const server = serve({ fetch: site.fetch, port: env.PORT, hostname: env.HOST });

async function stop() {
  server.close();
  await runtime.close();
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
