/**
 * Applies db/migrations with the migrator that matches the driver. Runs on local start and
 * as `npm run db:migrate` at deploy (Netlify build, with DATABASE_URL pointing at Neon).
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { existsSync } from 'node:fs';
import type { DatabaseHandle } from './client.ts';

// Beside this file normally; from the project root when a bundler moved this module
// (the Netlify Vite plugin serves the function from a bundle during `npm run dev`).
const besideThisFile = fileURLToPath(new URL('./migrations', import.meta.url));
export const MIGRATIONS_FOLDER = existsSync(besideThisFile) ? besideThisFile : path.resolve('db/migrations');

export async function migrateDatabase(handle: DatabaseHandle, migrationsFolder = MIGRATIONS_FOLDER) {
  const config = { migrationsFolder };
  if (handle.driver === 'pglite') {
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(handle.db as never, config);
  } else if (handle.driver === 'neon') {
    const { migrate } = await import('drizzle-orm/neon-serverless/migrator');
    await migrate(handle.db as never, config);
  } else {
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    await migrate(handle.db as never, config);
  }
}

// `npm run db:migrate`
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { getEnv } = await import('../src/server/env.ts');
  const { embeddedDataDir, openDatabase } = await import('./client.ts');
  const env = getEnv();
  if (env.NETLIFY && !env.DATABASE_URL) {
    console.error('DATABASE_URL (or NETLIFY_DATABASE_URL) is not set: connect a Neon database to the site first (docs/DEPLOYMENT.md, Steps).');
    process.exit(1);
  }
  const handle = await openDatabase({
    url: env.DATABASE_URL,
    dataDir: embeddedDataDir(env),
  });
  await migrateDatabase(handle);
  await handle.close();
  console.log(`Migrations applied (${handle.driver}).`);
}
