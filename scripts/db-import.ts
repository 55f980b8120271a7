/**
 * `npm run db:import <file>`: replaces every row of the database DATABASE_URL names (default: the
 * embedded one under DATA_DIR) with a dump from `npm run db:export`, after bringing its schema up
 * to date. One transaction: a dump that does not load changes nothing. Stop `npm start` first.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { getEnv } from '../src/server/env.ts';
import { embeddedDataDir, openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { importDatabase } from '../db/dump.ts';

const file = process.argv[2];
if (!file) {
  console.error('Usage: npm run db:import -- <dump.json>');
  process.exit(2);
}
const env = getEnv();
const dump = JSON.parse(await readFile(path.resolve(file), 'utf8'));
const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: embeddedDataDir(env) });
await migrateDatabase(handle);
const counts = await importDatabase(handle.db, dump);
await handle.close();
console.log(`Imported ${Object.values(counts).reduce((a, b) => a + b, 0)} rows into ${Object.keys(counts).length} tables from ${file}`);
