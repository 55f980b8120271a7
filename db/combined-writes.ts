import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Database } from './client.ts';

/**
 * Runs several INSERT/UPDATE statements as ONE statement, each a data-modifying WITH clause:
 * one round trip to the database instead of one per write, which is most of a write's cost on a
 * busy pool and on PGlite. The writes share one snapshot and do not see each other's rows, so
 * combine only writes that do not read one another (rows that reference a row written by an
 * earlier statement are fine: foreign keys are checked at the end of the statement). Any
 * failure fails them all, and the caller's transaction with them.
 */
export async function runCombined(db: Database, writes: readonly SQLWrapper[]): Promise<void> {
  if (writes.length === 0) return;
  const clauses = writes.map((write, index) => sql`${sql.raw(`w${index}`)} as (${write.getSQL()})`);
  await db.execute(sql`with ${sql.join(clauses, sql`, `)} select 1`);
}
