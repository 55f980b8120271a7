import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { rowsOf, type Database } from './client.ts';

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
  await db.execute(combined(writes, sql`select 1`));
}

/**
 * runCombined with one more write, last, whose RETURNING rows it answers (raw rows, with the
 * database's column names).
 */
export async function runCombinedReturning<Row>(db: Database, writes: readonly SQLWrapper[], returning: SQLWrapper): Promise<Row[]> {
  const all = [...writes, returning];
  return rowsOf<Row>(await db.execute(combined(all, sql`select * from ${sql.raw(`w${all.length - 1}`)}`)));
}

function combined(writes: readonly SQLWrapper[], final: SQL) {
  const clauses = writes.map((write, index) => sql`${sql.raw(`w${index}`)} as (${write.getSQL()})`);
  return sql`with ${sql.join(clauses, sql`, `)} ${final}`;
}
