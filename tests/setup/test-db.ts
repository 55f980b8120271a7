import { readFile } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { testSettings } from '../../src/server/env.ts';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { adminQuery, withDatabase } from './postgres.ts';

/**
 * A fresh, migrated database for one test file: a PGlite copy of the template, or, when
 * TEST_DATABASE_URL is set, a new PostgreSQL database cloned from the template and opened
 * through the production driver selection (node-postgres for a plain postgres:// URL).
 */
export async function createTestDatabase(): Promise<DatabaseHandle & { url?: string }> {
  const adminUrl = testSettings().testDatabaseUrl;
  const postgresTemplate = inject('postgresTemplate');
  if (adminUrl && postgresTemplate) {
    const name = `cp_test_${randomBytes(6).toString('hex')}`;
    await adminQuery(adminUrl, `create database ${name} template ${postgresTemplate}`);
    const url = withDatabase(adminUrl, name);
    const handle = await openDatabase({ url });
    return {
      ...handle,
      url,
      async close() {
        await handle.close();
        await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      },
    };
  }
  const dump = await readFile(inject('pgliteTemplate'));
  return openDatabase({ loadDataDir: new Blob([dump]) });
}
