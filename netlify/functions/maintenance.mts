import type { Config } from '@netlify/functions';
import { getRuntime } from '../../src/server/runtime.ts';
import { runMaintenance } from '../../src/server/services/jobs/maintenance.ts';

/**
 * Hourly housekeeping (src/server/services/maintenance.ts): retries failed e-mail, prunes old
 * rate-limit windows, caches, idempotency keys and Stripe event ids, and removes uploads no
 * booking claimed. Safe if a run overlaps the previous one.
 */
export default async () => {
  const { deps } = await getRuntime();
  const result = await runMaintenance(deps, new Date());
  deps.log.info('Maintenance run', { ...result.counts, failedSteps: result.failedSteps });
  return Response.json(result);
};

export const config: Config = {
  schedule: '@hourly',
};
