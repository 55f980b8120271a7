/**
 * `npm run db:export [file]`: writes the database DATABASE_URL names (default: the embedded one
 * under DATA_DIR) to a JSON dump (default backups/clean-patch-<date>.json). Files under
 * DATA_DIR/uploads are not in the dump: copy that folder beside it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { getEnv } from '../src/server/env.ts';
import { embeddedDataDir, openDatabase } from '../db/client.ts';
import { migrateDatabase } from '../db/migrate.ts';
import { exportDatabase } from '../db/dump.ts';

const env = getEnv();
const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: embeddedDataDir(env) });
await migrateDatabase(handle);
const dump = await exportDatabase(handle.db);
await handle.close();
const file = path.resolve(process.argv[2] ?? `backups/clean-patch-${dump.exportedAt.slice(0, 19).replace(/:/g, '-')}.json`);
await mkdir(path.dirname(file), { recursive: true });
await writeFile(file, JSON.stringify(dump), { mode: 0o600 });
const rows = Object.values(dump.tables).reduce((sum, table) => sum + table.length, 0);
console.log(`Exported ${rows} rows from ${Object.keys(dump.tables).length} tables to ${file}`);
