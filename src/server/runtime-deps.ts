import type { DatabaseHandle } from '../../db/client.ts';
import { consoleLogger } from './app/logger.ts';
import type { AppDeps } from './app/deps.ts';
import { createBackgroundTasks } from './app/background.ts';
import { ConfigError, type Env } from './env.ts';
import { createMailer } from './providers/mailer.ts';
import { createPaymentsProvider } from './providers/stripe-payments.ts';
import { createFileStore } from './providers/files.ts';
import type { PdfPreviewRenderer } from './providers/pdf-previews.ts';
import { resolveAdminCredentials, resolveLocalAdminPassword } from './admin-password.ts';

/**
 * What differs between the local server and Netlify's functions, chosen by the entry point and
 * never by a branch in shared code: each entry's imports are all that a function carries
 * (Netlify's file tracer packs every module a function's code can reach).
 * - platform/local.ts (`npm start`, the tests, scripts): PGlite or a server, migrated on start;
 *   a PDF proof's preview drawn in this process.
 * - platform/netlify.ts (netlify/functions/*): a PostgreSQL server only (the deploy migrated it);
 *   the preview drawn by the proof-preview function.
 */
export interface Platform {
  openDatabase(env: Env): Promise<DatabaseHandle>;
  /** Who draws a PDF proof's first page (providers/pdf-previews.ts). */
  pdfPreviews(env: Env): PdfPreviewRenderer;
}

export interface DepsRuntime {
  deps: AppDeps;
  database: DatabaseHandle;
  close(): Promise<void>;
}

/** The app's dependencies around the database the settings name; no app, no routes. */
export async function createDeps(env: Env, platform: Platform): Promise<DepsRuntime> {
  if (!env.DATABASE_URL && env.NETLIFY) {
    throw new ConfigError('DATABASE_URL is not set: on Netlify the site needs a Neon database (see docs/DEPLOYMENT.md).');
  }
  const database = await platform.openDatabase(env);
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
    pdfPreviews: platform.pdfPreviews(env),
    admin,
    now: () => new Date(),
    log: consoleLogger,
    background: createBackgroundTasks(consoleLogger),
  };
  return {
    deps,
    database,
    // Work started by answered requests (e-mail delivery) finishes before the database closes.
    close: async () => {
      await deps.background.idle();
      await database.close();
    },
  };
}

/** One value per function instance, reused across invocations; a failed start is tried again. */
export function once<T>(start: () => Promise<T>): () => Promise<T> {
  let shared: Promise<T> | undefined;
  return () => {
    shared ??= start().catch((error: unknown) => {
      shared = undefined;
      throw error;
    });
    return shared;
  };
}
