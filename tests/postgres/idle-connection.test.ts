/**
 * A pooled connection can die while idle: the server restarts, Neon suspends its compute, an
 * operator ends a session. node-postgres then emits 'error' on the pool, which crashes the
 * process unless someone listens. db/client.ts listens; this proves the app survives and the
 * next query simply opens a new connection.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../../db/client.ts';
import { adminQuery, withDatabase } from '../setup/postgres.ts';
import { testSettings } from '../../src/server/env.ts';

const adminUrl = testSettings().testDatabaseUrl;
if (!adminUrl) throw new Error('The postgres suite needs TEST_DATABASE_URL (see .ci/run)');
const name = `cp_idle_${randomBytes(5).toString('hex')}`;
let handle: DatabaseHandle;

beforeAll(async () => {
  await adminQuery(adminUrl, `create database ${name}`);
  handle = await openDatabase({ url: withDatabase(adminUrl, name) });
});

afterAll(async () => {
  await handle?.close();
  await adminQuery(adminUrl, `drop database if exists ${name} with (force)`);
});

/** The server process behind the pool's connection (node-postgres answers with `rows`). */
async function backendPid(): Promise<number> {
  const result = (await handle.db.execute(sql`select pg_backend_pid() as pid`)) as unknown as { rows: { pid: number }[] };
  return result.rows[0]!.pid;
}

describe('node-postgres pool', () => {
  it('logs an idle connection killed by the server and reconnects on the next query', async () => {
    expect(handle.driver).toBe('pg');
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const uncaught = vi.fn();
    process.on('uncaughtException', uncaught);
    try {
      const pid = await backendPid();
      await adminQuery(adminUrl, `select pg_terminate_backend(${Number(pid)})`);
      await vi.waitFor(() => expect(logged).toHaveBeenCalledWith(expect.stringContaining('Idle database connection failed')));

      expect(await backendPid()).not.toBe(pid);
      expect(uncaught).not.toHaveBeenCalled();
    } finally {
      process.off('uncaughtException', uncaught);
      logged.mockRestore();
    }
  });
});
