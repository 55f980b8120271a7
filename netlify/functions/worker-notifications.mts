import type { Config } from '@netlify/functions';
import { getEnv } from '../../src/server/env.ts';
import { netlifyPlatform } from '../../src/server/platform/netlify.ts';
import { createDeps, once } from '../../src/server/runtime-deps.ts';
import { runWorkerNotificationJob } from '../../src/server/services/crew/worker-notifications.ts';

/**
 * The 6 PM e-mail of tomorrow's routes to every active worker (admin-dashboard.md §9).
 * Netlify's cron is UTC only, so it runs at 17:00 and 18:00 UTC; the job acts only in London's
 * 18:00 hour and claims the day, so a retried run sends nothing twice. Like maintenance.mts it
 * carries the job and the app's dependencies, not the app.
 */
const runtime = once(() => createDeps(getEnv(), netlifyPlatform));

export default async () => {
  const { deps } = await runtime();
  const result = await runWorkerNotificationJob(deps, new Date());
  return Response.json(result);
};

export const config: Config = {
  /**
   * WORKER_NOTIFICATION_CRON (src/domain/schedule.ts), written as a literal: Netlify's bundler reads
   * this object without running the module, and a name imported from elsewhere reads as nothing,
   * which deploys the function unscheduled (tests/netlify/function-config.test.ts checks the
   * built manifest against the constant).
   */
  schedule: '0 17,18 * * *',
};
