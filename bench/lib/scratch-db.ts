/**
 * Throwaway databases for the benches: a PGlite data folder in a temporary directory, or a
 * database of its own on the PostgreSQL server of BENCH_DATABASE_URL (default: the local server
 * on 127.0.0.1:5432 as user postgres), created at start and dropped at the end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { testSettings } from '../../src/server/env.ts';
import { adminQuery, withDatabase } from '../../tests/setup/postgres.ts';

export type BenchDb = 'pglite' | 'pg';
export const BENCH_DBS: readonly BenchDb[] = ['pglite', 'pg'];

export interface ScratchDatabase {
  kind: BenchDb;
  /** DATABASE_URL for the app; unset for PGlite. */
  url?: string;
  /** The app's DATA_DIR (PGlite lives in its `pglite` folder; uploads beside it). */
  dataDir: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(kind: BenchDb, label: string): Promise<ScratchDatabase> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `cp-bench-${label}-`));
  const removeDir = () => rmSync(dataDir, { recursive: true, force: true });
  if (kind === 'pglite') return { kind, dataDir, drop: async () => removeDir() };

  const adminUrl = testSettings().benchDatabaseUrl;
  const name = `cp_bench_${label.replace(/\W/g, '_')}_${process.pid}`;
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
  await adminQuery(adminUrl, `create database ${name}`);
  return {
    kind,
    url: withDatabase(adminUrl, name),
    dataDir,
    async drop() {
      await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
      removeDir();
    },
  };
}

/** Reads `--name=value` (or the default) from the command line. */
export function option(argv: string[], name: string, fallback: string): string {
  return argv.find((argument) => argument.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}

/** `--db=pglite,pg` (default both) as a list, refusing unknown names. */
export function databasesOption(argv: string[], fallback = 'pglite,pg'): BenchDb[] {
  const names = option(argv, 'db', fallback).split(',').filter(Boolean);
  for (const name of names) if (!BENCH_DBS.includes(name as BenchDb)) throw new Error(`--db must name pglite and/or pg, not ${name}`);
  return names as BenchDb[];
}
