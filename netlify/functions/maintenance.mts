import type { Config } from '@netlify/functions';
import { getEnv } from '../../src/server/env.ts';
import { netlifyPlatform } from '../../src/server/platform/netlify.ts';
import { createDeps, once } from '../../src/server/runtime-deps.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';

/**
 * Hourly housekeeping (src/server/services/jobs/maintenance.ts): retries failed e-mail, prunes old
 * rate-limit windows, caches, idempotency keys and Stripe event ids, and removes uploads no
 * booking claimed. Safe if a run overlaps the previous one. It imports the job and the app's
 * dependencies, not the app: no routes or image libraries travel with it. pdfkit does, as a
 * package loaded on first use: a receipt's invoice is drawn when the e-mail is delivered, and a
 * delivery retried here draws it.
 */
const runtime = once(() => createDeps(getEnv(), netlifyPlatform));

export default async () => {
  const { deps } = await runtime();
  const result = await runMaintenance(deps, new Date());
  deps.log.info('Maintenance run', { ...result.counts, failedSteps: result.failedSteps });
  return Response.json(result);
};

export const config: Config = {
  schedule: '@hourly',
};
