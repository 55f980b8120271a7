import type { Config, Context } from '@netlify/functions';
import { getRuntime } from '../../src/server/runtime.ts';

/** The whole API as one function: the same Hono app the local server and the tests mount. */
export default async (request: Request, context: Context) => {
  const { app } = await getRuntime();
  return app.fetch(request, { context });
};

export const config: Config = {
  path: ['/api/*', '/uploads/*'],
};
