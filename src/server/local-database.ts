import path from 'node:path';
import { existsSync } from 'node:fs';
import { embeddedDataDir, openDatabase } from '../../db/client.ts';
import { migrateDatabase } from '../../db/migrate.ts';
import type { Env } from './env.ts';

/**
 * Creates and migrates the embedded database when DATA_DIR holds none yet; does nothing when
 * it exists or DATABASE_URL names a server. `npm start` runs this in a short-lived process of
 * its own before serving: creating a database (PostgreSQL's initdb) grows PGlite's WebAssembly
 * memory to about 450 MB, and WebAssembly memory is never given back while a process lives,
 * whereas the serving process that then opens the ready database stays near its floor.
 */
export async function createLocalDatabaseIfMissing(env: Pick<Env, 'DATA_DIR' | 'DATABASE_URL'>): Promise<boolean> {
  const dataDir = embeddedDataDir(env);
  if (!dataDir || existsSync(path.join(dataDir, 'PG_VERSION'))) return false;
  // openDatabase creates the folder.
  const handle = await openDatabase({ dataDir });
  try {
    await migrateDatabase(handle);
  } finally {
    await handle.close();
  }
  return true;
}
