/**
 * One database handle, whichever PostgreSQL is behind it:
 * - no DATABASE_URL → PGlite (PostgreSQL in WebAssembly) stored under DATA_DIR, or in memory;
 * - a Neon URL → Neon's serverless driver (WebSocket Pool: interactive transactions work);
 * - any other postgres:// URL → node-postgres.
 * All three speak the same drizzle query builder, so services never know which one they have.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema.ts';
import { lockDataDir } from './data-dir-lock.ts';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Driver = 'pglite' | 'neon' | 'pg';

export interface DatabaseHandle {
  db: Database;
  driver: Driver;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** A postgres:// URL; unset means embedded PGlite. */
  url?: string;
  /** PGlite's data directory; unset means in memory. */
  dataDir?: string;
  /** A PGlite data dump (from `dumpDataDir`) to start from: how tests copy a migrated template. */
  loadDataDir?: Blob | File;
  /** Neon only: route its WebSocket through a local proxy (tests and offline work). */
  neonWsProxy?: (host: string, port: number | string) => string;
  /** Sees every statement drizzle sends (the scale bench uses it to EXPLAIN what an endpoint runs). */
  logger?: Logger;
}

/** Where the embedded database lives under DATA_DIR; undefined when DATABASE_URL names a server. */
export function embeddedDataDir(settings: { DATABASE_URL?: string; DATA_DIR: string }): string | undefined {
  return settings.DATABASE_URL ? undefined : path.resolve(settings.DATA_DIR, 'pglite');
}

export function driverFor(url: string | undefined): Driver {
  if (!url) return 'pglite';
  const host = safeHost(url);
  // Neon's hosts end in neon.tech (and neon.build for branches); neon:// is accepted for tests.
  if (url.startsWith('neon://') || /\.neon\.(tech|build)$/.test(host)) return 'neon';
  if (/^postgres(ql)?:\/\//.test(url)) return 'pg';
  throw new Error('DATABASE_URL must be a postgres:// or postgresql:// URL');
}

function safeHost(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/** PGlite's shared buffers (see openDatabase). */
export const PGLITE_SHARED_BUFFERS = '16MB';

export async function openDatabase(options: OpenOptions = {}): Promise<DatabaseHandle> {
  const driver = driverFor(options.url);

  if (driver === 'pglite') {
    // The one place the data directory is made: every command (start, db:migrate, db:seed,
    // db:export, db:import) may be the first to run on a fresh clone with no DATA_DIR yet.
    if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
    // Refused before anything is read: another process has this folder open (data-dir-lock.ts).
    const release = options.dataDir ? lockDataDir(options.dataDir) : () => undefined;
    let client: Awaited<ReturnType<typeof createPGlite>>;
    try {
      client = await createPGlite(options);
    } catch (error) {
      release();
      throw error;
    }
    const { drizzle } = await import('drizzle-orm/pglite');
    return {
      db: drizzle(client, { schema, logger: options.logger }) as unknown as Database,
      driver,
      close: () => client.close().finally(release),
    };
  }

  return openServerDatabase(options);
}

/**
 * A PostgreSQL server only (Neon's driver or node-postgres), never PGlite: what Netlify's
 * functions open (src/server/platform/netlify.ts). Kept apart from openDatabase so a function's
 * code never reaches PGlite's import and Netlify's file tracer never packs its 17 MB of
 * WebAssembly (docs/DEPLOYMENT.md, "What each function carries").
 */
export async function openServerDatabase(options: OpenOptions = {}): Promise<DatabaseHandle> {
  const driver = driverFor(options.url);
  if (driver === 'pglite') throw new Error('DATABASE_URL is not set: this runtime needs a PostgreSQL server');

  if (driver === 'neon') {
    const { Pool, neonConfig } = await import('@neondatabase/serverless');
    const { drizzle } = await import('drizzle-orm/neon-serverless');
    if (options.neonWsProxy) {
      neonConfig.wsProxy = options.neonWsProxy;
      neonConfig.useSecureWebSocket = false;
      neonConfig.pipelineTLS = false;
      neonConfig.pipelineConnect = false;
    }
    const pool = new Pool({ connectionString: options.url!.replace(/^neon:/, 'postgres:') });
    pool.on('error', reportIdleConnectionError);
    return {
      db: drizzle(pool, { schema, logger: options.logger }) as unknown as Database,
      driver,
      close: () => pool.end(),
    };
  }

  const { default: pg } = await import('pg');
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: options.url, max: 5 });
  pool.on('error', reportIdleConnectionError);
  return {
    db: drizzle(pool, { schema, logger: options.logger }) as unknown as Database,
    driver,
    close: () => pool.end(),
  };
}

/** PGlite with the project's extension and settings: on its folder, in memory, or from a dump. */
async function createPGlite(options: OpenOptions) {
  const { PGlite } = await import('@electric-sql/pglite');
  // pg_trgm backs the admin's free-text search indexes (migration 0016); PGlite loads an
  // extension's code only when asked, in every instance that opens such a database.
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  return PGlite.create({
    extensions: { pg_trgm },
    // PostgreSQL's default 128 MB of shared buffers lives inside PGlite's WebAssembly memory,
    // which never shrinks: most of the local server's memory for a database of a few MB. The
    // files are cached by the operating system anyway.
    postgresqlconf: [`shared_buffers = ${PGLITE_SHARED_BUFFERS}`],
    ...(options.dataDir ? { dataDir: options.dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
}

/**
 * A pool emits 'error' when an idle connection dies (the server restarted, Neon suspended the
 * compute, a test dropped its database). Unheard, that event would crash the process; the pool
 * already drops the broken connection and opens a new one on the next query, so a log is enough.
 */
function reportIdleConnectionError(error: Error): void {
  console.error(JSON.stringify({ level: 'error', message: 'Idle database connection failed', error: error.message }));
}

/**
 * Whether a query failed on a unique index (PostgreSQL's 23505), optionally a named one. Drivers
 * report it on the error drizzle wraps (`cause`), with the index's name in `constraint`.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let current = error; current instanceof Object; current = (current as { cause?: unknown }).cause) {
    const { code, constraint: name } = current as { code?: unknown; constraint?: unknown };
    if (code === '23505') return constraint === undefined || name === undefined || name === constraint;
  }
  return false;
}

export { schema };

/** The handle a `db.transaction(async (tx) => …)` callback gets. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * The rows of a raw `db.execute(sql\`…\`)`: node-postgres and Neon return {rows}; PGlite returns
 * {rows} too, but typed differently.
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
