import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { testSettings } from '../../src/server/env.ts';
import { consumeRateLimit } from '../../src/server/services/limits/rate-limit.ts';
import { bookingPayload, freshClient } from '../fixtures/bookings.ts';
import { createTestContext, jsonRequest } from '../setup/test-app.ts';

// A rate limit's counter commits without waiting for the disk (rate-limit.ts): the first statement
// of most requests costs a fraction of a millisecond instead of a flush of the log. What must
// hold around it: everything else still commits durably, and the setting never outlives the
// counter's own statement.

const ctx = await createTestContext();
const rule = { name: 'commit-test', limit: 5, windowSeconds: 60 };

async function walState() {
  const [row] = rowsOf<{ unflushed: boolean; setting: string }>(
    await ctx.deps.db.execute(
      sql`select pg_current_wal_insert_lsn() > pg_current_wal_flush_lsn() as unflushed, current_setting('synchronous_commit') as setting`,
    ),
  );
  return row!;
}

const onPostgres = Boolean(testSettings().testDatabaseUrl);

describe('rate-limit counters and durable commits', () => {
  it('the statements after counters commit synchronously again, on every connection, and the counters still count', async () => {
    // Ten at once spread over every connection of a PostgreSQL pool (PGlite has one).
    const counted = await Promise.all(Array.from({ length: 10 }, () => consumeRateLimit(ctx.deps.db, rule, 'client-a', ctx.deps.now())));
    const settings = await Promise.all(Array.from({ length: 10 }, async () => (await walState()).setting));
    expect(new Set(settings)).toEqual(new Set(['on']));
    expect(counted.map((result) => result.count).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  // The counter's unflushed log is only certain on the embedded database: it is this file's alone
  // and has no WAL writer flushing in the background. A PostgreSQL server flushes on its own
  // schedule and shares its log with every other test file's database, so there the test holds
  // what is certain everywhere: the booking's commit is on disk when its answer arrives.
  it("a counter's commit leaves its log in memory; a booking's commit writes it to disk", async () => {
    await consumeRateLimit(ctx.deps.db, rule, 'client-b', ctx.deps.now());
    const [before] = rowsOf<{ lsn: string }>(await ctx.deps.db.execute(sql`select pg_current_wal_insert_lsn()::text as lsn`));
    if (!onPostgres) expect((await walState()).unflushed).toBe(true);
    const response = await ctx.app.request('/api/bookings', jsonRequest(bookingPayload({ preferredDate: '2027-07-14' })), freshClient());
    expect(response.status).toBe(201);
    // The booking's own request counted its client (asynchronously) first; its transaction's
    // commit then flushed everything before it too.
    const [flushed] = rowsOf<{ past: boolean }>(
      await ctx.deps.db.execute(sql`select pg_current_wal_flush_lsn() > ${before!.lsn}::pg_lsn as past`),
    );
    expect(flushed!.past).toBe(true);
    if (!onPostgres) expect((await walState()).unflushed).toBe(false);
  });
});
