import type { Config, Context } from '@netlify/functions';
import { getEnv } from '../../src/server/env.ts';
import { netlifyPlatform } from '../../src/server/platform/netlify.ts';
import { once } from '../../src/server/runtime-deps.ts';
import { createRuntime } from '../../src/server/runtime.ts';

/**
 * The whole API as one function: the same Hono app the local server and the tests mount, on
 * Netlify's platform (a PostgreSQL server; PDF previews drawn by the proof-preview function).
 */
const runtime = once(() => createRuntime(getEnv(), netlifyPlatform));

export default async (request: Request, context: Context) => {
  const { app } = await runtime();
  return app.fetch(request, { context });
};

export const config: Config = {
  path: ['/api/*', '/uploads/*'],
  /**
   * A first line at the edge (api.md "Abuse and availability"): Netlify counts requests per
   * client address over a sliding minute and answers 429 itself past 600, so a plain flood from
   * one address is absorbed before a function runs. It sits far above every per-client limit of
   * the app (the busiest, page views and a crew's calls, allow 120 a minute), so no visitor, staff
   * member or crew meets it. Written as literals: Netlify's bundler reads this object without
   * running the module (tests/netlify/function-config.test.ts checks the built manifest).
   */
  rateLimit: { action: 'rate_limit', windowSize: 60, windowLimit: 600, aggregateBy: ['ip', 'domain'] },
};
