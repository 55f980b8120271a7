/**
 * The API bench's server: the runtime `npm start` uses (migrations on start, the settings from
 * the environment), with the demo data seeded, serving only the API on PORT. Run by
 * bench/api-load.ts in its own process, so the load generator does not share its event loop.
 */
import path from 'node:path';
import { seedDatabase } from '../db/seed.ts';
import { getEnv } from '../src/server/env.ts';
import { createRuntime } from '../src/server/runtime.ts';
import { localPlatform } from '../src/server/platform/local.ts';
import { startLocalServer } from '../src/server/local-server.ts';
import { closeOnSignal } from './lib/child-server.ts';

const env = getEnv();
const runtime = await createRuntime(env, localPlatform);
await seedDatabase(runtime.deps.db, { files: runtime.deps.files, siteUrl: env.SITE_URL });
const { server, port } = await startLocalServer({
  fetch: (request, bindings) => runtime.app.fetch(request, bindings as never),
  port: env.PORT,
  hostname: env.HOST,
});
console.log(`API on http://${env.HOST}:${port} (${runtime.database.driver}, data in ${path.resolve(env.DATA_DIR)})`);

closeOnSignal(server, runtime);
