import { embeddedDataDir, openDatabase } from '../../../db/client.ts';
import { migrateDatabase } from '../../../db/migrate.ts';
import { inProcessPdfPreviews } from '../providers/pdf-previews.ts';
import type { Platform } from '../runtime-deps.ts';

/**
 * `npm start`, the scripts and the benches (runtime-deps.ts): PGlite under DATA_DIR or the server
 * DATABASE_URL names, brought up to date on start; PDF previews drawn in this process.
 */
export const localPlatform: Platform = {
  async openDatabase(env) {
    const database = await openDatabase({ url: env.DATABASE_URL, dataDir: embeddedDataDir(env) });
    // Locally every database is brought up to date on start; on Netlify the deploy did it.
    await migrateDatabase(database);
    return database;
  },
  pdfPreviews: () => inProcessPdfPreviews,
};
