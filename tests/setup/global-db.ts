/**
 * Runs once per test run: migrates a template database so each test file can start from a
 * copy in well under a second (conventions: "database per test worker").
 * - PGlite (default): a migrated data directory, dumped to a file that each file loads.
 * - PostgreSQL (TEST_DATABASE_URL set, as in CI): a migrated template database that each
 *   file clones with CREATE DATABASE ... TEMPLATE.
 */
import { mkdir, writeFile, rm } from 'node:fs/promises';
import path from 'node:path';
import os from 'node:os';
import type { TestProject } from 'vitest/node';
import { testSettings } from '../../src/server/env.ts';
import { openDatabase } from '../../db/client.ts';
import { migrateDatabase } from '../../db/migrate.ts';
import { adminQuery, withDatabase } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

export default async function setup(project: TestProject) {
  const adminUrl = testSettings().testDatabaseUrl;
  if (adminUrl) {
    const template = `cp_template_${process.pid}_${Date.now()}`;
    await adminQuery(adminUrl, `create database ${template}`);
    const handle = await openDatabase({ url: withDatabase(adminUrl, template) });
    await migrateDatabase(handle);
    await handle.close();
    project.provide('postgresTemplate', template);
    project.provide('pgliteTemplate', '');
    return async () => {
      await adminQuery(adminUrl, `drop database if exists ${template} with (force)`);
    };
  }

  const dir = path.join(os.tmpdir(), `cp-test-${process.pid}-${Date.now()}`);
  await mkdir(dir, { recursive: true });
  const handle = await openDatabase();
  await migrateDatabase(handle);
  const { PGlite } = await import('@electric-sql/pglite');
  const client = (handle.db as unknown as { $client: InstanceType<typeof PGlite> }).$client;
  const dump = await client.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await handle.close();
  project.provide('pgliteTemplate', file);
  project.provide('postgresTemplate', '');
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
