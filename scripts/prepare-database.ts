/**
 * Run by `npm start` (scripts/start.mjs) in a process of its own before the server starts:
 * creates the embedded database on a new data folder, then exits, taking the memory that
 * creating it cost with it (src/server/local-database.ts).
 */
import { getEnv } from '../src/server/env.ts';
import { createLocalDatabaseIfMissing } from '../src/server/local-database.ts';

if (await createLocalDatabaseIfMissing(getEnv())) console.log('Created the local database.');
