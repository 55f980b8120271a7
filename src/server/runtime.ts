import { embeddedDataDir, openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { migrateDatabase } from '../../db/migrate.ts';
import { createApp } from './api/app.ts';
import { consoleLogger, type AppDeps } from './api/deps.ts';
import { createBackgroundTasks } from './api/background.ts';
import { ConfigError, getEnv, type Env } from './env.ts';
import { createMailer } from './providers/mailer.ts';
import { createPaymentsProvider } from './providers/stripe-payments.ts';
import { createFileStore } from './providers/files.ts';
import { resolveAdminCredentials, resolveLocalAdminPassword } from './admin-password.ts';

export interface Runtime {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/**
 * Opens the database the settings name and builds the app around it. Locally the migrations
 * run here; on Netlify they ran at deploy (`npm run db:migrate`).
 */
export async function createRuntime(env: Env = getEnv()): Promise<Runtime> {
  if (!env.DATABASE_URL && env.NETLIFY) {
    throw new ConfigError('DATABASE_URL is not set: on Netlify the site needs a Neon database (see README).');
  }
  const database = await openDatabase({ url: env.DATABASE_URL, dataDir: embeddedDataDir(env) });
  // Locally every database is brought up to date on start; on Netlify the deploy did it.
  if (database.driver === 'pglite' || !env.NETLIFY) await migrateDatabase(database);
  // Locally a password is generated (and printed once) when none is set; on Netlify one must be.
  const password =
    env.ADMIN_PASSWORD_HASH || env.NETLIFY ? env.ADMIN_PASSWORD : await resolveLocalAdminPassword(env.ADMIN_PASSWORD, env.DATA_DIR);
  const admin = await resolveAdminCredentials({ passwordHash: env.ADMIN_PASSWORD_HASH, password });
  if (!admin) consoleLogger.warn('No ADMIN_PASSWORD or ADMIN_PASSWORD_HASH is set: nobody can sign in to /admin');
  const deps: AppDeps = {
    db: database.db,
    env,
    mailer: createMailer(env, consoleLogger),
    payments: createPaymentsProvider(env),
    files: createFileStore(env),
    admin,
    now: () => new Date(),
    log: consoleLogger,
    background: createBackgroundTasks(consoleLogger),
  };
  return {
    app: createApp(deps),
    deps,
    database,
    // Work started by answered requests (e-mail delivery) finishes before the database closes.
    close: async () => {
      await deps.background.idle();
      await database.close();
    },
  };
}

let shared: Promise<Runtime> | undefined;

/** One runtime per function instance, reused across invocations. */
export function getRuntime(): Promise<Runtime> {
  shared ??= createRuntime().catch((error) => {
    shared = undefined;
    throw error;
  });
  return shared;
}
