import type { DatabaseHandle } from '../../db/client.ts';
import { createApp } from './api/app.ts';
import type { AppDeps } from './app/deps.ts';
import type { Env } from './env.ts';
import { createDeps, type Platform } from './runtime-deps.ts';

export interface Runtime {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * Opens the database the settings name and builds the app around it, on the platform the entry
 * point names (runtime-deps.ts): `localPlatform` for `npm start`, the scripts and the benches,
 * `netlifyPlatform` for the API function.
 */
export async function createRuntime(env: Env, platform: Platform): Promise<Runtime> {
  const base = await createDeps(env, platform);
  return { ...base, app: createApp(base.deps) };
}
