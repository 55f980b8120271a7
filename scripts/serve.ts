/**
 * The local server that `npm start` runs (scripts/start.mjs builds this file into dist-server/
 * and imports it, after building the site when stale and creating the database when new):
 * serves the pages and the API on PORT (default 8888) on the embedded database, with the same
 * headers and redirects as Netlify. Stops cleanly on Ctrl+C / SIGTERM.
 */
import { fileURLToPath } from 'node:url';
import { getEnv } from '../src/server/env.ts';
import { onStopSignal, serveSite } from '../src/server/serve-site.ts';
import { runMaintenance } from '../src/server/services/jobs/maintenance.ts';
import { runWorkerNotificationJob } from '../src/server/services/crew/worker-notifications.ts';

// This file and its bundle (dist-server/serve.mjs) both sit one folder below the project's.
const distDir = fileURLToPath(new URL('../dist', import.meta.url));

const env = getEnv();
const site = await serveSite(env, distDir);
const { runtime, port } = site;
console.log(`Site and API on http://localhost:${port} (database: ${runtime.database.driver})`);

// Netlify runs netlify/functions/maintenance.mts hourly; locally this process does.
const maintain = () =>
  runMaintenance(runtime.deps, new Date()).catch((error: unknown) =>
    runtime.deps.log.error('Maintenance run failed', { error: error instanceof Error ? error.message : String(error) }),
  );
let maintenanceRun = maintain();
const maintenanceTimer = setInterval(() => (maintenanceRun = maintain()), 60 * 60 * 1000);
maintenanceTimer.unref();

// Netlify runs netlify/functions/worker-notifications.mts at 17:00 and 18:00 UTC; locally this
// process tries at the top of every hour and the job itself decides (London's 18:00, once a day).
const HOUR_MS = 60 * 60 * 1000;
const notifyWorkers = () =>
  runWorkerNotificationJob(runtime.deps, new Date())
    .then(() => undefined)
    .catch((error: unknown) =>
      runtime.deps.log.error('Worker notification run failed', { error: error instanceof Error ? error.message : String(error) }),
    );
let workerRun: Promise<void> = Promise.resolve();
let workerTimer: NodeJS.Timeout | undefined;
const workerStart = setTimeout(() => {
  workerRun = notifyWorkers();
  workerTimer = setInterval(() => (workerRun = notifyWorkers()), HOUR_MS);
  workerTimer.unref();
}, HOUR_MS - (Date.now() % HOUR_MS));
workerStart.unref();

onStopSignal(async (signal) => {
  console.log(`\n${signal}: stopping…`);
  clearInterval(maintenanceTimer);
  clearTimeout(workerStart);
  clearInterval(workerTimer);
  site.server.close();
  // The jobs finish on the open database before it closes.
  await maintenanceRun;
  await workerRun;
  await runtime.close();
});
