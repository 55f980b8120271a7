import { PGlite } from '@electric-sql/pglite';
import type { Logger as QueryLogger } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { Pool } from 'pg';
import { schema, type Database } from '../../db/client.ts';

export interface RecordedStatement {
  sql: string;
  params: unknown[];
}

function clientOf(db: Database): PGlite | Pool {
  return (db as unknown as { $client: PGlite | Pool }).$client;
}

/**
 * The same database through a drizzle that records every statement it sends, with its
 * parameters. BEGIN and COMMIT are left out: some drivers send them through drizzle and PGlite
 * inside its own call, so counts are the same on every driver.
 */
export function recordingDatabase(db: Database): { db: Database; statements: RecordedStatement[] } {
  const statements: RecordedStatement[] = [];
  const logger: QueryLogger = {
    logQuery(query, params) {
      if (!/^\s*(begin|commit|rollback)\b/i.test(query)) statements.push({ sql: query, params });
    },
  };
  const client = clientOf(db);
  const recording = client instanceof PGlite ? drizzlePglite(client, { schema, logger }) : drizzlePg(client, { schema, logger });
  return { db: recording as unknown as Database, statements };
}

/**
 * The plan PostgreSQL would choose for `statement` if reading whole tables were its last resort:
 * shows whether an index can serve the statement at all, which a test's handful of rows (where a
 * sequential scan is rightly cheaper) would otherwise hide.
 */
export async function planWithoutSequentialScans(db: Database, statement: RecordedStatement): Promise<string> {
  const client = clientOf(db);
  const explain = `explain ${statement.sql}`;
  const lines = (rows: Array<Record<string, unknown>>) => rows.map((row) => String(Object.values(row)[0])).join('\n');
  if (client instanceof PGlite) {
    return client.transaction(async (tx) => {
      await tx.query('set local enable_seqscan = off');
      return lines((await tx.query<Record<string, unknown>>(explain, statement.params)).rows);
    });
  }
  const connection = await client.connect();
  try {
    await connection.query('begin');
    await connection.query('set local enable_seqscan = off');
    return lines((await connection.query(explain, statement.params as unknown[])).rows);
  } finally {
    // Released even when the rollback fails (a broken connection), or the pool's end() would wait
    // for it forever.
    try {
      await connection.query('rollback');
    } finally {
      connection.release();
    }
  }
}
