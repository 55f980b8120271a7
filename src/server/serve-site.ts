/**
 * The whole site on one port: the runtime (database, providers, the API app) behind the static
 * site built into `distDir`, with the same headers and redirects as Netlify. `npm start`
 * (scripts/serve.ts) serves dist/; the bench (bench/serve-dist.ts) serves a copy of a build, so a
 * build started meanwhile cannot change the pages under measurement.
 */
import type { ServerType } from '@hono/node-server';
import type { Env } from './env.ts';
import { createRuntime, type Runtime } from './runtime.ts';
import { localPlatform } from './platform/local.ts';
import { createStaticSite } from './static-site.ts';
import { startLocalServer } from './local-server.ts';

export interface ServedSite {
  server: ServerType;
  port: number;
  runtime: Runtime;
  /** Stops taking connections, then closes the runtime (the database last). */
  close(): Promise<void>;
}

export async function serveSite(env: Env, distDir: string): Promise<ServedSite> {
  const runtime = await createRuntime(env, localPlatform);
  const site = createStaticSite({
    distDir,
    api: (request, bindings) => runtime.app.fetch(request, bindings as never),
    policy: env,
  });
  // Header, request and keep-alive timeouts: see local-server.ts.
  const { server, port } = await startLocalServer({ fetch: site.fetch, port: env.PORT, hostname: env.HOST });
  return {
    server,
    port,
    runtime,
    async close() {
      server.close();
      await runtime.close();
    },
  };
}

/** Runs `stop` once on the first SIGINT or SIGTERM, then exits. */
export function onStopSignal(stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const handle = (signal: string) => {
    if (stopping) return;
    stopping = true;
    void stop(signal).finally(() => process.exit(0));
  };
  process.on('SIGINT', () => handle('SIGINT'));
  process.on('SIGTERM', () => handle('SIGTERM'));
}
